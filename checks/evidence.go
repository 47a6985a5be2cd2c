package checks

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/qoslint/qoslint/model"
)

// Evidence checks read counters: what the devices actually did since their
// driver loaded or their counters were cleared or, when two samples were
// taken, during the interval between them (model NICCounters.Delta). They are silent when no
// counters were collected, so a configuration-only fabric directory lints
// as before, and they never carry a fix of their own: the configuration
// finding they corroborate carries it.

// corroboration indexes the configuration findings of some checks by
// device and interface, computed once per evidence run.
type corroboration struct {
	f      *model.Fabric
	checks []*Check
	// byKey maps "device\x00iface" (iface "" for device-wide findings) to
	// the IDs of the checks that found something there, in catalog order.
	byKey map[string][]string
}

func newCorroboration(f *model.Fabric, cs ...*Check) *corroboration {
	return &corroboration{f: f, checks: cs}
}

// explain is the message tail naming the configuration findings at iface of
// device that the evidence corroborates.
func (c *corroboration) explain(device, iface, what string) string {
	if c.byKey == nil {
		c.byKey = map[string][]string{}
		for _, ck := range c.checks {
			for _, fd := range ck.Run(c.f) {
				if fd.Severity == Info {
					continue // "not collected" explains nothing
				}
				ifaces := []string{""}
				if fd.Interface != "" {
					// Switch findings name port ranges (swp1-4,swp6).
					var err error
					if ifaces, err = model.ExpandNames(fd.Interface); err != nil {
						ifaces = strings.Split(fd.Interface, ",")
					}
				}
				for _, i := range ifaces {
					k := fd.Device + "\x00" + i
					if !slices.Contains(c.byKey[k], ck.ID) {
						c.byKey[k] = append(c.byKey[k], ck.ID)
					}
				}
			}
		}
	}
	var ids []string
	for _, id := range append(append([]string(nil), c.byKey[device+"\x00"+iface]...), c.byKey[device+"\x00"]...) {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return "; no configuration finding on this " + what + " explains it"
	}
	return fmt.Sprintf("; corroborates %s on this %s", strings.Join(ids, ", "), what)
}

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
