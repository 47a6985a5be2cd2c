package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

// judged is a step from a judgement: broken on an error, as the marking
// chain draws it; a warning keeps its reason but leaves RoCE's mark.
func judged(name, dir, port, check, label string, o model.Origin, j judge.Judgement) TraceStep {
	s := TraceStep{Name: name, Dir: dir, Port: port, Check: check, Label: label, Status: StepOK, Source: o.String()}
	if !j.OK {
		s.Reason = j.Reason
		if j.Severity == judge.Error {
			s.Status = StepBroken
		}
	}
	return s
}

func unknown(name, dir, port, check, why string) TraceStep {
	return TraceStep{Name: name, Dir: dir, Port: port, Check: check, Label: "?", Status: StepUnknown, Reason: why}
}

// srcNICHop: the sender marks RoCE (ToS), queues it in a priority and
// pauses it there; it is the DCQCN reaction point the CNPs slow.
func srcNICHop(f *model.Fabric, e Endpoint) TraceHop {
	h := f.Host(e.Host)
	n := h.NIC(e.NIC)
	hop := TraceHop{Device: e.Host, Kind: layout.KindHost, Role: "source", Out: e.NIC}
	p := f.Policy
	if n.ToS.Known {
		t := n.ToS
		hop.Steps = append(hop.Steps, judged(StepToS, DirRoCE, e.NIC, "host-tos",
			fmt.Sprintf("ToS %d → DSCP %d (%s)", t.V, model.DSCPOfToS(t.V), t.Via), t.Origin, judge.ToS(p, t.V, "ToS "+fmt.Sprint(t.V))))
	} else {
		hop.Steps = append(hop.Steps, unknown(StepToS, DirRoCE, e.NIC, "host-tos",
			"nccl.conf not collected and no forced traffic_class: the job's environment may set NCCL_IB_TC"))
	}
	hop.Steps = append(hop.Steps, nicPriorityStep(f, e.NIC, n), nicPFCStep(f, e.NIC, n),
		nicDCQCNStep(f, e.NIC, n, "rp"))
	return hop
}

// dstNICHop: the receiver classifies RoCE, pauses its sender, and as the
// DCQCN notification point sends the CNPs back, marked.
func dstNICHop(f *model.Fabric, e Endpoint) TraceHop {
	n := f.Host(e.Host).NIC(e.NIC)
	hop := TraceHop{Device: e.Host, Kind: layout.KindHost, Role: "destination", In: e.NIC}
	hop.Steps = append(hop.Steps, nicPriorityStep(f, e.NIC, n), nicPFCStep(f, e.NIC, n),
		nicDCQCNStep(f, e.NIC, n, "np"), nicCNPStep(f, e.NIC, n))
	return hop
}

func nicQosMissing(n *model.NIC) string {
	if n.QosUnreadable {
		return layout.MlnxQosFile(n.Netdev) + " could not be read (see input errors)"
	}
	return layout.MlnxQosFile(n.Netdev) + " not collected"
}

// nicPriorityStep is the NIC's trust, then its dscp2prio entry for the
// policy's RoCE DSCP.
func nicPriorityStep(f *model.Fabric, port string, n *model.NIC) TraceStep {
	p := f.Policy
	dscp := p.RoCE.DSCP[0]
	if n.QosFile == "" {
		return unknown(StepNICPriority, DirRoCE, port, "host-dscp-map", nicQosMissing(n))
	}
	if j := judge.HostTrust(p, n.Trust.V); !j.OK {
		return judged(StepNICPriority, DirRoCE, port, "host-trust", "trust "+n.Trust.V, n.Trust.Origin, j)
	}
	if !judge.HostDSCPJudged(p, n.Trust.V) {
		return judged(StepNICPriority, DirRoCE, port, "host-trust", "trust "+n.Trust.V, n.Trust.Origin, judge.Pass)
	}
	if n.DSCPMissing != "" {
		return unknown(StepNICPriority, DirRoCE, port, "host-dscp-map", "dscp2prio not collected: "+n.DSCPMissing)
	}
	v := n.DSCP[dscp]
	label := fmt.Sprintf("trust dscp, DSCP %d → prio %d", dscp, v.V)
	if !v.Known {
		label = fmt.Sprintf("trust dscp, DSCP %d → ?", dscp)
	}
	return judged(StepNICPriority, DirRoCE, port, "host-dscp-map", label, v.Origin, judge.HostDSCP(p, dscp, v.V, v.Known))
}

func nicPFCStep(f *model.Fabric, port string, n *model.NIC) TraceStep {
	prio := f.Policy.RoCE.Priority
	switch {
	case n.QosFile == "":
		return unknown(StepNICPFC, DirRoCE, port, "host-pfc", nicQosMissing(n))
	case !n.PFC[0].Known:
		return unknown(StepNICPFC, DirRoCE, port, "host-pfc", "mlnx_qos printed no PFC configuration")
	}
	on := pfcOn(n.PFC)
	return judged(StepNICPFC, DirRoCE, port, "host-pfc", "PFC on "+intList(on), n.PFC[prio].Origin, judge.HostPFC(f.Policy, on))
}

// nicDCQCNStep is the reaction point ("rp", the sender) or notification
// point ("np", the receiver) for the RoCE priority; the sender's reacts to
// the CNPs, so it belongs to their direction.
func nicDCQCNStep(f *model.Fabric, port string, n *model.NIC, point string) TraceStep {
	prio := f.Policy.RoCE.Priority
	v, dir := n.ECNNP[prio], DirRoCE
	if point == "rp" {
		v, dir = n.ECNRP[prio], DirCNP
	}
	if !v.Known {
		return unknown(StepNICECN, dir, port, "host-ecn", fmt.Sprintf("sysfs ecn/roce_%s of %s not collected", point, n.Netdev))
	}
	return judged(StepNICECN, dir, port, "host-ecn", fmt.Sprintf("DCQCN %s %s, prio %d", point, onWord(v.V), prio), v.Origin,
		judge.HostDCQCN(f.Policy, point, prio, v.V))
}

// nicCNPStep is the DSCP and 802.1p priority the receiver marks its CNPs
// with.
func nicCNPStep(f *model.Fabric, port string, n *model.NIC) TraceStep {
	d, pr := n.CNPDSCP, n.CNPPrio
	if !d.Known || !pr.Known {
		return unknown(StepNICCNP, DirCNP, port, "host-cnp", fmt.Sprintf("sysfs ecn/roce_np/cnp_dscp, cnp_802p_prio of %s not collected", n.Netdev))
	}
	label := fmt.Sprintf("CNP DSCP %d, 802.1p %d", d.V, pr.V)
	if j := judge.HostCNPDSCP(f.Policy, d.V); !j.OK {
		return judged(StepNICCNP, DirCNP, port, "host-cnp", label, d.Origin, j)
	}
	return judged(StepNICCNP, DirCNP, port, "host-cnp", label, pr.Origin, judge.HostCNPPrio(f.Policy, pr.V))
}

func onWord(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func intList(v []int) string {
	if len(v) == 0 {
		return "none"
	}
	return model.CompressInts(v)
}
