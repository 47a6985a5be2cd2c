package checks

import (
	"fmt"

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
linux-rdma/rdma-core infiniband-diags/smpquery.c).`,
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
	return append(out, nc...)
}
