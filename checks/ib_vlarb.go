package checks

import (
	"fmt"
	"sort"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/english"
	"github.com/qoslint/qoslint/model"
)

var ibVLArb = &Check{
	ID:       "ib-vlarb",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesIBHost,
	Severity: judge.Error,
	Title:    "VL arbitration gives the jobs' VL a share on every InfiniBand port",
	Doc: `VL arbitration (IBA 7.6.9) serves the VLs listed in a port's high- and low-priority tables,
each entry a VL and a weight in 64-byte credits; a weight of 0 skips the entry
(linux-rdma/opensm doc/QoS_management_in_OpenSM.txt §7). A VL with weight 0 in both tables is
never scheduled: the SL mapped to it starves (error). A VL served only by the high table while
VLHighLimit is 0 may send one packet per turn before the low table's (warning: a latency lane, not a
bulk one). Only the first LowCap/HighCap entries exist on the port (smpquery vlarb prints them,
linux-rdma/rdma-core infiniband-diags/smpquery.c). On a switch the output port arbitrates: each
Active external port must serve the VLs the jobs' SLs take out of it from the other Active ports
(fix: qos_swe_vlarb_low).

On a host port the SLs judged are the host's NCCL_IB_SL (else the policy's ib.sl) and every other
application's SL that ib-sl-consistency reads (UCX_IB_SL, NVSHMEM_IB_SL, the env of the Kubernetes
containers placed on the host), one finding per SL and port naming the applications on it; for an SL
only other applications use, the fix moves them to the policy's SL.`,
	Inputs: []Input{IBStat, SMPQuery, NCCL, UCXConf, K8sManifests},
	Run:    runIBVLArb,
}

func runIBVLArb(f *model.Fabric) []Finding {
	var out []Finding
	nc := ibPorts(f, "VL arbitration", needVLArb, func(h *model.IBHost, p *model.IBPort) {
		for _, u := range slUsers(f, h) {
			if fd, ok := vlarbFinding(f, h, p, u); ok {
				out = append(out, fd)
			}
		}
	})
	out = append(out, nc...)
	return append(out, runIBVLArbSwitches(f)...)
}

// vlarbFinding judges the VL one SL (and the applications on it) takes
// on one host port.
func vlarbFinding(f *model.Fabric, h *model.IBHost, p *model.IBPort, u slUser) (Finding, bool) {
	vl := p.SL2VL[u.sl]
	if vl == model.VLDrop || vl >= p.OperVLs {
		return Finding{}, false // ib-sl2vl's finding
	}
	a := p.VLArb
	hi, lo := arbWeight(a.High, a.HighCap, vl), arbWeight(a.Low, a.LowCap, vl)
	actual := fmt.Sprintf("VL %d: high %d, low %d", vl, hi, lo)
	fd := Finding{Device: h.Name, Interface: p.Name(), Source: p.VLArbPos}
	switch {
	case hi == 0 && lo == 0:
		fd.Severity, fd.Actual = judge.Error, actual
		fd.Message = fmt.Sprintf("%s maps to VL %d on %s, which has weight 0 in both VL arbitration tables: the job's traffic is never scheduled", u.why, vl, p.Name())
		fd.Expected = fmt.Sprintf("VL %d with a weight above 0", vl)
	case lo == 0 && p.HighLimit == 0:
		fd.Severity, fd.Actual = judge.Warning, actual+", VLHighLimit 0"
		fd.Message = fmt.Sprintf("%s maps to VL %d on %s, served only by the high-priority table with VLHighLimit 0: one packet per turn", u.why, vl, p.Name())
		fd.Expected = fmt.Sprintf("VL %d in the low table, or VLHighLimit above 0", vl)
	default:
		return Finding{}, false
	}
	if u.nccl {
		fd.Message += smHint(f, "qos_ca_vlarb_low")
		fd.Changes = fixVLArbLow(f, p, vl)
		return fd, true
	}
	// Only other applications use this SL: as in ib-sl2vl, the fix moves
	// them to the policy's SL rather than giving their lane a share.
	fd.Message += fmt.Sprintf("; move %s to the policy's SL %d (ib-sl-consistency), or fix qos_ca_vlarb_low", english.Plural(len(u.apps), "it", "them"), f.Policy.IB.SL)
	for _, ap := range u.apps {
		fd.Changes = append(fd.Changes, appSLChange(ap, f.Policy.IB.SL)...)
	}
	return fd, true
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
				base.Severity, base.Actual = judge.Error, actual
				base.Message = fmt.Sprintf("the jobs' traffic leaves %s on VL %d, which has weight 0 in both VL arbitration tables: it is never scheduled", p.Name(), vl) + smHint(f, "qos_swe_vlarb_low")
				base.Expected = fmt.Sprintf("VL %d with a weight above 0", vl)
			case lo == 0 && p.HighLimit == 0:
				base.Severity, base.Actual = judge.Warning, actual+", VLHighLimit 0"
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
