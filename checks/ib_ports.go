package checks

import (
	"fmt"
	"sort"
	"strings"

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

// ibSL is the SL a host's jobs send on: the host's NCCL_IB_SL when its
// NCCL layers were collected, else the policy's (the finding says so).
func ibSL(f *model.Fabric, h *model.IBHost) (sl int, why string) {
	if h.SL.Known {
		return h.SL.V, fmt.Sprintf("NCCL_IB_SL %d (%s)", h.SL.V, h.SL.Origin)
	}
	return f.Policy.IB.SL, fmt.Sprintf("SL %d (the policy's: the host's NCCL settings were not collected)", f.Policy.IB.SL)
}

// ibPorts calls fn for every InfiniBand port of every host, and returns
// the not-collected findings of the ports that lack what need says.
func ibPorts(f *model.Fabric, what string, need func(*model.IBPort) []string, fn func(*model.IBHost, *model.IBPort)) []Finding {
	if f.IB == nil {
		return nil
	}
	var out []Finding
	for _, h := range f.IB.Hosts {
		for _, p := range h.Ports {
			if m := need(p); len(m) > 0 {
				out = append(out, notCollected(h.Name, m, what))
				continue
			}
			fn(h, p)
		}
	}
	return out
}

func needSL2VL(p *model.IBPort) []string {
	var m []string
	if p.SL2VL == nil {
		m = append(m, layout.SMPQueryFile("sl2vl", p.CA, p.Port)+" not collected")
	}
	if p.OperVLs == 0 {
		m = append(m, layout.SMPQueryFile("portinfo", p.CA, p.Port)+" not collected")
	}
	return m
}

// needVLArb is needSL2VL plus the port's VL arbitration tables: the inputs
// of ib-vlarb and ib-sm-consistency.
func needVLArb(p *model.IBPort) []string {
	m := needSL2VL(p)
	if p.VLArb == nil {
		m = append(m, layout.SMPQueryFile("vlarb", p.CA, p.Port)+" not collected")
	}
	return m
}
