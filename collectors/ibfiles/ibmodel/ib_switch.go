package ibmodel

import (
	"sort"
	"strings"

	"github.com/qoslint/qoslint/model"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/internal/source"
)

// switchName takes the host name out of an NVIDIA switch's node
// description, "MF0;<hostname>:<model>/U1" (ibnetdiscover output of
// Quantum switches, e.g. "MF0;ib-leaf01:MQM9700/U1"); any other
// description is kept whole.
func switchName(desc string) string {
	if _, rest, ok := strings.Cut(desc, ";"); ok {
		if h, _, ok := strings.Cut(rest, ":"); ok && h != "" {
			return h
		}
	}
	if desc == "" {
		return "switch"
	}
	return desc
}

func buildIBSwitches(host string, file string, caps []*collectors.IBSwitchCapture) []*model.IBSwitch {
	var out []*model.IBSwitch
	for _, c := range caps {
		sw := &model.IBSwitch{Host: host, Name: switchName(c.Desc), GUID: c.GUID, LID: c.LID, Enhanced: c.Enhanced,
			Pos: source.Pos{File: file, Line: c.Line}}
		for _, pc := range c.Ports {
			sw.Ports = append(sw.Ports, buildIBSwitchPort(sw, pc))
		}
		sort.Slice(sw.Ports, func(i, j int) bool { return sw.Ports[i].Port < sw.Ports[j].Port })
		out = append(out, sw)
	}
	return out
}

func buildIBSwitchPort(sw *model.IBSwitch, pc *collectors.IBSwitchPortCapture) *model.IBSwitchPort {
	p := &model.IBSwitchPort{Switch: sw, Port: pc.Port, HighLimit: -1}
	if pi := pc.PortInfo; pi != nil {
		p.Active = pi.LinkState == "Active"
		if pi.OperVLs > 0 {
			p.OperVLs, p.OperVLsPos = pi.OperVLs, source.Pos{File: pi.File, Line: pi.OperVLsLine}
		}
		if pi.VLHighLimit >= 0 {
			p.HighLimit, p.HighLimitPos = pi.VLHighLimit, source.Pos{File: pi.File, Line: pi.VLHighLimitLine}
		}
	}
	if s := pc.SL2VL; s != nil {
		for _, r := range s.Rows {
			// smpquery prints the rows of the output port it was asked
			// for; a row of another one is not this port's.
			if r.Out == pc.Port {
				p.SL2VL = append(p.SL2VL, model.SL2VLIn{In: r.In, VL: r.VL, Pos: source.Pos{File: s.File, Line: r.Line}})
			}
		}
		sort.Slice(p.SL2VL, func(i, j int) bool { return p.SL2VL[i].In < p.SL2VL[j].In })
	}
	if v := pc.VLArb; v != nil && !v.NoTables {
		p.VLArb, p.VLArbPos = vlArb(v), source.Pos{File: v.File, Line: v.Line}
	}
	return p
}
