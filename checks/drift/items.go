package drift

import (
	"fmt"
	"sort"

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
	l.add(item{field: "roce", text: roce, origin: origin, say: "qos roce %s",
		checks: []string{"switch-roce-mode"}, bad: sw.RoCE.Enabled.Known && r.roceSwitch(sw)})
	l.add(item{field: "syntax", text: sw.Syntax, say: "NVUE syntax %s"})
	for _, name := range ecmpNames(sw.ECMPHash) {
		v := sw.ECMPHash[name]
		it := item{field: "ecmp_hash." + name, text: boolText(v), origin: v.Origin, say: "ECMP hash on " + name + " %s"}
		if r.hashed[name] {
			it.checks, it.bad = []string{"ecmp-hash"}, v.Known && !v.Value
		}
		l.add(it)
	}
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

// portItems are a port's own values: MTU and per-port adaptive routing.
func portItems(mtu *snapshot.PortValue[int], ar *snapshot.PortValue[bool], r *policyRules) []item {
	var l itemList
	if mtu != nil {
		l.add(item{field: "mtu", text: itoa(mtu.Value), origin: mtu.Origin, say: "MTU %s",
			checks: []string{"mtu"}, bad: mtu.Value < r.p.MTU.Switch})
	} else {
		l.add(item{field: "mtu", text: notCollected, say: "MTU %s"})
	}
	if ar != nil {
		l.add(item{field: "port_adaptive_routing", text: onOff(ar.Value), origin: ar.Origin, say: "port adaptive routing %s"})
	} else {
		l.add(item{field: "port_adaptive_routing", text: "not set", say: "port adaptive routing %s"})
	}
	return l
}

func groupItems(g *snapshot.PortGroup, r *policyRules) []item {
	l := make(itemList, 0, 128)
	p := r.p
	for _, pf := range []struct {
		name string
		v    snapshot.Fact[string]
	}{{"mapping", g.Profiles.Mapping}, {"pfc", g.Profiles.PFC}, {"congestion_control", g.Profiles.CongestionControl}, {"egress_scheduler", g.Profiles.EgressScheduler}} {
		l.add(item{field: "profiles." + pf.name, text: strText(pf.v), origin: pf.v.Origin, say: pf.name + " profile %s"})
	}
	l.add(item{field: "trust", text: strText(g.Trust), origin: g.Trust.Origin, say: "trust %s",
		checks: []string{"switch-trust"}, bad: g.Trust.Known && !r.switchTrust[g.Trust.Value]})
	for d, v := range g.DSCP.Entries() {
		it := item{field: "dscp_map." + itoa(d), text: dscpText(v), origin: v.Origin, say: fmt.Sprintf("DSCP %d → switch-priority %%s", d)}
		if r.roceDSCP(d) {
			it.checks = append(it.checks, "switch-dscp-map")
			it.bad = it.bad || v.Value != p.RoCE.Priority || !v.Known
		}
		if d == p.CNP.DSCP {
			it.checks = append(it.checks, "switch-cnp")
			it.bad = it.bad || v.Value != p.CNP.Priority || !v.Known
		}
		l.add(it)
	}
	pfc := item{field: "pfc", text: prioSetText(g.PFC), origin: g.PFC.Origin, say: "PFC on switch-priority %s", phrase: pfcPhrase("switch-priority")}
	rx := item{field: "pfc_rx", text: boolText(g.PFCRx), origin: g.PFCRx.Origin, say: "PFC rx %s"}
	tx := item{field: "pfc_tx", text: boolText(g.PFCTx), origin: g.PFCTx.Origin, say: "PFC tx %s"}
	if r.lossless {
		pfc.checks, pfc.bad = []string{"switch-pfc"}, !isSet(g.PFC, p.RoCE.Priority)
		rx.checks, rx.bad = []string{"switch-pfc"}, g.PFCRx.Known && !g.PFCRx.Value
		tx.checks, tx.bad = []string{"switch-pfc"}, g.PFCTx.Known && !g.PFCTx.Value
	}
	l.add(pfc)
	l.add(rx)
	l.add(tx)
	cnpTC := -1
	for sp, v := range g.SPToTC {
		it := item{field: "sp_to_tc." + itoa(sp), text: intText(v), origin: v.Origin, say: fmt.Sprintf("switch-priority %d → traffic-class %%s", sp)}
		if v.Known {
			it.checks, it.bad = r.queueMap(sp, v.Value)
			if sp == p.CNP.Priority {
				cnpTC = v.Value
			}
		}
		l.add(it)
	}
	for _, tc := range g.TrafficClasses {
		pre := fmt.Sprintf("traffic_classes.%d.", tc.TC)
		say := fmt.Sprintf("traffic-class %d ", tc.TC)
		ecn := item{field: pre + "ecn", text: boolText(tc.ECN), origin: tc.ECN.Origin, say: say + "ECN %s"}
		mn := item{field: pre + "ecn_min_threshold", text: intText(tc.ECNMin), origin: tc.ECNMin.Origin, say: say + "ECN min-threshold %s", unit: " B"}
		mx := item{field: pre + "ecn_max_threshold", text: intText(tc.ECNMax), origin: tc.ECNMax.Origin, say: say + "ECN max-threshold %s", unit: " B"}
		if tc.TC == p.RoCE.TrafficClass {
			ecn.checks, ecn.bad = []string{"switch-ecn"}, tc.ECN.Known && !tc.ECN.Value
			inverted := tc.ECN.Value && tc.ECNMin.Known && tc.ECNMax.Known && tc.ECNMin.Value >= tc.ECNMax.Value
			mn.checks, mn.bad = []string{"switch-ecn"}, inverted
			mx.checks, mx.bad = []string{"switch-ecn"}, inverted
		}
		sched := item{field: pre + "scheduler", text: strText(tc.Scheduler), origin: tc.Scheduler.Origin, say: say + "scheduler %s"}
		if tc.TC == cnpTC && cnpTC != p.RoCE.TrafficClass {
			sched.checks, sched.bad = []string{"switch-cnp"}, tc.Scheduler.Known && tc.Scheduler.Value != "strict"
		}
		l.add(ecn)
		l.add(mn)
		l.add(mx)
		l.add(sched)
		l.add(item{field: pre + "bw_percent", text: intText(tc.BWPercent), origin: tc.BWPercent.Origin, say: say + "bw-percent %s", unit: "%"})
	}
	return l
}

func hostItems(h *snapshot.Host) []item {
	var l itemList
	l.add(item{field: "nccl_ib_tc", text: unsetText(h.NCCLIBTC), origin: h.NCCLIBTC.Origin, say: "NCCL_IB_TC %s"})
	return l
}

func nicItems(n *snapshot.NIC, r *policyRules) []item {
	l := make(itemList, 0, 128)
	p := r.p
	l.add(item{field: "trust", text: strText(n.Trust), origin: n.Trust.Origin, say: "trust %s",
		checks: []string{"host-trust"}, bad: n.Trust.Known && n.Trust.Value != p.Trust})
	// host-dscp-map judges only NICs whose mlnx_qos was read and that trust
	// DSCP, under a DSCP policy; an entry absent from the table breaks it.
	judged := p.Trust == "dscp" && n.QosFile != "" && n.Trust.Known && n.Trust.Value == "dscp"
	for d, v := range n.DSCP.Entries() {
		it := item{field: "dscp_map." + itoa(d), text: dscpText(v), origin: v.Origin, say: fmt.Sprintf("DSCP %d → priority %%s", d)}
		if p.Trust == "dscp" && r.roceDSCP(d) {
			it.checks = []string{"host-dscp-map"}
			it.bad = judged && (!v.Known || v.Value != p.RoCE.Priority)
		}
		l.add(it)
	}
	pfc := item{field: "pfc", text: prioSetText(n.PFC), origin: n.PFC.Origin, say: "PFC on priority %s", phrase: pfcPhrase("priority")}
	if r.lossless {
		pfc.checks, pfc.bad = []string{"host-pfc"}, n.PFC.Known && !isSet(n.PFC, p.RoCE.Priority)
	}
	l.add(pfc)
	for prio := 0; prio < 8; prio++ {
		t := snapshot.Fact[int]{Origin: n.PrioTC.Origin}
		if n.PrioTC.Known && prio < len(n.PrioTC.Value) {
			t = snapshot.Fact[int]{Value: n.PrioTC.Value[prio], Known: true, Origin: n.PrioTC.Origin}
		}
		l.add(item{field: "prio_to_tc." + itoa(prio), text: text(t, func(v int) string {
			if v < 0 {
				return "none"
			}
			return itoa(v)
		}), origin: t.Origin, say: fmt.Sprintf("priority %d → tc %%s", prio)})
	}
	for _, pt := range []struct {
		field, what string
		v           []snapshot.Fact[bool]
	}{{"ecn_np", "DCQCN notification point", n.ECNNP}, {"ecn_rp", "DCQCN reaction point", n.ECNRP}} {
		for prio, v := range pt.v {
			it := item{field: pt.field + "." + itoa(prio), text: boolText(v), origin: v.Origin, say: fmt.Sprintf("%s on priority %d %%s", pt.what, prio)}
			if prio == p.RoCE.Priority {
				it.checks, it.bad = []string{"host-ecn"}, v.Known && !v.Value
			}
			l.add(it)
		}
	}
	l.add(item{field: "cnp_dscp", text: intText(n.CNPDSCP), origin: n.CNPDSCP.Origin, say: "CNP DSCP %s",
		checks: []string{"host-cnp"}, bad: n.CNPDSCP.Known && n.CNPDSCP.Value != p.CNP.DSCP})
	l.add(item{field: "cnp_802p_prio", text: intText(n.CNPPrio), origin: n.CNPPrio.Origin, say: "CNP 802.1p priority %s",
		checks: []string{"host-cnp"}, bad: n.CNPPrio.Known && n.CNPPrio.Value != p.CNP.Priority})
	l.add(item{field: "mtu", text: intText(n.MTU), origin: n.MTU.Origin, say: "MTU %s",
		checks: []string{"mtu"}, bad: n.MTU.Known && n.MTU.Value < p.MTU.Host})
	t := n.ToS.Effective
	l.add(item{field: "tos", text: tosText(n.ToS), origin: t.Origin, say: "ToS %s",
		checks: []string{"host-tos"}, bad: t.Known && !r.roceDSCP(model.DSCPOfToS(t.Value))})
	l.add(item{field: "tos.forced_traffic_class", text: unsetText(n.ToS.Forced), origin: n.ToS.Forced.Origin, say: "forced traffic_class %s"})
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
