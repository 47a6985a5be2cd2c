package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var evidenceECNQueue = inRun(&Check{
	ID:       "evidence-ecn-queue",
	Kind:     KindEvidence,
	Devices:  Switches,
	Applies:  appliesSwitchCounters,
	Severity: judge.Warning,
	Title:    "Switches ECN-mark RoCE in the RoCE queue, not in another one, and before they pause",
	Doc: `Runtime evidence from the switches' gNMI counters (devices/<switch>/gnmi-counters.json): DCQCN
works when the queue that carries RoCE marks ECN under congestion and the receiving NICs answer
with CNPs. ECN marks counted on a queue other than the port's RoCE traffic class mean RoCE (or
something that pretends to be RoCE) is queued and marked elsewhere, typically because its DSCP or
switch-priority mapping is wrong or ECN sits on the default queue 0. The other half: a RoCE
priority that saw pause frames while its queue marked nothing means ECN is off (or its thresholds
sit above PFC's) and PFC alone brakes RoCE, spreading congestion. The finding names the
configuration finding on the same switch and port it corroborates (switch-ecn, switch-queue-map,
switch-dscp-map). With two samples (--interval, or gnmi-counters.before.json) only marks during
the interval count, with their rate. A switch without collected counters is skipped silently: counters are optional
evidence, not configuration.`,
	Inputs:   []Input{GNMICounters},
	Requires: []*Check{switchECN, switchQueueMap, switchDSCPMap},
}, runEvidenceECNQueue)

func runEvidenceECNQueue(r *run) []Finding {
	return withSwitchCounters(r, ecnQueue)
}

func ecnQueue(r *run, sw *model.Switch, sc *model.SwitchCounters) []Finding {
	want := r.f.Policy.RoCE.Priority
	corr := r.corroboration(switchECN, switchQueueMap, switchDSCPMap)
	ev := eachQueue(sw, sc, func(port string, q *model.QoS, pc *model.SwitchPortCounters) []queueEvidence {
		roce := q.TC[want].V
		var out []queueEvidence
		for tc, m := range pc.ECNMarked {
			if tc != roce && m.Known && m.V > 0 {
				out = append(out, queueEvidence{port: port, tc: tc, value: m.V, pos: m.Origin.Pos(), roce: roce})
			}
		}
		return out
	})
	var out []Finding
	for _, e := range ev {
		out = append(out, Finding{
			Severity: judge.Warning, Device: sw.Name, Interface: e.port,
			Message: window(sc.Delta, sc.Interval) +
				fmt.Sprintf("queue %d ECN-marked %d packets%s, but RoCE (switch-priority %d) uses queue %d", e.tc, e.value, rateText(sc.Delta, e.value, sc.Interval), want, e.roce) +
				corr.explain(sw.Name, e.port, "port"),
			Expected: fmt.Sprintf("ECN marks only in traffic class %d", e.roce),
			Actual:   fmt.Sprintf("%d marked in traffic class %d", e.value, e.tc),
			Source:   e.pos,
		})
	}
	// The other half: the RoCE queue paused but was never marked, so DCQCN
	// never told a sender to slow down and PFC alone brakes the fabric.
	silent := eachQueue(sw, sc, func(port string, q *model.QoS, pc *model.SwitchPortCounters) []queueEvidence {
		roce := q.TC[want].V
		m := pc.ECNMarked[roce]
		rx, tx := pc.Prio[want].RxPause, pc.Prio[want].TxPause
		if !m.Known || m.V != 0 || !rx.Known && !tx.Known || rx.V+tx.V == 0 {
			return nil
		}
		pos := rx.Origin.Pos()
		if pos.IsZero() {
			pos = tx.Origin.Pos()
		}
		return []queueEvidence{{port: port, tc: roce, value: rx.V + tx.V, pos: pos, roce: roce}}
	})
	for _, e := range silent {
		out = append(out, Finding{
			Severity: judge.Warning, Device: sw.Name, Interface: e.port,
			Message: window(sc.Delta, sc.Interval) +
				fmt.Sprintf("switch-priority %d saw %d pause frames%s but its queue %d marked no ECN: DCQCN never slowed the senders, PFC alone brakes RoCE",
					want, e.value, rateText(sc.Delta, e.value, sc.Interval), e.tc) +
				corr.explain(sw.Name, e.port, "port"),
			Expected: fmt.Sprintf("ECN marks in traffic class %d while it is paused", e.tc),
			Actual:   fmt.Sprintf("%d pause frames, 0 marked", e.value),
			Source:   e.pos,
		})
	}
	return out
}
