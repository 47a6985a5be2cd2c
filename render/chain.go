package render

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/checks/trace"
	"github.com/qoslint/qoslint/internal/policy"

	"github.com/qoslint/qoslint/model"
)

// MarkingChain is the path of the policy's RoCE DSCP through the fabric: what
// each host NIC puts on the wire and which priority it gives it, and what
// each switch port group does with it. Each hop says whether it keeps the
// mark, so a reader sees where RoCE falls out of the lossless class. Hops
// are judged against the policy one by one with the checks' own verdicts
// (checks/judge), walked stage by stage with the trace's hop-walker
// (trace.NICPriority, trace.SwitchPFC, ...), so a broken hop is one a check
// reports, one the trace stops at, and one that needs its own fix rather
// than a victim of an earlier one.
type MarkingChain struct {
	// DSCP is the RoCE DSCP followed: the policy's first, the one the
	// host-tos check asks hosts to send. ToS is the ToS that carries it.
	DSCP, ToS int
	// Priority and TrafficClass are the policy's RoCE priority (NIC and
	// switch) and switch traffic class.
	Priority, TrafficClass int
	// Lossless is false when the policy designs the fabric lossy: PFC hops
	// are then not required.
	Lossless bool
	NICs     []NICChain
	Switches []SwitchChain
	policy   policy.Policy
}

// breaks: a hop is broken where its check makes an error finding. A
// warning (PFC also on another priority, ECN thresholds inverted) leaves
// RoCE's mark intact, so its hop stays ok.
func breaks(j judge.Judgement) bool { return !j.OK && j.Severity == judge.Error }

// HopStatus is whether a hop keeps the RoCE mark.
type HopStatus string

const (
	HopOK     HopStatus = "ok"
	HopBroken HopStatus = "broken"
	// HopUnknown: the input the hop depends on was not collected or could
	// not be read.
	HopUnknown HopStatus = "unknown"
)

// Hop names, stable for the HTML's data-hop attributes.
const (
	HopToS            = "tos"
	HopNICPriority    = "nic-priority"
	HopNICPFC         = "nic-pfc"
	HopNICECN         = "nic-ecn"
	HopSwitchPriority = "switch-priority"
	HopSwitchPFC      = "switch-pfc"
	HopSwitchTC       = "switch-tc"
	HopSwitchECN      = "switch-ecn"
)

// Hop is one step of the chain.
type Hop struct {
	Name   string
	Status HopStatus
	// Label is the value as drawn ("ToS 104 → DSCP 26"); Short a few words
	// on what is wrong, drawn under a hop that is not ok; Reason the full
	// sentence, with the evidence where the model has it.
	Label, Short, Reason string
	// Check is the check whose findings cover this hop.
	Check string
}

// NICChain is the host half of the chain for one RoCE netdev.
type NICChain struct {
	Host, Netdev string
	// ToS is the effective traffic class of its RoCE QPs, DSCP the DSCP that
	// puts on the wire (ToS >> 2), Via the knob that set it; -1 when unknown.
	ToS, DSCP int
	Via       string
	// Priority is the NIC priority the chain's DSCP gets; -1 when unknown.
	Priority int
	// Hops: ToS, NIC priority, PFC on the RoCE priority, DCQCN np/rp.
	Hops []Hop
}

// SwitchChain is the switch half for one group of ports sharing their QoS.
type SwitchChain struct {
	Switch string
	// Ports in NVUE range form; "" for a switch whose configuration names no
	// port (its global QoS) or could not be read.
	Ports string
	// Priority is the switch priority the chain's DSCP gets, TC the traffic
	// class the RoCE priority egresses through; -1 when unknown.
	Priority, TC int
	// Hops: switch priority, PFC on it, traffic class, ECN on the class.
	Hops []Hop
}

// worst is the worst status of a list of hops: broken, then unknown.
func worst(hops []Hop) HopStatus {
	s := HopOK
	for _, h := range hops {
		switch h.Status {
		case HopBroken:
			return HopBroken
		case HopUnknown:
			s = HopUnknown
		}
	}
	return s
}

// Status is the NIC's worst hop.
func (n NICChain) Status() HopStatus { return worst(n.Hops) }

// Status is the port group's worst hop.
func (s SwitchChain) Status() HopStatus { return worst(s.Hops) }

// BuildChain follows the policy's RoCE DSCP through the model. It returns
// nil when there is nothing to follow.
func BuildChain(f *model.Fabric) *MarkingChain {
	if f == nil || len(f.Policy.RoCE.DSCP) == 0 {
		return nil
	}
	p := f.Policy.RoCE
	c := &MarkingChain{
		DSCP: p.DSCP[0], ToS: model.ToSOfDSCP(p.DSCP[0]),
		Priority: p.Priority, TrafficClass: p.TrafficClass,
		Lossless: judge.PFCRequired(f.Policy), policy: f.Policy,
	}
	hosts := append([]*model.Host(nil), f.Hosts...)
	sort.SliceStable(hosts, func(i, j int) bool { return hosts[i].Name < hosts[j].Name })
	for _, h := range hosts {
		nics := append([]*model.NIC(nil), h.NICs...)
		sort.SliceStable(nics, func(i, j int) bool { return model.NaturalLess(nics[i].Netdev, nics[j].Netdev) })
		for _, n := range nics {
			c.NICs = append(c.NICs, nicChain(f, c, h, n))
		}
	}
	sws := append([]*model.Switch(nil), f.Switches...)
	sort.SliceStable(sws, func(i, j int) bool { return sws[i].Name < sws[j].Name })
	for _, sw := range sws {
		c.Switches = append(c.Switches, switchChains(f, c, sw)...)
	}
	return c
}

func nicChain(f *model.Fabric, c *MarkingChain, h *model.Host, n *model.NIC) NICChain {
	nc := NICChain{Host: h.Name, Netdev: n.Netdev, ToS: -1, DSCP: -1, Priority: -1, Via: n.ToS.Via}
	nc.Hops = append(nc.Hops, slHop(f, h, tosHop(f, c, &nc, n)), nicPriorityHop(f, c, &nc, n), nicPFCHop(c, n), nicECNHop(c, n))
	return nc
}

// tosHop: the DSCP on the wire is the QP traffic class >> 2 (knneth/mlnx-ofa_kernel
// drivers/infiniband/hw/mlx5/qp.c `MLX5_SET(ads, path, dscp, qp->tclass >> 2)`).
func tosHop(f *model.Fabric, c *MarkingChain, nc *NICChain, n *model.NIC) Hop {
	hop := Hop{Name: HopToS, Check: "host-tos"}
	t := n.ToS
	knob := map[string]string{
		"traffic_class": fmt.Sprintf("the forced traffic_class %d", t.V),
		"NCCL_IB_TC":    fmt.Sprintf("NCCL_IB_TC=%d", t.V),
		"default":       "NCCL_IB_TC unset (NCCL's default ToS 0)",
	}[t.Via]
	if knob == "" {
		knob = "ToS " + fmt.Sprint(t.V)
	}
	st := trace.ToS(f.Policy, n, knob)
	if st.Unknown != "" {
		hop.Status, hop.Label, hop.Short = HopUnknown, "ToS ?", "not collected"
		hop.Reason = st.Unknown + ": NCCL may take NCCL_IB_TC from the job's environment"
		return hop
	}
	nc.ToS, nc.DSCP = t.V, model.DSCPOfToS(t.V)
	hop.Label = fmt.Sprintf("ToS %d → DSCP %d", t.V, nc.DSCP)
	if !st.Broken() {
		hop.Status, hop.Reason = HopOK, fmt.Sprintf("%s puts DSCP %d on the wire%s", knob, nc.DSCP, from(t.Origin))
		return hop
	}
	hop.Status, hop.Short = HopBroken, fmt.Sprintf("DSCP %d on the wire", nc.DSCP)
	hop.Reason = fmt.Sprintf("%s puts DSCP %d on the wire, not the RoCE DSCP %d: set the ToS to %d", knob, nc.DSCP, c.DSCP, c.ToS)
	if slices.Contains(f.Policy.RoCE.DSCP, t.V) {
		hop.Reason += fmt.Sprintf(" (%d is the DSCP; the ToS is DSCP × 4)", t.V)
	}
	if s := t.Origin.String(); s != "" {
		hop.Reason += " [" + s + "]"
	}
	return hop
}

// slHop breaks a sound ToS hop whose NCCL_IB_SL tags RoCE with the wrong
// PCP under a PCP policy (judge.HostSL): the NIC's 802.1p priority
// is SL & 7, and host-tos reports it.
func slHop(f *model.Fabric, h *model.Host, hop Hop) Hop {
	sl := h.NCCLSL
	if hop.Status != HopOK || !sl.Known {
		return hop
	}
	j := judge.HostSL(f.Policy, sl.V)
	if !breaks(j) {
		return hop
	}
	hop.Status, hop.Short = HopBroken, fmt.Sprintf("PCP %d on the wire", sl.V&7)
	hop.Reason = j.Reason
	if s := sl.Origin.String(); s != "" {
		hop.Reason += " [" + s + "]"
	}
	return hop
}

// qosMissing is a few words on why a NIC's mlnx_qos values are not known;
// trace.NICQoSMissing is the sentence.
func qosMissing(n *model.NIC) string {
	if n.QosUnreadable {
		return "unreadable"
	}
	return "not collected"
}

func nicPriorityHop(f *model.Fabric, c *MarkingChain, nc *NICChain, n *model.NIC) Hop {
	hop := Hop{Name: HopNICPriority, Check: "host-dscp-map"}
	st := trace.NICPriority(f.Policy, n)
	if n.QosFile == "" {
		hop.Status, hop.Label = HopUnknown, "priority ?"
		hop.Short, hop.Reason = qosMissing(n), st.Unknown
		return hop
	}
	want := f.Policy.Trust
	if st.Check == "host-trust" && st.Broken() {
		hop.Check, hop.Status = "host-trust", HopBroken
		hop.Label, hop.Short = "trust "+n.Trust.V, "trusts "+n.Trust.V+", not "+want
		hop.Reason = fmt.Sprintf("the NIC trusts %s%s, the policy marks RoCE in %s", n.Trust.V, from(n.Trust.Origin), strings.ToUpper(want))
		if want == "dscp" {
			// Untagged RoCEv2 carries no PCP: priority 0 (host-trust).
			nc.Priority = 0
			hop.Label = "trust " + n.Trust.V + " → prio 0"
			hop.Reason += ": untagged RoCE lands in priority 0"
		}
		return hop
	}
	if st.Check == "host-trust" {
		hop.Status, hop.Label = HopOK, "trust "+want
		hop.Reason = "the priority comes from the 802.1p tag the sender sets"
		return hop
	}
	if n.DSCPMissing != "" {
		hop.Status, hop.Label, hop.Short = HopUnknown, fmt.Sprintf("DSCP %d → ?", c.DSCP), "not collected"
		hop.Reason = "the dscp2prio block of mlnx_qos-" + n.Netdev + ".txt was not collected: " + n.DSCPMissing
		return hop
	}
	v := n.DSCP.At(c.DSCP)
	switch {
	case !v.Known && st.Broken():
		hop.Status, hop.Label, hop.Short = HopBroken, fmt.Sprintf("DSCP %d → ?", c.DSCP), fmt.Sprintf("DSCP %d not mapped", c.DSCP)
		hop.Reason = fmt.Sprintf("DSCP %d is not in the NIC's dscp2prio table%s", c.DSCP, from(v.Origin))
	case st.Broken():
		nc.Priority = v.V
		hop.Status, hop.Label, hop.Short = HopBroken, fmt.Sprintf("DSCP %d → prio %d", c.DSCP, v.V), fmt.Sprintf("prio %d, not %d", v.V, c.Priority)
		hop.Reason = fmt.Sprintf("DSCP %d maps to NIC priority %d%s, not the RoCE priority %d", c.DSCP, v.V, from(v.Origin), c.Priority)
	default:
		nc.Priority = v.V
		hop.Status, hop.Label = HopOK, fmt.Sprintf("DSCP %d → prio %d", c.DSCP, v.V)
		hop.Reason = fmt.Sprintf("trust dscp; dscp2prio maps DSCP %d to priority %d%s", c.DSCP, v.V, from(v.Origin))
	}
	return hop
}

func nicPFCHop(c *MarkingChain, n *model.NIC) Hop {
	hop := Hop{Name: HopNICPFC, Check: "host-pfc"}
	p := c.Priority
	st, on := trace.NICPFC(c.policy, n)
	switch {
	case !c.Lossless:
		hop.Status, hop.Label, hop.Reason = HopOK, "PFC not required", "the policy designs the fabric lossy"
	case st.Unknown != "":
		hop.Status, hop.Label = HopUnknown, fmt.Sprintf("PFC %d ?", p)
		hop.Short, hop.Reason = qosMissing(n), st.Unknown
		if n.QosFile != "" {
			hop.Short = "no PFC row"
		}
	case !st.Broken():
		hop.Status, hop.Label = HopOK, fmt.Sprintf("PFC on prio %d", p)
		hop.Reason = fmt.Sprintf("PFC enabled on priority %d%s", p, from(n.PFC.At(p).Origin))
	default:
		hop.Status, hop.Label, hop.Short = HopBroken, fmt.Sprintf("PFC off on prio %d", p), fmt.Sprintf("PFC off on %d", p)
		hop.Reason = fmt.Sprintf("PFC is off on priority %d (on: %s)%s: the NIC neither honours nor sends pause for RoCE", p, model.IntList(on), from(n.PFC.At(p).Origin))
	}
	return hop
}

func nicECNHop(c *MarkingChain, n *model.NIC) Hop {
	hop := Hop{Name: HopNICECN, Check: "host-ecn"}
	p := c.Priority
	np, rp := n.ECNNP.At(p), n.ECNRP.At(p)
	if !np.Known && !rp.Known {
		hop.Status, hop.Label, hop.Short = HopUnknown, "DCQCN ?", "not collected"
		hop.Reason = "sysfs ecn/roce_np, ecn/roce_rp of " + n.Netdev + " not collected"
		return hop
	}
	state := func(v model.Value[bool]) string {
		switch {
		case !v.Known:
			return "?"
		case v.V:
			return "on"
		}
		return "off"
	}
	hop.Label = fmt.Sprintf("DCQCN np %s · rp %s", state(np), state(rp))
	var off, why []string
	if trace.NICDCQCN(c.policy, n, "np").Broken() {
		off = append(off, "np")
		why = append(why, fmt.Sprintf("the notification point is off for priority %d: no CNP for congestion-marked RoCE it receives", p))
	}
	if trace.NICDCQCN(c.policy, n, "rp").Broken() {
		off = append(off, "rp")
		why = append(why, fmt.Sprintf("the reaction point is off for priority %d: it ignores CNPs and never slows its QPs", p))
	}
	if len(off) == 0 {
		hop.Status, hop.Reason = HopOK, fmt.Sprintf("DCQCN notification and reaction point on for priority %d", p)
		return hop
	}
	hop.Status, hop.Short = HopBroken, strings.Join(off, ", ")+" off"
	hop.Reason = "DCQCN " + strings.Join(why, "; ")
	return hop
}

// switchChains follows the DSCP through each group of ports that share one
// effective QoS (model Switch.PortGroups, as the checks group them), in
// port order.
func switchChains(f *model.Fabric, c *MarkingChain, sw *model.Switch) []SwitchChain {
	if sw.ConfigFile == "" {
		unknown := func(name, check string) Hop {
			return Hop{Name: name, Check: check, Status: HopUnknown, Label: "?", Short: "no configuration",
				Reason: "the switch configuration was not collected or could not be read (see input errors)"}
		}
		return []SwitchChain{{Switch: sw.Name, Priority: -1, TC: -1, Hops: []Hop{
			unknown(HopSwitchPriority, "switch-dscp-map"), unknown(HopSwitchPFC, "switch-pfc"),
			unknown(HopSwitchTC, "switch-queue-map"), unknown(HopSwitchECN, "switch-ecn"),
		}}}
	}
	var out []SwitchChain
	for _, g := range sw.PortGroups() {
		sc := SwitchChain{Switch: sw.Name, Ports: g.Iface, Priority: g.Q.DSCP.At(c.DSCP).V, TC: g.Q.TC[c.Priority].V}
		sc.Hops = []Hop{switchPriorityHop(f, c, g.Q), switchPFCHop(c, g.Q), switchTCHop(c, g.Q), switchECNHop(c, g.Q)}
		if sc.Hops[0].Status == HopBroken && sc.Hops[0].Check == "switch-trust" {
			sc.Priority = -1
		}
		out = append(out, sc)
	}
	return out
}

func switchPriorityHop(f *model.Fabric, c *MarkingChain, q *model.QoS) Hop {
	hop := Hop{Name: HopSwitchPriority, Check: "switch-dscp-map"}
	field := "DSCP"
	if f.Policy.Trust == "pcp" {
		field = "PCP"
	}
	t := q.Trust
	st := trace.SwitchPriority(f.Policy, q)
	if st.Check == "switch-trust" && st.Broken() {
		hop.Check, hop.Status = "switch-trust", HopBroken
		hop.Label, hop.Short = "trust "+t.V, "trust "+t.V+": "+field+" ignored"
		hop.Reason = fmt.Sprintf("the ports trust %s%s, but the hosts mark RoCE in %s: RoCE lands in the wrong priority", t.V, from(t.Origin), field)
		return hop
	}
	v := q.DSCP.At(c.DSCP)
	// switch-dscp-map judges the map whatever the trust: a port that
	// trusts both reads the DSCP too.
	broken := st.Broken()
	if field == "PCP" && !broken {
		hop.Status, hop.Label, hop.Reason = HopOK, "trust "+t.V, "the priority comes from the 802.1p tag"
		return hop
	}
	hop.Label = fmt.Sprintf("DSCP %d → SP %d", c.DSCP, v.V)
	if broken {
		hop.Status, hop.Short = HopBroken, fmt.Sprintf("SP %d, not %d", v.V, c.Priority)
		hop.Reason = fmt.Sprintf("DSCP %d maps to switch-priority %d%s, not the RoCE priority %d", c.DSCP, v.V, from(v.Origin), c.Priority)
		return hop
	}
	hop.Status = HopOK
	hop.Reason = fmt.Sprintf("trust %s; DSCP %d → switch-priority %d%s", t.V, c.DSCP, v.V, from(v.Origin))
	return hop
}

func switchPFCHop(c *MarkingChain, q *model.QoS) Hop {
	hop := Hop{Name: HopSwitchPFC, Check: "switch-pfc"}
	p := c.Priority
	if !c.Lossless {
		hop.Status, hop.Label, hop.Reason = HopOK, "PFC not required", "the policy designs the fabric lossy"
		return hop
	}
	st := trace.SwitchPFC(c.policy, q)
	on := st.On
	var bad []string
	pfcBroken := st.PFC.Broken()
	if pfcBroken {
		bad = append(bad, fmt.Sprintf("PFC is not on switch-priority %d (on: %s)%s: RoCE is dropped under congestion", p, model.IntList(on), from(q.PFC[p].Origin)))
	}
	if st.Rx.Broken() {
		bad = append(bad, fmt.Sprintf("PFC rx is disabled%s: the switch ignores the pause frames it receives", from(q.PFCRx.Origin)))
	}
	if st.Tx.Broken() {
		bad = append(bad, fmt.Sprintf("PFC tx is disabled%s: the switch sends no pause frames", from(q.PFCTx.Origin)))
	}
	switch {
	case len(bad) == 0:
		hop.Status, hop.Label = HopOK, fmt.Sprintf("PFC on SP %d", p)
		hop.Reason = fmt.Sprintf("PFC on switch-priority %d, rx and tx enabled%s", p, from(q.PFC[p].Origin))
	case pfcBroken:
		hop.Status, hop.Label, hop.Short = HopBroken, fmt.Sprintf("PFC off on SP %d", p), fmt.Sprintf("PFC on %s, not %d", model.IntList(on), p)
	default:
		hop.Status, hop.Label, hop.Short = HopBroken, fmt.Sprintf("PFC on SP %d", p), "PFC rx/tx disabled"
	}
	if len(bad) > 0 {
		hop.Reason = strings.Join(bad, "; ")
	}
	return hop
}

func switchTCHop(c *MarkingChain, q *model.QoS) Hop {
	hop := Hop{Name: HopSwitchTC, Check: "switch-queue-map"}
	v := q.TC[c.Priority]
	hop.Label = fmt.Sprintf("SP %d → TC %d", c.Priority, v.V)
	if trace.SwitchTC(c.policy, q).Broken() {
		hop.Status, hop.Short = HopBroken, fmt.Sprintf("TC %d, not %d", v.V, c.TrafficClass)
		hop.Reason = fmt.Sprintf("switch-priority %d egresses through traffic-class %d%s, not the RoCE traffic-class %d", c.Priority, v.V, from(v.Origin), c.TrafficClass)
		return hop
	}
	hop.Status = HopOK
	hop.Reason = fmt.Sprintf("switch-priority %d → traffic-class %d%s", c.Priority, v.V, from(v.Origin))
	return hop
}

func switchECNHop(c *MarkingChain, q *model.QoS) Hop {
	hop := Hop{Name: HopSwitchECN, Check: "switch-ecn"}
	tc := c.TrafficClass
	v := q.ECN[tc]
	if trace.SwitchECN(c.policy, q).Broken() {
		hop.Status, hop.Label, hop.Short = HopBroken, fmt.Sprintf("ECN off on TC %d", tc), fmt.Sprintf("ECN off on TC %d", tc)
		hop.Reason = fmt.Sprintf("ECN is off on traffic-class %d%s: DCQCN gets no congestion marks, only PFC brakes RoCE", tc, from(v.Origin))
		return hop
	}
	hop.Status, hop.Label = HopOK, fmt.Sprintf("ECN on TC %d", tc)
	hop.Reason = fmt.Sprintf("ECN marks traffic-class %d from %d to %d bytes%s", tc, q.ECNMin[tc].V, q.ECNMax[tc].V, from(v.Origin))
	return hop
}

// from is an origin as a parenthesised suffix, "" when there is none.
func from(o model.Origin) string {
	if s := o.String(); s != "" {
		return " (" + s + ")"
	}
	return ""
}
