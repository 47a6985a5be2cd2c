package checks

import (
	"fmt"
	"time"

	"github.com/qoslint/qoslint/model"
)

// Evidence checks read counters: what the devices actually did since their
// driver loaded or their counters were cleared or, when two samples were
// taken, during the interval between them (model NICCounters.Delta). They are silent when no
// counters were collected, so a configuration-only fabric directory lints
// as before, and they never carry a fix of their own: the configuration
// finding they corroborate carries it.

// countersOf calls fn for every NIC whose counters were collected.
func countersOf(f *model.Fabric, fn func(h *model.Host, n *model.NIC, c *model.NICCounters)) {
	for _, h := range f.Hosts {
		for _, n := range h.NICs {
			if n.Counters != nil {
				fn(h, n, n.Counters)
			}
		}
	}
}

// bytesText prints a byte count the way people read counters.
func bytesText(v uint64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	f, u := float64(v), 0
	for f >= 1024 && u < len(units)-1 {
		f /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%d B", v)
	}
	return fmt.Sprintf("%.1f %s", f, units[u])
}

// window is the message prefix naming the span the counters cover: ""
// for cumulative counters, whose span is unknown.
func window(delta bool, iv time.Duration) string {
	if !delta || iv <= 0 {
		return ""
	}
	return "in the last " + iv.String() + ": "
}

// perSecond is v over the interval, for counters that are deltas.
func perSecond(v uint64, iv time.Duration) float64 { return float64(v) / iv.Seconds() }

// rateText is " (N/s)" for a delta counter, "" for a cumulative one.
func rateText(delta bool, v uint64, iv time.Duration) string {
	if !delta || iv <= 0 {
		return ""
	}
	return fmt.Sprintf(" (%.1f/s)", perSecond(v, iv))
}
