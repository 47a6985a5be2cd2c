package trace

import (
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
)

// The hop-walker: RoCE's walk through one device, stage by stage, each
// stage judged with the kernel (checks/judge). The trace (a path between
// two NICs) and the marking chain (render.BuildChain: every NIC and every
// switch port group of the fabric) both walk a device with these, so the
// two say the same of every value and differ only in what they visit and
// how they word it. A NIC classifies RoCE (NICPriority), pauses it
// (NICPFC) and reacts to congestion (NICDCQCN) after marking it (ToS); a
// switch port classifies it (SwitchPriority), pauses it (SwitchPFC) and
// queues it (SwitchTC) with ECN marking (SwitchECN).

// Stage is one judged value of the walk: the check whose verdict it is,
// the verdict and where the value was read. A stage whose input was not
// collected has Unknown, why, and no verdict.
type Stage struct {
	Check   string
	Verdict judge.Judgement
	Origin  model.Origin
	Unknown string
}

// Broken: a stage is broken where its check makes an error finding. A
// warning (PFC also on another priority) leaves RoCE's mark intact.
func (s Stage) Broken() bool {
	return s.Unknown == "" && !s.Verdict.OK && s.Verdict.Severity == judge.Error
}

func judgedStage(check string, o model.Origin, j judge.Judgement) Stage {
	return Stage{Check: check, Verdict: j, Origin: o}
}

// NICQoSMissing is why a NIC's mlnx_qos values are not known.
func NICQoSMissing(n *model.NIC) string {
	if n.QosUnreadable {
		return layout.MlnxQosFile(n.Netdev) + " could not be read (see input errors)"
	}
	return layout.MlnxQosFile(n.Netdev) + " not collected"
}

// ToS is the NIC's marking: the DSCP its RoCE QPs' ToS puts on the wire
// (host-tos); knob names what set the ToS. Unknown when neither nccl.conf
// nor a forced traffic_class says.
func ToS(p policy.Policy, n *model.NIC, knob string) Stage {
	t := n.ToS
	if !t.Known {
		return Stage{Check: "host-tos", Unknown: "nccl.conf not collected and no forced traffic_class"}
	}
	return judgedStage("host-tos", t.Origin, judge.ToS(p, t.V, knob))
}

// NICPriority is the NIC's classification of the policy's RoCE DSCP: its
// trust (host-trust; under a PCP policy a NIC that trusts PCP passes
// there, the priority coming from the tag), then its dscp2prio entry for
// the DSCP (host-dscp-map). Unknown when mlnx_qos or its dscp2prio block
// was not collected.
func NICPriority(p policy.Policy, n *model.NIC) Stage {
	if n.QosFile == "" {
		return Stage{Check: "host-dscp-map", Unknown: NICQoSMissing(n)}
	}
	if j := judge.HostTrust(p, n.Trust.V); !j.OK {
		return judgedStage("host-trust", n.Trust.Origin, j)
	}
	if !judge.HostDSCPJudged(p, n.Trust.V) {
		return judgedStage("host-trust", n.Trust.Origin, judge.Pass)
	}
	if n.DSCPMissing != "" {
		return Stage{Check: "host-dscp-map", Unknown: "dscp2prio not collected: " + n.DSCPMissing}
	}
	dscp := p.RoCE.DSCP[0]
	v := n.DSCP.At(dscp)
	return judgedStage("host-dscp-map", v.Origin, judge.HostDSCP(p, dscp, v.V, v.Known))
}

// NICPFC is PFC on the NIC's priorities (host-pfc), with the priorities
// it is on. Unknown when mlnx_qos was not collected or printed no PFC row.
func NICPFC(p policy.Policy, n *model.NIC) (Stage, []int) {
	switch {
	case n.QosFile == "":
		return Stage{Check: "host-pfc", Unknown: NICQoSMissing(n)}, nil
	case !n.PFC.At(0).Known:
		return Stage{Check: "host-pfc", Unknown: "mlnx_qos printed no PFC configuration"}, nil
	}
	on := PFCOn(n.PFC.All())
	return judgedStage("host-pfc", n.PFC.At(p.RoCE.Priority).Origin, judge.HostPFC(p, on)), on
}

// NICDCQCN is the NIC's DCQCN notification ("np", the receiver's) or
// reaction ("rp", the sender's) point for the RoCE priority (host-ecn).
func NICDCQCN(p policy.Policy, n *model.NIC, point string) Stage {
	prio := p.RoCE.Priority
	v := n.ECNNP.At(prio)
	if point == "rp" {
		v = n.ECNRP.At(prio)
	}
	if !v.Known {
		return Stage{Check: "host-ecn", Unknown: "sysfs ecn/roce_" + point + " of " + n.Netdev + " not collected"}
	}
	return judgedStage("host-ecn", v.Origin, judge.HostDCQCN(p, point, prio, v.V))
}

// SwitchPriority is a switch port's classification of the policy's RoCE
// DSCP: its trust (switch-trust), then its DSCP map's entry for the DSCP
// (switch-dscp-map, judged whatever the trust: a port that trusts both
// reads the DSCP too).
func SwitchPriority(p policy.Policy, q *model.QoS) Stage {
	if j := judge.SwitchTrust(p, q.Trust.V); !j.OK {
		return judgedStage("switch-trust", q.Trust.Origin, j)
	}
	dscp := p.RoCE.DSCP[0]
	v := q.DSCP.At(dscp)
	return judgedStage("switch-dscp-map", v.Origin, judge.SwitchDSCP(p, dscp, v.V))
}

// PFCStages are PFC on a switch port (switch-pfc): on its priorities
// (On), and its rx and tx.
type PFCStages struct {
	On          []int
	PFC, Rx, Tx Stage
}

// SwitchPFC is PFC on a switch port: the pause it sends upstream (tx) and
// honours (rx) on the RoCE priority.
func SwitchPFC(p policy.Policy, q *model.QoS) PFCStages {
	on := PFCOn(q.PFC)
	return PFCStages{
		On:  on,
		PFC: judgedStage("switch-pfc", q.PFC[p.RoCE.Priority].Origin, judge.SwitchPFC(p, on)),
		Rx:  judgedStage("switch-pfc", q.PFCRx.Origin, judge.SwitchPFCDirection(p, "rx", q.PFCRx.V)),
		Tx:  judgedStage("switch-pfc", q.PFCTx.Origin, judge.SwitchPFCDirection(p, "tx", q.PFCTx.V)),
	}
}

// SwitchTC is the traffic class the RoCE priority egresses through
// (switch-queue-map); a class left at NVUE's default is judged as one.
func SwitchTC(p policy.Policy, q *model.QoS) Stage {
	tc := q.TC[p.RoCE.Priority]
	return judgedStage("switch-queue-map", tc.Origin, judge.SwitchQueue(p, p.RoCE.Priority, tc.V, tc.Origin.IsDefault()))
}

// SwitchECN is ECN marking on the RoCE traffic class (switch-ecn).
func SwitchECN(p policy.Policy, q *model.QoS) Stage {
	v := q.ECN[p.RoCE.TrafficClass]
	return judgedStage("switch-ecn", v.Origin, judge.SwitchECN(p, v.V))
}

// PFCOn is the priorities a PFC table pauses.
func PFCOn(pfc [8]model.Value[bool]) []int {
	var on []int
	for p, v := range pfc {
		if v.V {
			on = append(on, p)
		}
	}
	return on
}
