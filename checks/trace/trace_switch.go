package trace

import (
	"fmt"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
)

// switchHop judges a switch on the path. RoCE enters by in: its trust and
// DSCP map give the switch priority, its PFC pauses the sender; RoCE leaves
// by out: the priority's traffic class and ECN on it. The CNP comes back the
// other way: out classifies it (trust, CNP DSCP → CNP priority), in queues
// it (the CNP priority's traffic class, not RoCE's, scheduled strict: the
// scheduler is switch-cnp's own judgement, so the trace and the check say
// the same of every port).
func switchHop(f *model.Fabric, r routeHop) TraceHop {
	sw := f.SwitchByName(r.sw)
	if sw == nil {
		sw = &model.Switch{Name: r.sw}
	}
	hop := TraceHop{Device: r.sw, Kind: layout.KindSwitch, Role: sw.Role, In: portName(sw, r.in), Out: portName(sw, r.out)}
	qin, why := portQoS(sw, r.in)
	qout, whyOut := portQoS(sw, r.out)
	p := f.Policy
	in, out := hop.In, hop.Out
	if qin != nil {
		hop.Steps = append(hop.Steps, switchPriorityStep(p, in, qin), switchPFCStep(p, in, qin))
	} else {
		hop.Steps = append(hop.Steps, unknown(StepSwitchPriority, DirRoCE, in, "switch-dscp-map", why),
			unknown(StepSwitchPFC, DirRoCE, in, "switch-pfc", why))
	}
	if qout != nil {
		tc := qout.TC[p.RoCE.Priority]
		ecn := qout.ECN[p.RoCE.TrafficClass]
		hop.Steps = append(hop.Steps,
			stepOf(StepSwitchTC, DirRoCE, out, fmt.Sprintf("SP %d → TC %d", p.RoCE.Priority, tc.V), SwitchTC(p, qout)),
			stepOf(StepSwitchECN, DirRoCE, out, fmt.Sprintf("ECN %s, TC %d", onWord(ecn.V), p.RoCE.TrafficClass), SwitchECN(p, qout)),
			cnpPriorityStep(p, out, qout))
	} else {
		hop.Steps = append(hop.Steps, unknown(StepSwitchTC, DirRoCE, out, "switch-queue-map", whyOut),
			unknown(StepSwitchECN, DirRoCE, out, "switch-ecn", whyOut), unknown(StepCNPPriority, DirCNP, out, "switch-cnp", whyOut))
	}
	if qin != nil {
		tc := qin.TC[p.CNP.Priority]
		sched := qin.Sched[tc.V]
		jq, js := judge.SwitchCNPQueue(p, tc.V), judge.Pass
		// As switch-cnp: the scheduler is judged only of a CNP class apart
		// from RoCE's; in RoCE's class the queue step already says why.
		if jq.OK {
			js = judge.SwitchCNPScheduler(p, tc.V, sched.V)
		}
		hop.Steps = append(hop.Steps, judged(StepCNPTC, DirCNP, in, "switch-cnp",
			fmt.Sprintf("SP %d → TC %d", p.CNP.Priority, tc.V), tc.Origin, jq),
			judged(StepCNPSched, DirCNP, in, "switch-cnp", fmt.Sprintf("TC %d %s", tc.V, sched.V), sched.Origin, js))
	} else {
		hop.Steps = append(hop.Steps, unknown(StepCNPTC, DirCNP, in, "switch-cnp", why),
			unknown(StepCNPSched, DirCNP, in, "switch-cnp", why))
	}
	return hop
}

// portName is a switch interface with the bond it is a member of.
func portName(sw *model.Switch, iface string) string {
	if p := sw.PortOf(iface); p != "" && p != iface {
		return iface + " (" + p + ")"
	}
	return iface
}

// portQoS is the effective QoS of a switch interface; nil, and why, when
// the configuration was not read or does not check the port.
func portQoS(sw *model.Switch, iface string) (*model.QoS, string) {
	switch {
	case sw.ConfigFile == "":
		return nil, "the switch configuration was not collected or could not be read"
	case len(sw.Ports) == 0:
		return sw.Global, ""
	}
	if p := sw.PortOf(iface); p != "" {
		return sw.PortQoS.At(p), ""
	}
	return nil, fmt.Sprintf("the configuration of %s does not name %s", sw.Name, iface)
}

func switchPriorityStep(p policy.Policy, port string, q *model.QoS) TraceStep {
	st := SwitchPriority(p, q)
	dscp := p.RoCE.DSCP[0]
	label := fmt.Sprintf("trust %s, DSCP %d → SP %d", q.Trust.V, dscp, q.DSCP.At(dscp).V)
	if st.Check == "switch-trust" {
		label = "trust " + q.Trust.V
	}
	return stepOf(StepSwitchPriority, DirRoCE, port, label, st)
}

// switchPFCStep is PFC on the ingress port: the pause it sends upstream
// (tx) and honours (rx) on the RoCE priority; the first that fails.
func switchPFCStep(p policy.Policy, port string, q *model.QoS) TraceStep {
	st := SwitchPFC(p, q)
	label := "PFC on SP " + model.IntList(st.On)
	s := stepOf(StepSwitchPFC, DirRoCE, port, label, st.PFC)
	if s.Status == StepBroken {
		return s
	}
	for _, d := range []struct {
		dir string
		st  Stage
	}{{"rx", st.Rx}, {"tx", st.Tx}} {
		if !d.st.Verdict.OK {
			return stepOf(StepSwitchPFC, DirRoCE, port, label+", "+d.dir+" off", d.st)
		}
	}
	return s
}

// cnpPriorityStep classifies the CNP where it enters the switch: the
// port's trust, then the CNP DSCP's switch priority.
func cnpPriorityStep(p policy.Policy, port string, q *model.QoS) TraceStep {
	if j := judge.SwitchTrust(p, q.Trust.V); !j.OK {
		return judged(StepCNPPriority, DirCNP, port, "switch-trust", "trust "+q.Trust.V, q.Trust.Origin, j)
	}
	v := q.DSCP.At(p.CNP.DSCP)
	return judged(StepCNPPriority, DirCNP, port, "switch-cnp", fmt.Sprintf("CNP DSCP %d → SP %d", p.CNP.DSCP, v.V), v.Origin,
		judge.SwitchCNPDSCP(p, v.V))
}
