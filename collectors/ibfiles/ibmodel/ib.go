// Package ibmodel builds the InfiniBand part of the model from the host
// captures (smpquery, ibswitches, opensm.conf and its QoS policy file) and
// ibdiagnet, so the model names no parser type of ibfiles.
package ibmodel

import (
	"fmt"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/collectors/hostfiles/hostmodel"
	"github.com/qoslint/qoslint/model"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/ibfiles"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
)

func IB(f *model.Fabric, inv *inventory.Inventory, c *collectors.Capture) {
	if !inv.HasIB() {
		return
	}
	f.IB = &model.IBFabric{}
	for _, hc := range c.Hosts {
		if hc.IB == nil {
			continue
		}
		h := &model.IBHost{Name: hc.Name}
		h.SL, h.SLLayer = hostmodel.NCCLSL(hc)
		var fromDiag []string
		for _, pc := range hc.IB.Ports {
			p := buildIBPort(hc, pc)
			if what := fillFromDiagnet(p, pc, c.IBDiagnet); what != "" {
				fromDiag = append(fromDiag, p.Name()+" ("+what+")")
			}
			h.Ports = append(h.Ports, p)
		}
		if len(fromDiag) > 0 {
			f.Notes = append(f.Notes, &source.Error{Device: hc.Name, Pos: source.Pos{File: layout.IBDiagnetDBFile},
				Msg: fmt.Sprintf("taken from ibdiagnet, as the host has no smpquery capture of them: %s", strings.Join(fromDiag, ", "))})
		}
		f.IB.Hosts = append(f.IB.Hosts, h)
		addSwitches(f.IB, buildIBSwitches(hc.Name, layout.DeviceFile(hc.Name, layout.IBSwitchesFile), hc.IB.Switches))
		if hc.IB.OpenSM != nil {
			if f.IB.SM != nil {
				f.Notes = append(f.Notes, &source.Error{Device: hc.Name, Pos: source.Pos{File: hc.IB.OpenSM.File},
					Msg: fmt.Sprintf("a second opensm.conf: %s's is the one judged (one master SM per subnet)", f.IB.SM.Device)})
				continue
			}
			f.IB.SM = buildSMIntent(hc.Name, hc.IB.OpenSM)
			setPolicy(f.IB.SM, f, hc.IB.OpenSM, hc.IB.QoSPolicy)
		}
	}
}

func addSwitches(ib *model.IBFabric, sws []*model.IBSwitch) {
	for _, s := range sws {
		dup := false
		for _, o := range ib.Switches {
			dup = dup || o.GUID == s.GUID
		}
		if !dup {
			ib.Switches = append(ib.Switches, s)
		}
	}
	sort.SliceStable(ib.Switches, func(i, j int) bool { return ib.Switches[i].LID < ib.Switches[j].LID })
}

func buildIBPort(hc *collectors.HostCapture, pc *collectors.IBPortCapture) *model.IBPort {
	p := &model.IBPort{CA: pc.CA, Port: pc.Port, LID: pc.LID, HighLimit: -1,
		Pos: source.Pos{File: layout.DeviceFile(hc.Name, layout.IBStatFile), Line: pc.Line}}
	if s := pc.SL2VL; s != nil && len(s.Rows) > 0 {
		// An HCA prints one row (in 0, out 0).
		vl := s.Rows[0].VL
		p.SL2VL, p.SL2VLPos = &vl, source.Pos{File: s.File, Line: s.Rows[0].Line}
	}
	if v := pc.VLArb; v != nil && !v.NoTables {
		p.VLArb, p.VLArbPos = vlArb(v), source.Pos{File: v.File, Line: v.Line}
	}
	if pi := pc.PortInfo; pi != nil {
		if pi.OperVLs > 0 {
			p.OperVLs, p.OperVLsPos = pi.OperVLs, source.Pos{File: pi.File, Line: pi.OperVLsLine}
		}
		if pi.VLHighLimit >= 0 {
			p.HighLimit, p.HighLimitPos = pi.VLHighLimit, source.Pos{File: pi.File, Line: pi.VLHighLimitLine}
		}
	}
	return p
}

// fillFromDiagnet gives a port the SL2VL table and OperVLs/VLHighLimit
// its host's smpquery capture lacks, from ibdiagnet's files, finding the
// HCA by the node GUID ibstat printed. smpquery, run on the host itself,
// wins where both exist: ibdiagnet may be an older sweep. VL arbitration
// is never taken from ibdiagnet (collectors/ibfiles/ibdiagnet.go: its
// columns are not verified). what names the tables taken, "" for none.
func fillFromDiagnet(p *model.IBPort, pc *collectors.IBPortCapture, q *ibfiles.DiagnetQoS) (what string) {
	if q == nil || pc.NodeGUID == "" {
		return ""
	}
	name, ok := q.Names[pc.NodeGUID]
	if !ok {
		return ""
	}
	k := ibfiles.PortKey{Node: name, Port: pc.Port}
	var took []string
	if s := q.SL2VL[k]; p.SL2VL == nil && s != nil && len(s.Rows) > 0 {
		vl := s.Rows[0].VL
		p.SL2VL, p.SL2VLPos = &vl, source.Pos{File: s.File, Line: s.Rows[0].Line}
		took = append(took, "SL2VL")
	}
	if pi := q.PortInfo[k]; pi != nil && pc.PortInfo == nil {
		if pi.OperVLs > 0 {
			p.OperVLs, p.OperVLsPos = pi.OperVLs, source.Pos{File: pi.File, Line: pi.OperVLsLine}
			took = append(took, "OperVLs")
		}
		if pi.VLHighLimit >= 0 {
			p.HighLimit, p.HighLimitPos = pi.VLHighLimit, source.Pos{File: pi.File, Line: pi.VLHighLimitLine}
			took = append(took, "VLHighLimit")
		}
	}
	return strings.Join(took, ", ")
}

// vlArb is smpquery's VL arbitration tables in the model's terms.
func vlArb(v *ibfiles.VLArb) *model.VLArb {
	return &model.VLArb{File: v.File, LowCap: v.LowCap, HighCap: v.HighCap,
		Low: vlArbEntries(v.Low), High: vlArbEntries(v.High), Line: v.Line}
}

func vlArbEntries(in []ibfiles.VLArbEntry) []model.VLArbEntry {
	if in == nil {
		return nil
	}
	out := make([]model.VLArbEntry, len(in))
	for i, e := range in {
		out[i] = model.VLArbEntry{VL: e.VL, Weight: e.Weight}
	}
	return out
}
