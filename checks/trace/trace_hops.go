package trace

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

// stepOf is a step from a stage of the hop-walker (walk.go), drawn with
// label when it was judged.
func stepOf(name, dir, port, label string, st Stage) TraceStep {
	if st.Unknown != "" {
		return unknown(name, dir, port, st.Check, st.Unknown)
	}
	return judged(name, dir, port, st.Check, label, st.Origin, st.Verdict)
}

// srcNICHop: the sender marks RoCE (ToS), queues it in a priority and
// pauses it there; it is the DCQCN reaction point the CNPs slow.
func srcNICHop(f *model.Fabric, e Endpoint) TraceHop {
	h := f.Host(e.Host)
	n := h.NIC(e.NIC)
	hop := TraceHop{Device: e.Host, Kind: layout.KindHost, Role: "source", Out: e.NIC}
	p := f.Policy
	t := n.ToS
	st := ToS(p, n, "ToS "+fmt.Sprint(t.V))
	if st.Unknown != "" {
		st.Unknown += ": the job's environment may set NCCL_IB_TC"
	}
	hop.Steps = append(hop.Steps, stepOf(StepToS, DirRoCE, e.NIC,
		fmt.Sprintf("ToS %d → DSCP %d (%s)", t.V, model.DSCPOfToS(t.V), t.Via), st))
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

// nicPriorityStep is the NIC's trust, then its dscp2prio entry for the
// policy's RoCE DSCP.
func nicPriorityStep(f *model.Fabric, port string, n *model.NIC) TraceStep {
	dscp := f.Policy.RoCE.DSCP[0]
	st := NICPriority(f.Policy, n)
	v := n.DSCP.At(dscp)
	label := fmt.Sprintf("trust dscp, DSCP %d → prio %d", dscp, v.V)
	switch {
	case st.Check == "host-trust":
		label = "trust " + n.Trust.V
	case !v.Known:
		label = fmt.Sprintf("trust dscp, DSCP %d → ?", dscp)
	}
	return stepOf(StepNICPriority, DirRoCE, port, label, st)
}

func nicPFCStep(f *model.Fabric, port string, n *model.NIC) TraceStep {
	st, on := NICPFC(f.Policy, n)
	return stepOf(StepNICPFC, DirRoCE, port, "PFC on "+model.IntList(on), st)
}

// nicDCQCNStep is the reaction point ("rp", the sender) or notification
// point ("np", the receiver) for the RoCE priority; the sender's reacts to
// the CNPs, so it belongs to their direction.
func nicDCQCNStep(f *model.Fabric, port string, n *model.NIC, point string) TraceStep {
	prio := f.Policy.RoCE.Priority
	v, dir := n.ECNNP.At(prio), DirRoCE
	if point == "rp" {
		v, dir = n.ECNRP.At(prio), DirCNP
	}
	return stepOf(StepNICECN, dir, port, fmt.Sprintf("DCQCN %s %s, prio %d", point, onWord(v.V), prio), NICDCQCN(f.Policy, n, point))
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
