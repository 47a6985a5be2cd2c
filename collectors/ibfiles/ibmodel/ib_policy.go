package ibmodel

import (
	"strings"

	"github.com/qoslint/qoslint/model"

	"github.com/qoslint/qoslint/collectors/ibfiles"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// setPolicy records the QoS policy file next to opensm.conf.
func setPolicy(sm *model.SMIntent, f *model.Fabric, c *ibfiles.OpenSMConf, p *ibfiles.QoSPolicy) {
	sm.Policy.Path = model.Defaulted(layout.QoSPolicyPath, "OpenSM default (opensm/include/opensm/osm_base.h OSM_DEFAULT_QOS_POLICY_FILE)")
	if c.PolicyFile != nil {
		sm.Policy.Path = model.Explicit(c.PolicyFile.Value, source.Pos{File: c.File, Line: c.PolicyFile.Line})
	}
	if p == nil {
		return
	}
	sm.Policy.File = p.File
	if len(p.Skipped) > 0 {
		f.Notes = append(f.Notes, &source.Error{Device: sm.Device, Pos: source.Pos{File: p.File},
			Msg: "sections not read (their rules are not checked): " + strings.Join(p.Skipped, ", ")})
	}
	sl, line, ok := policyDefaultSL(p)
	switch {
	case !ok:
		sm.Policy.NoDefault = true
	case sl >= 0:
		sm.Policy.DefaultSL = model.Explicit(sl, source.Pos{File: p.File, Line: line})
	default:
		// The documentation is silent on a DEFAULT level without sl.
		f.Notes = append(f.Notes, &source.Error{Device: sm.Device, Pos: source.Pos{File: p.File, Line: line},
			Msg: "the DEFAULT qos-level sets no sl: the SL of path records no rule matches is not known (linux-rdma/opensm doc/QoS_management_in_OpenSM.txt is silent on it), so it is not checked"})
	}
}

// policyDefaultSL is the SL OpenSM gives a path record request no rule
// matches: the qos-level named DEFAULT (names compare case-insensitively,
// the first one found), else the qos-ulps "default" rule, the last one
// read (opensm/osm_qos_policy.c osm_qos_policy_validate and
// __qos_policy_get_qos_level_by_name; osm_qos_parser_y.y sets
// __default_simple_qos_level at each "default" line). ok is false when
// the file has neither: OpenSM then refuses the policy (ERR AC10). A
// DEFAULT level without an sl line gives sl -1 and its qos-level line.
func policyDefaultSL(p *ibfiles.QoSPolicy) (sl, line int, ok bool) {
	for _, l := range p.Levels {
		if strings.EqualFold(l.Name, "DEFAULT") {
			if l.SL < 0 {
				return -1, l.Line, true
			}
			return l.SL, l.SLLine, true
		}
	}
	for _, r := range p.ULPs {
		if r.ULP == "default" {
			sl, line, ok = r.SL, r.Line, true
		}
	}
	return sl, line, ok
}
