package checks

import (
	"sort"

	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// switchCounters returns a switch's gNMI counters
// (devices/<switch>/gnmi-counters.json); nil when not collected.
func switchCounters(sw *model.Switch) *model.SwitchCounters { return sw.Counters }

// withSwitchCounters runs a switch evidence check on every switch whose
// counters were collected; the others are skipped silently.
func withSwitchCounters(r *run, check func(*run, *model.Switch, *model.SwitchCounters) []Finding) []Finding {
	var out []Finding
	for _, sw := range r.f.ConfiguredSwitches() {
		if sc := switchCounters(sw); sc != nil {
			out = append(out, check(r, sw, sc)...)
		}
	}
	return out
}

// queueEvidence is one switch port whose per-queue counters show something.
type queueEvidence struct {
	port  string
	tc    int // the queue that counted it
	value uint64
	pos   source.Pos
	roce  int // the port's RoCE traffic class
}

// eachQueue calls pick for every port of sw that has counters, with the
// port's effective QoS, and returns what it picked in port order.
func eachQueue(sw *model.Switch, sc *model.SwitchCounters, pick func(port string, q *model.QoS, pc *model.SwitchPortCounters) []queueEvidence) []queueEvidence {
	ports := make([]string, 0, len(sc.Ports))
	for p := range sc.Ports {
		ports = append(ports, p)
	}
	sort.Slice(ports, func(i, j int) bool { return model.NaturalLess(ports[i], ports[j]) })
	var out []queueEvidence
	for _, p := range ports {
		q := sw.PortQoS.At(p)
		if q == nil {
			q = sw.Global
		}
		if q == nil {
			continue
		}
		out = append(out, pick(p, q, sc.Ports[p])...)
	}
	return out
}
