package checks

import (
	"fmt"
	"sort"

	"github.com/qoslint/qoslint/model"
)

var ibVLArb = &Check{
	ID:       "ib-vlarb",
	Kind:     KindConfig,
	Devices:  Hosts,
	Severity: Error,
	Title:    "VL arbitration gives the jobs' VL a share on every InfiniBand port",
	Doc: `VL arbitration (IBA 7.6.9) serves the VLs listed in a port's high- and low-priority tables,
each entry a VL and a weight in 64-byte credits; a weight of 0 skips the entry
(linux-rdma/opensm doc/QoS_management_in_OpenSM.txt §7). A VL with weight 0 in both tables is
never scheduled: the SL mapped to it starves (error). A VL served only by the high table while
VLHighLimit is 0 may send one packet per turn before the low table's (warning: a latency lane, not a
bulk one). Only the first LowCap/HighCap entries exist on the port (smpquery vlarb prints them,
linux-rdma/rdma-core infiniband-diags/smpquery.c). On a switch the output port arbitrates: each
Active external port must serve the VLs the jobs' SLs take out of it from the other Active ports
(fix: qos_swe_vlarb_low).`,
	Inputs: []Input{IBStat, SMPQuery, NCCL},
	Run:    runIBVLArb,
}

func runIBVLArb(f *model.Fabric) []Finding {
	var out []Finding
	nc := ibPorts(f, "VL arbitration", needVLArb, func(h *model.IBHost, p *model.IBPort) {
		sl, why := ibSL(f, h)
		vl := p.SL2VL[sl]
		if vl == model.VLDrop || vl >= p.OperVLs {
			return // ib-sl2vl's finding
		}
		a := p.VLArb
		hi, lo := arbWeight(a.High, a.HighCap, vl), arbWeight(a.Low, a.LowCap, vl)
		actual := fmt.Sprintf("VL %d: high %d, low %d", vl, hi, lo)
		switch {
		case hi == 0 && lo == 0:
			out = append(out, Finding{
				Severity: Error, Device: h.Name, Interface: p.Name(),
				Message:  fmt.Sprintf("%s maps to VL %d on %s, which has weight 0 in both VL arbitration tables: the job's traffic is never scheduled", why, vl, p.Name()) + smHint(f, "qos_ca_vlarb_low"),
				Expected: fmt.Sprintf("VL %d with a weight above 0", vl), Actual: actual, Source: p.VLArbPos,
				Changes: fixVLArbLow(f, p, vl),
			})
		case lo == 0 && p.HighLimit == 0:
			out = append(out, Finding{
				Severity: Warning, Device: h.Name, Interface: p.Name(),
				Message:  fmt.Sprintf("%s maps to VL %d on %s, served only by the high-priority table with VLHighLimit 0: one packet per turn", why, vl, p.Name()) + smHint(f, "qos_ca_vlarb_low"),
				Expected: fmt.Sprintf("VL %d in the low table, or VLHighLimit above 0", vl), Actual: actual + ", VLHighLimit 0", Source: p.VLArbPos,
				Changes: fixVLArbLow(f, p, vl),
			})
		}
	})
	out = append(out, nc...)
	return append(out, runIBVLArbSwitches(f)...)
}

// runIBVLArbSwitches judges the arbitration of every Active external
// switch port: it schedules the VLs the jobs' SLs land on when they leave
// by it (its SL2VL rows from the other Active ports).
func runIBVLArbSwitches(f *model.Fabric) []Finding {
	if f.IB == nil || len(f.IB.Switches) == 0 {
		return nil
	}
	sls := jobSLs(f)
	var out []Finding
	nc := ibSwitchPorts(f, "switch VL arbitration", true, needSwitchVLArb, func(p *model.IBSwitchPort) {
		for _, vl := range switchJobVLs(p, sls) {
			a := p.VLArb
			hi, lo := arbWeight(a.High, a.HighCap, vl), arbWeight(a.Low, a.LowCap, vl)
			actual := fmt.Sprintf("VL %d: high %d, low %d", vl, hi, lo)
			base := Finding{Device: p.Switch.Host, Interface: p.Name(), Source: p.VLArbPos, Changes: fixSwitchVLArbLow(f, p, vl)}
			switch {
			case hi == 0 && lo == 0:
				base.Severity, base.Actual = Error, actual
				base.Message = fmt.Sprintf("the jobs' traffic leaves %s on VL %d, which has weight 0 in both VL arbitration tables: it is never scheduled", p.Name(), vl) + smHint(f, "qos_swe_vlarb_low")
				base.Expected = fmt.Sprintf("VL %d with a weight above 0", vl)
			case lo == 0 && p.HighLimit == 0:
				base.Severity, base.Actual = Warning, actual+", VLHighLimit 0"
				base.Message = fmt.Sprintf("the jobs' traffic leaves %s on VL %d, served only by the high-priority table with VLHighLimit 0: one packet per turn", p.Name(), vl) + smHint(f, "qos_swe_vlarb_low")
				base.Expected = fmt.Sprintf("VL %d in the low table, or VLHighLimit above 0", vl)
			default:
				continue
			}
			out = append(out, base)
		}
	})
	return append(out, nc...)
}

// switchJobVLs are the data VLs (sorted, once each) the jobs' SLs take
// out of p; a VL ib-sl2vl already refuses is left to it.
func switchJobVLs(p *model.IBSwitchPort, sls []jobSL) []int {
	seen := map[int]bool{}
	var vls []int
	for _, row := range p.SL2VL {
		if !p.Switch.TrafficIn(row.In, p.Port) {
			continue
		}
		for _, j := range sls {
			if vl := row.VL[j.SL]; vl != model.VLDrop && vl < p.OperVLs && !seen[vl] {
				seen[vl] = true
				vls = append(vls, vl)
			}
		}
	}
	sort.Ints(vls)
	return vls
}
