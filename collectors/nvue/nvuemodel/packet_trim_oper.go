package nvuemodel

import (
	"slices"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/nvrange"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// AttachTrimShows gives the switch its packet trimming views, lists them
// as not collected where the configuration trims and they are missing,
// and reads what is set on the service port the switch names when the
// configuration names none.
func AttachTrimShows(sw *model.Switch, show *nvue.PacketTrimShow, remark *nvue.RemarkShow) {
	t := sw.Trim
	if t == nil {
		return
	}
	if show != nil {
		t.Oper = trimOper(sw, show)
	}
	if remark != nil {
		t.RemarkOper = remarkOper(remark)
	}
	if !t.Enabled.V {
		return
	}
	// Clip: NotCollected shares its array with the capture's Missing.
	sw.NotCollected = slices.Clip(sw.NotCollected)
	if t.Oper == nil {
		sw.NotCollected = append(sw.NotCollected, layout.PacketTrimShowFile)
	}
	if t.RemarkOper == nil && len(t.Remark) > 0 {
		sw.NotCollected = append(sw.NotCollected, layout.RemarkShowFile)
	}
	if b, ok := sw.ConfigPorts().(*switchBuilder); ok && !t.ServicePort.Known && t.Oper != nil && t.Oper.ServicePort.Known && b.ifaces != nil {
		t.ServiceSettings = b.serviceSettings(t.Oper.ServicePort.V)
	}
}

func trimOper(sw *model.Switch, s *nvue.PacketTrimShow) *model.TrimOper {
	o := &model.TrimOper{File: s.File, Eligible: map[int]model.Value[[]string]{}}
	pos := func(line int) source.Pos { return source.Pos{File: s.File, Line: line} }
	leaf := func(k string) (string, source.Pos, bool) {
		f, ok := s.Leaves[k]
		v := f.Value()
		return v, pos(f.Line), ok && v != "" && v != "-"
	}
	if f, ok := s.Leaves["state"]; ok {
		if v, ok := model.ParseBool(f.Value()); ok {
			o.State = model.Explicit(v, pos(f.Line))
		}
		if v, ok := model.ParseBool(f.Applied); ok {
			o.AppliedState = model.Explicit(v, pos(f.Line))
		}
	}
	if f, ok := s.Leaves["profile"]; ok {
		o.Profile = model.Explicit(f.Value(), pos(f.Line))
	}
	if v, at, ok := leaf("service-port"); ok {
		o.ServicePort = model.Explicit(v, at)
	}
	for k, dst := range map[string]*model.Value[int]{"size": &o.Size, "traffic-class": &o.TC, "switch-priority": &o.SwitchPriority} {
		if v, at, ok := leaf(k); ok {
			if n, err := strconv.Atoi(v); err == nil {
				*dst = model.Explicit(n, at)
			}
		}
	}
	if v, at, ok := leaf("remark.dscp"); ok {
		if v == "port-level" {
			o.PortLevel = model.Explicit(true, at)
		} else if n, err := strconv.Atoi(v); err == nil && n >= 0 && n <= 63 {
			o.DSCP, o.PortLevel = model.Explicit(n, at), model.Explicit(false, at)
		}
	}
	if v, at, ok := leaf("session-info.session-down-reason"); ok {
		o.DownReason = model.Explicit(v, at)
	}
	if s.EligibilityLine > 0 {
		o.EligiblePos = pos(s.EligibilityLine)
		for _, e := range s.Eligibility {
			names, err := nvrange.ExpandNames(e.Interfaces)
			if err != nil {
				sw.Notes = append(sw.Notes, source.Errorf(s.File, e.Line, "eligible interfaces %q not read: %v", e.Interfaces, err))
				continue
			}
			prev := o.Eligible[e.TC]
			o.Eligible[e.TC] = model.Explicit(append(prev.V, names...), pos(e.Line))
		}
	}
	if s.RemarkLine > 0 {
		o.RemarkPos = pos(s.RemarkLine)
		for _, r := range s.Remarks {
			o.Remarks = append(o.Remarks, model.TrimOperRemark{Profile: r.Profile, Interface: r.Interface, SP: r.SP, DSCP: r.DSCP, Pos: pos(r.Line)})
		}
	}
	return o
}

func remarkOper(s *nvue.RemarkShow) *model.RemarkOper {
	o := &model.RemarkOper{File: s.File, Profiles: map[string]model.RemarkOperProfile{}}
	for _, p := range s.Profiles {
		sps, ok := p.MappedSPs()
		o.Profiles[p.Profile] = model.RemarkOperProfile{Rewrite: strings.TrimSpace(p.Rewrite), SPs: sps, SPsKnown: ok,
			Pos: source.Pos{File: s.File, Line: p.Line}}
	}
	return o
}
