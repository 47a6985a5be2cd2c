package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var evidenceLosslessDrops = inRun(&Check{
	ID:       "evidence-lossless-drops",
	Kind:     KindEvidence,
	Devices:  Switches,
	Applies:  appliesSwitchCounters,
	Severity: judge.Error,
	Title:    "No switch drops packets in the lossless (RoCE) queue",
	Doc: `Runtime evidence from the switches' gNMI counters (devices/<switch>/gnmi-counters.json): the
queue that carries the RoCE priority (the traffic class the port maps it to) must never drop, since
PFC should pause the sender before the buffer overflows. Drops there mean PFC is not on for the
priority on this switch or its neighbour, the headroom is too small for the cable, or the traffic
is not the RoCE priority at all. The finding names the configuration finding on the same switch and
port it corroborates (switch-pfc, switch-queue-map, switch-dscp-map). With two samples
(--interval, or gnmi-counters.before.json) only drops during the interval count, with their rate.
A switch without collected counters is skipped silently: counters are optional evidence, not configuration.`,
	Inputs:   []Input{GNMICounters},
	Requires: []*Check{switchPFC, switchQueueMap, switchDSCPMap},
}, runEvidenceLosslessDrops)

func runEvidenceLosslessDrops(r *run) []Finding {
	return withSwitchCounters(r, losslessDrops)
}

func losslessDrops(r *run, sw *model.Switch, sc *model.SwitchCounters) []Finding {
	want := r.f.Policy.RoCE.Priority
	corr := r.corroboration(switchPFC, switchQueueMap, switchDSCPMap)
	ev := eachQueue(sw, sc, func(port string, q *model.QoS, pc *model.SwitchPortCounters) []queueEvidence {
		tc := q.TC[want].V
		if tc < 0 || tc > 7 || !pc.Drops[tc].Known || pc.Drops[tc].V == 0 {
			return nil
		}
		return []queueEvidence{{port: port, tc: tc, value: pc.Drops[tc].V, pos: pc.Drops[tc].Origin.Pos(), roce: tc}}
	})
	var out []Finding
	for _, e := range ev {
		out = append(out, Finding{
			Severity: judge.Error, Device: sw.Name, Interface: e.port,
			Message: window(sc.Delta, sc.Interval) +
				fmt.Sprintf("the lossless queue %d (switch-priority %d) dropped %d packets%s", e.tc, want, e.value, rateText(sc.Delta, e.value, sc.Interval)) +
				corr.explain(sw.Name, e.port, "port"),
			Expected: fmt.Sprintf("no drops in traffic class %d", e.tc),
			Actual:   fmt.Sprintf("%d dropped", e.value),
			Source:   e.pos,
		})
	}
	return out
}
