package checks

import (
	"fmt"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/collectors/ibfiles"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

// jobSL is one SL the fabric's jobs send on and the hosts that send on it.
type jobSL struct {
	SL  int
	Why string
}

// jobSLs are the SLs of every InfiniBand host (ibSL), sorted; a switch
// port carries them all. Without hosts, the policy's.
func jobSLs(f *model.Fabric) []jobSL {
	by := map[int][]string{}
	for _, h := range f.IB.Hosts {
		sl, _ := ibSL(f, h)
		by[sl] = append(by[sl], h.Name)
	}
	if len(by) == 0 {
		return []jobSL{{f.Policy.IB.SL, fmt.Sprintf("SL %d (the policy's)", f.Policy.IB.SL)}}
	}
	var out []jobSL
	for sl, hs := range by {
		out = append(out, jobSL{sl, fmt.Sprintf("SL %d (the jobs' of %s)", sl, strings.Join(hs, ", "))})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SL < out[j].SL })
	return out
}

// ibSwitchPorts calls fn for every Active port of every switch (external
// ports, and port 0 with external too false), and returns the
// not-collected findings, on the host that read the switch, of the ports
// that lack what need says.
func ibSwitchPorts(f *model.Fabric, what string, external bool, need func(*model.IBSwitchPort) []string, fn func(*model.IBSwitchPort)) []Finding {
	if f.IB == nil {
		return nil
	}
	var out []Finding
	for _, sw := range f.IB.Switches {
		for _, p := range sw.Ports {
			if !p.Active || external && p.Port == 0 || p.Port == 0 && !sw.Enhanced {
				continue
			}
			if m := need(p); len(m) > 0 {
				out = append(out, notCollected(sw.Host, m, what))
				continue
			}
			fn(p)
		}
	}
	return out
}

func needSwitchSL2VL(p *model.IBSwitchPort) []string {
	var m []string
	if p.SL2VL == nil {
		m = append(m, swFile("sl2vl", p)+" not collected")
	}
	if p.OperVLs == 0 {
		m = append(m, swFile("portinfo", p)+" (OperVLs) not collected")
	}
	return m
}

func needSwitchVLArb(p *model.IBSwitchPort) []string {
	m := needSwitchSL2VL(p)
	if p.VLArb == nil {
		m = append(m, swFile("vlarb", p)+" not collected")
	}
	return m
}

func swFile(op string, p *model.IBSwitchPort) string {
	return layout.SwitchSMPQueryFile(op, p.Switch.LID, p.Port)
}

// fixSwitchSL2VL moves sl to vl in qos_swe_sl2vl, or, where OpenSM's own
// table already maps sl right on p, asks for the sweep that reprograms
// the port.
func fixSwitchSL2VL(f *model.Fabric, p *model.IBSwitchPort, sl, vl int) []Change {
	if f.IB.SM == nil {
		return nil
	}
	cfg := f.IB.SM.Config[ibfiles.ClassSWE]
	if want, _, _, ok := cfg.Expected(p.OperVLs); ok && want[sl] != model.VLDrop && want[sl] < p.OperVLs && (!f.Policy.IB.HasVL || want[sl] == f.Policy.IB.VL) && f.IB.SM.QoS.V {
		return []Change{smReload(f)}
	}
	t := cfg.SL2VL.V
	t[sl] = vl
	return smClassChange(f, ibfiles.ClassSWE, "sl2vl", fmtSL2VL(t))
}

// fixSwitchVLArbLow gives vl 64 credits in p's class's low table, as
// fixVLArbLow does for qos_ca_vlarb_low.
func fixSwitchVLArbLow(f *model.Fabric, p *model.IBSwitchPort, vl int) []Change {
	if f.IB.SM == nil {
		return nil
	}
	class := p.SMClass()
	cfg := f.IB.SM.Config[class]
	if _, _, low, ok := cfg.Expected(p.OperVLs); ok && arbWeight(low, p.VLArb.LowCap, vl) > 0 && f.IB.SM.QoS.V {
		return []Change{smReload(f)}
	}
	return smClassChange(f, class, "vlarb_low", fmtArb(addArbWeight(cfg.VLArbLow.V, vl), 64))
}

// addArbWeight gives vl's first weight-0 entry 64 credits (one 4 KiB
// packet, the unit doc/QoS_management_in_OpenSM.txt §7 recommends), else
// appends an entry.
func addArbWeight(in []ibfiles.VLArbEntry, vl int) []ibfiles.VLArbEntry {
	t := append([]ibfiles.VLArbEntry(nil), trimArb(in)...)
	for i, e := range t {
		if e.VL == vl && e.Weight == 0 {
			t[i].Weight = 64
			return t
		}
	}
	return append(t, ibfiles.VLArbEntry{VL: vl, Weight: 64})
}
