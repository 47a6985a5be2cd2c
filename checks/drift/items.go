package drift

import (
	"cmp"
	"fmt"
	"github.com/qoslint/qoslint/internal/layout"
	"sort"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/model/snapshot"
)

// itemList numbers items in the order they are added, which is the
// snapshot's field order and the order of a device's changes.
type itemList []item

func (l *itemList) add(it item) { it.order = len(*l); *l = append(*l, it) }

func switchItems(sw *snapshot.Switch, r *policyRules) []item {
	var l itemList
	roce := notCollected
	origin := sw.RoCE.Enabled.Origin
	switch {
	case sw.RoCE.Enabled.Known && !sw.RoCE.Enabled.Value:
		roce = "off"
	case sw.RoCE.Enabled.Known:
		roce, origin = strText(sw.RoCE.Mode), sw.RoCE.Mode.Origin
	}
	it := item{field: "roce", text: roce, origin: origin, say: "qos roce %s"}
	it.judge("switch-roce-mode", judgeIf(sw.RoCE.Enabled.Known, func() judge.Judgement {
		return judge.RoCEMode(r.p, sw.RoCE.Enabled.Value, sw.RoCE.Mode.Value)
	}))
	l.add(it)
	l.add(item{field: "os", text: cmp.Or(sw.OS, layout.OSCumulus), say: "switch OS %s"})
	l.add(item{field: "syntax", text: sw.Syntax, say: "NVUE syntax %s"})
	for _, name := range ecmpNames(sw.ECMPHash) {
		v := sw.ECMPHash[name]
		it := item{field: "ecmp_hash." + name, text: boolText(v), origin: v.Origin, say: "ECMP hash on " + name + " %s"}
		if r.hashed[name] {
			it.judge("ecmp-hash", judgeIf(v.Known, func() judge.Judgement { return judge.ECMPHash(r.p, name, v.Value) }))
		}
		l.add(it)
	}
	for _, pair := range judge.ECMPHashPairs {
		l.add(hashPairItem(sw, pair))
	}
	if r.has(snapshot.SectionForwarding) {
		l.add(hashSeedItem(sw, r))
	}
	if r.has(snapshot.SectionTrafficPools) {
		poolItems(&l, sw, r.p)
	}
	// adaptive-routing judges the switch setting together with every
	// routed port, which a snapshot does not record; the switch setting
	// against the policy is what is left to compare.
	ar := sw.AdaptiveRouting
	l.add(item{field: "adaptive_routing", text: boolText(ar), origin: ar.Origin, say: "adaptive routing %s",
		checks: []string{"adaptive-routing"}, bad: ar.Known && ar.Value != r.p.ECMP.AdaptiveRouting})
	return l
}

// ecmpNames orders ecmp-hash fields as NVUE documents them, unknown names
// last.
func ecmpNames(m map[string]snapshot.Fact[bool]) []string {
	rank := map[string]int{}
	for i, f := range model.ECMPFields {
		rank[f.Name] = i + 1
	}
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := rank[names[i]], rank[names[j]]
		switch {
		case a != b && a != 0 && b != 0:
			return a < b
		case a != b:
			return b == 0
		}
		return names[i] < names[j]
	})
	return names
}

// portItems are a port's own values: MTU, per-port adaptive routing, and
// its flow control beside PFC.
func (sp *switchPorts) portItems(port string) []item {
	mtu, ar, r := sp.mtu[port], sp.ar[port], sp.r
	var l itemList
	if mtu != nil {
		it := item{field: "mtu", text: strconv.Itoa(mtu.Value), origin: mtu.Origin, say: "MTU %s"}
		it.judge("mtu", judge.OSSwitchMTU(r.p, sp.sw.OS, mtu.Value))
		l.add(it)
	} else {
		l.add(item{field: "mtu", text: notCollected, say: "MTU %s"})
	}
	if ar != nil {
		l.add(item{field: "port_adaptive_routing", text: onOff(ar.Value), origin: ar.Origin, say: "port adaptive routing %s"})
	} else {
		l.add(item{field: "port_adaptive_routing", text: "not set", say: "port adaptive routing %s"})
	}
	if r.has(snapshot.SectionFlowControl) {
		l.add(sp.watchdogItem(port))
		l.add(sp.linkPauseItem(port))
	}
	return l
}

// os is the switch's OS (snapshot.Switch.OS): a SONiC switch sizes each port
// for its own cable (model.Switch.CableLengthPerPort) and has no RoCE
// scheduling default (judge.SwitchETSMinShare).
func groupItems(g *snapshot.PortGroup, r *policyRules, os string) []item {
	l := make(itemList, 0, 128)
	p := r.p
	for _, pf := range []struct {
		name string
		v    snapshot.Fact[string]
	}{{"mapping", g.Profiles.Mapping}, {"pfc", g.Profiles.PFC}, {"congestion_control", g.Profiles.CongestionControl}, {"egress_scheduler", g.Profiles.EgressScheduler}} {
		l.add(item{field: "profiles." + pf.name, text: strText(pf.v), origin: pf.v.Origin, say: pf.name + " profile %s"})
	}
	trust := item{field: "trust", text: strText(g.Trust), origin: g.Trust.Origin, say: "trust %s"}
	trust.judge("switch-trust", judgeIf(g.Trust.Known, func() judge.Judgement { return judge.SwitchTrust(p, g.Trust.Value) }))
	l.add(trust)
	for d, v := range g.DSCP.Entries() {
		it := item{field: "dscp_map." + strconv.Itoa(d), text: dscpText(v), origin: v.Origin, say: fmt.Sprintf("DSCP %d → switch-priority %%s", d)}
		// A switch's map is whole once its configuration is read: an
		// entry not known is a value the drift cannot vouch for.
		if r.roceDSCP(d) {
			it.judge("switch-dscp-map", unknownBreaks(v.Known, func() judge.Judgement { return judge.SwitchDSCP(p, d, v.Value) }))
		}
		if d == p.CNP.DSCP {
			it.judge("switch-cnp", unknownBreaks(v.Known, func() judge.Judgement { return judge.SwitchCNPDSCP(p, v.Value) }))
		}
		l.add(it)
	}
	pfc := item{field: "pfc", text: prioSetText(g.PFC), origin: g.PFC.Origin, say: "PFC on switch-priority %s", phrase: pfcPhrase("switch-priority")}
	rx := item{field: "pfc_rx", text: boolText(g.PFCRx), origin: g.PFCRx.Origin, say: "PFC rx %s"}
	tx := item{field: "pfc_tx", text: boolText(g.PFCTx), origin: g.PFCTx.Origin, say: "PFC tx %s"}
	if judge.PFCRequired(p) {
		pfc.judge("switch-pfc", unknownBreaks(g.PFC.Known, func() judge.Judgement { return judge.SwitchPFC(p, g.PFC.Value) }))
		rx.judge("switch-pfc", judgeIf(g.PFCRx.Known, func() judge.Judgement { return judge.SwitchPFCDirection(p, "rx", g.PFCRx.Value) }))
		tx.judge("switch-pfc", judgeIf(g.PFCTx.Known, func() judge.Judgement { return judge.SwitchPFCDirection(p, "tx", g.PFCTx.Value) }))
	}
	l.add(pfc)
	l.add(rx)
	l.add(tx)
	cnpTC := -1
	if sp := p.CNP.Priority; sp < len(g.SPToTC) && g.SPToTC[sp].Known {
		cnpTC = g.SPToTC[sp].Value
	}
	for sp, v := range g.SPToTC {
		it := item{field: "sp_to_tc." + strconv.Itoa(sp), text: intText(v), origin: v.Origin, say: fmt.Sprintf("switch-priority %d → traffic-class %%s", sp)}
		if v.Known {
			queueItem(&it, p, sp, v.Value)
			// Judged only where it breaks: every other move is neutral to
			// switch-ets, and listing it there would only be noise.
			if j := strictElsewhere(g, p, v.Value, cnpTC); !j.OK {
				it.judge("switch-ets", j)
			}
		}
		l.add(it)
	}
	trafficClassItems(&l, g, p, cnpTC, os)
	if r.has(snapshot.SectionFlowControl) {
		l.add(cableItem(g, r, os == layout.OSSONiC))
	}
	if r.has(snapshot.SectionPCPMap) {
		pcpItems(&l, g, p)
	}
	return l
}

// trafficClassItems are a port group's per-traffic-class values: ECN and
// its thresholds on the RoCE class, the CNP class's scheduler, and each
// DWRR share, judged as their sum.
func trafficClassItems(l *itemList, g *snapshot.PortGroup, p policy.Policy, cnpTC int, os string) {
	dwrr := 0
	for _, tc := range g.TrafficClasses {
		if tc.Scheduler.Value == "dwrr" {
			dwrr += tc.BWPercent.Value
		}
	}
	ets := judge.ETSBandwidth(g.Profiles.EgressScheduler.Value, dwrr)
	prof := g.Profiles.EgressScheduler.Value
	for _, tc := range g.TrafficClasses {
		pre := fmt.Sprintf("traffic_classes.%d.", tc.TC)
		say := fmt.Sprintf("traffic-class %d ", tc.TC)
		ecn := item{field: pre + "ecn", text: boolText(tc.ECN), origin: tc.ECN.Origin, say: say + "ECN %s"}
		mn := item{field: pre + "ecn_min_threshold", text: intText(tc.ECNMin), origin: tc.ECNMin.Origin, say: say + "ECN min-threshold %s", unit: " B"}
		mx := item{field: pre + "ecn_max_threshold", text: intText(tc.ECNMax), origin: tc.ECNMax.Origin, say: say + "ECN max-threshold %s", unit: " B"}
		if tc.TC == p.RoCE.TrafficClass {
			ecn.judge("switch-ecn", judgeIf(tc.ECN.Known, func() judge.Judgement { return judge.SwitchECN(p, tc.ECN.Value) }))
			// The snapshot does not record dynamic ECN ("mode
			// relative"), whose percentages replace these thresholds.
			th := judgeIf(tc.ECN.Value && tc.ECNMin.Known && tc.ECNMax.Known, func() judge.Judgement {
				return judge.SwitchECNThresholds(p, tc.ECNMin.Value, tc.ECNMax.Value)
			})
			mn.judge("switch-ecn", th)
			mx.judge("switch-ecn", th)
		}
		sched := item{field: pre + "scheduler", text: strText(tc.Scheduler), origin: tc.Scheduler.Origin, say: say + "scheduler %s"}
		if tc.TC == cnpTC && judge.SwitchCNPQueue(p, cnpTC).OK {
			sched.judge("switch-cnp", judgeIf(tc.Scheduler.Known, func() judge.Judgement {
				return judge.SwitchCNPScheduler(p, tc.TC, tc.Scheduler.Value)
			}))
		}
		l.add(ecn)
		l.add(mn)
		l.add(mx)
		bw := item{field: pre + "bw_percent", text: intText(tc.BWPercent), origin: tc.BWPercent.Origin, say: say + "bw-percent %s", unit: "%"}
		if tc.TC != p.RoCE.TrafficClass {
			if j := judge.SwitchETSStrict(prof, tc.TC, cnpTC, tc.Scheduler.Value, prioritiesIn(g, tc.TC)); !j.OK {
				sched.judge("switch-ets", j)
			}
		}
		l.add(sched)
		if tc.Scheduler.Value == "dwrr" && tc.BWPercent.Value > 0 {
			bw.judge("switch-ets-bandwidth", ets)
		}
		if tc.TC == p.RoCE.TrafficClass {
			l.add(roceShareItem(&tc, p, os, prof, pre, say))
		}
		l.add(bw)
	}
}

// roceShareItem is the RoCE traffic class's scheduler and share as one
// value, switch-ets's: an item is bad for every check it lists, and the
// bw-percent item's other verdict (switch-ets-bandwidth, the total) is a
// different one.
func roceShareItem(tc *snapshot.TrafficClass, p policy.Policy, os, prof, pre, say string) item {
	text, origin := strText(tc.Scheduler), tc.Scheduler.Origin
	if tc.Scheduler.Known && tc.Scheduler.Value == "dwrr" && tc.BWPercent.Known {
		text, origin = fmt.Sprintf("dwrr %d%%", tc.BWPercent.Value), tc.BWPercent.Origin
	}
	it := item{field: pre + "roce_share", text: text, origin: origin, say: say + "(RoCE) scheduled %s"}
	it.judge("switch-ets", judgeIf(tc.Scheduler.Known, func() judge.Judgement {
		return judge.SwitchETSRoCE(p, os, prof, tc.Scheduler.Value, tc.BWPercent.Value)
	}))
	return it
}

// prioritiesIn are the switch priorities a port group maps to traffic
// class tc.
func prioritiesIn(g *snapshot.PortGroup, tc int) []int {
	var sps []int
	for sp, v := range g.SPToTC {
		if v.Known && v.Value == tc {
			sps = append(sps, sp)
		}
	}
	return sps
}

// strictElsewhere is switch-ets's verdict on switch priority sp moved to
// traffic class tc: a strict class other than the CNP and RoCE ones starts
// carrying traffic.
func strictElsewhere(g *snapshot.PortGroup, p policy.Policy, tc, cnpTC int) judge.Judgement {
	if tc < 0 || tc >= len(g.TrafficClasses) || tc == p.RoCE.TrafficClass {
		return judge.Judgement{OK: true}
	}
	return judge.SwitchETSStrict(g.Profiles.EgressScheduler.Value, tc, cnpTC, g.TrafficClasses[tc].Scheduler.Value, prioritiesIn(g, tc))
}

func hostItems(h *snapshot.Host, r *policyRules) []item {
	var l itemList
	p := r.p
	l.add(item{field: "nccl_ib_tc", text: unsetText(h.NCCLIBTC), origin: h.NCCLIBTC.Origin, say: "NCCL_IB_TC %s"})
	// NCCL_IB_SL places RoCE only under a PCP policy (judge.HostSL);
	// under a DSCP one its changes are noise and are not listed.
	if p.Trust == "pcp" {
		sl := item{field: "nccl_ib_sl", text: intText(h.NCCLIBSL), origin: h.NCCLIBSL.Origin, say: "NCCL_IB_SL %s"}
		// host-tos judges the SL only on a host with NICs (ncclSLFinding).
		sl.judge("host-tos", judgeIf(h.NCCLIBSL.Known && len(h.NICs) > 0, func() judge.Judgement { return judge.HostSL(p, h.NCCLIBSL.Value) }))
		l.add(sl)
	}
	if r.has(snapshot.SectionRoCEVersion) {
		ncclGIDParamItems(&l, h)
	}
	if r.has(snapshot.SectionApplications) {
		appItems(&l, h, r)
	}
	return l
}

func nicItems(h *snapshot.Host, n *snapshot.NIC, r *policyRules) []item {
	l := make(itemList, 0, 128)
	p := r.p
	trust := item{field: "trust", text: strText(n.Trust), origin: n.Trust.Origin, say: "trust %s"}
	trust.judge("host-trust", judgeIf(n.Trust.Known, func() judge.Judgement { return judge.HostTrust(p, n.Trust.Value) }))
	l.add(trust)
	// host-dscp-map judges only NICs whose mlnx_qos was read and that trust
	// DSCP, under a DSCP policy; an entry absent from a printed table
	// (evidence, no value) breaks it, a table not collected does not.
	judged := n.QosFile != "" && n.Trust.Known && judge.HostDSCPJudged(p, n.Trust.Value)
	for d, v := range n.DSCP.Entries() {
		it := item{field: "dscp_map." + strconv.Itoa(d), text: dscpText(v), origin: v.Origin, say: fmt.Sprintf("DSCP %d → priority %%s", d)}
		if p.Trust == "dscp" && r.roceDSCP(d) {
			it.judge("host-dscp-map", judgeIf(judged && (v.Known || v.Origin != ""), func() judge.Judgement {
				return judge.HostDSCP(p, d, v.Value, v.Known)
			}))
		}
		l.add(it)
	}
	pfc := item{field: "pfc", text: prioSetText(n.PFC), origin: n.PFC.Origin, say: "PFC on priority %s", phrase: pfcPhrase("priority")}
	// Judged under a lossy policy too: PFC on the RoCE priority is then
	// host-pfc's warning (judge.HostPFC).
	pfc.judge("host-pfc", judgeIf(n.PFC.Known, func() judge.Judgement { return judge.HostPFC(p, n.PFC.Value) }))
	l.add(pfc)
	l.add(roceTCItem(p, n))
	for prio := 0; prio < 8; prio++ {
		t := snapshot.Fact[int]{Origin: n.PrioTC.Origin}
		if n.PrioTC.Known && prio < len(n.PrioTC.Value) {
			t = snapshot.Fact[int]{Value: n.PrioTC.Value[prio], Known: true, Origin: n.PrioTC.Origin}
		}
		l.add(item{field: "prio_to_tc." + strconv.Itoa(prio), text: text(t, func(v int) string {
			if v < 0 {
				return "none"
			}
			return strconv.Itoa(v)
		}), origin: t.Origin, say: fmt.Sprintf("priority %d → tc %%s", prio)})
	}
	for _, pt := range []struct {
		field, what string
		v           []snapshot.Fact[bool]
	}{{"np", "DCQCN notification point", n.ECNNP}, {"rp", "DCQCN reaction point", n.ECNRP}} {
		for prio, v := range pt.v {
			it := item{field: "ecn_" + pt.field + "." + strconv.Itoa(prio), text: boolText(v), origin: v.Origin, say: fmt.Sprintf("%s on priority %d %%s", pt.what, prio)}
			if prio == p.RoCE.Priority {
				it.judge("host-ecn", judgeIf(v.Known, func() judge.Judgement { return judge.HostDCQCN(p, pt.field, prio, v.Value) }))
			}
			l.add(it)
		}
	}
	cnpDSCP := item{field: "cnp_dscp", text: intText(n.CNPDSCP), origin: n.CNPDSCP.Origin, say: "CNP DSCP %s"}
	cnpDSCP.judge("host-cnp", judgeIf(n.CNPDSCP.Known, func() judge.Judgement { return judge.HostCNPDSCP(p, n.CNPDSCP.Value) }))
	cnpPrio := item{field: "cnp_802p_prio", text: intText(n.CNPPrio), origin: n.CNPPrio.Origin, say: "CNP 802.1p priority %s"}
	cnpPrio.judge("host-cnp", judgeIf(n.CNPPrio.Known, func() judge.Judgement { return judge.HostCNPPrio(p, n.CNPPrio.Value) }))
	mtu := item{field: "mtu", text: intText(n.MTU), origin: n.MTU.Origin, say: "MTU %s"}
	mtu.judge("mtu", judgeIf(n.MTU.Known, func() judge.Judgement { return judge.HostMTU(p, n.MTU.Value) }))
	t := n.ToS.Effective
	tos := item{field: "tos", text: tosText(n.ToS), origin: t.Origin, say: "ToS %s"}
	tos.judge("host-tos", judgeIf(t.Known, func() judge.Judgement { return judge.ToS(p, t.Value, "") }))
	l.add(cnpDSCP)
	l.add(cnpPrio)
	l.add(mtu)
	l.add(tos)
	l.add(item{field: "tos.forced_traffic_class", text: unsetText(n.ToS.Forced), origin: n.ToS.Forced.Origin, say: "forced traffic_class %s"})
	if r.has(snapshot.SectionRoCEVersion) {
		roceVersionItems(&l, h, n)
	}
	if r.has(snapshot.SectionFirmware) {
		firmwareItems(&l, n, r)
	}
	if r.has(snapshot.SectionApplications) {
		rdmaCMToSItem(&l, n, r)
	}
	return l
}

// dscpText is an entry's priority; an entry with evidence but no value is
// absent from a printed table, which is not the same as not collected.
func dscpText(v snapshot.Fact[int]) string {
	if !v.Known && v.Origin != "" {
		return "absent"
	}
	return intText(v)
}

// judgeIf is the judgement of a value that is known; a value whose input
// was not collected breaks nothing (the checks skip it too).
func judgeIf(known bool, verdict func() judge.Judgement) judge.Judgement {
	if !known {
		return judge.Pass
	}
	return verdict()
}

// unknownBreaks is the judgement of a value a collected configuration
// always gives; not known, it cannot be vouched for and counts as broken.
func unknownBreaks(known bool, verdict func() judge.Judgement) judge.Judgement {
	if !known {
		return judge.Judgement{Severity: judge.Error, Reason: "not known"}
	}
	return verdict()
}

// queueItem judges the egress queue of switch priority sp: the RoCE
// priority's class is switch-queue-map's; the CNP priority's is
// switch-cnp's, and like any other priority in the RoCE class also
// switch-queue-map's warning. The snapshot does not tell a class left at
// NVUE's default from one set, so with RoCE in class 0 a priority in
// class 0 is never counted (as the check does for the default).
func queueItem(it *item, p policy.Policy, sp, tc int) {
	if sp == p.RoCE.Priority {
		it.judge("switch-queue-map", judge.SwitchQueue(p, sp, tc, true))
		return
	}
	if sp == p.CNP.Priority {
		it.judge("switch-cnp", judge.SwitchCNPQueue(p, tc))
	}
	if j := judge.SwitchQueue(p, sp, tc, true); j.Breaks() {
		it.judge("switch-queue-map", j)
	}
}

// roceTCItem is how the NIC schedules the traffic class the RoCE priority
// maps to, host-ets's verdict: "tc 3: ets, bw 50%". It follows the
// priority, so moving the priority to another class is a change here too.
// A class mlnx_qos did not print is not judged, as host-ets does not.
func roceTCItem(p policy.Policy, n *snapshot.NIC) item {
	it := item{field: "roce_tc_scheduling", text: notCollected, origin: n.PrioTC.Origin, say: "RoCE traffic class scheduling %s"}
	prio := p.RoCE.Priority
	// No TSA at all: a snapshot taken before they were recorded.
	if !n.PrioTC.Known || prio >= len(n.PrioTC.Value) || len(n.TSA) == 0 {
		return it
	}
	tc := n.PrioTC.Value[prio]
	if tc < 0 || tc >= len(n.TSA) || tc >= len(n.TCBW) || !n.TSA[tc].Known {
		it.text = "no tc block for the priority"
		return it
	}
	tsa, bw := n.TSA[tc].Value, n.TCBW[tc]
	it.text, it.origin = "tc "+strconv.Itoa(tc)+": "+tsa, n.TSA[tc].Origin
	if tsa == "ets" {
		it.text += ", bw " + strconv.Itoa(bw) + "%"
	}
	it.judge("host-ets", judge.HostETS(p, tc, tsa, bw))
	return it
}
