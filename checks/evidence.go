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

// run is one pass of the checks over a fabric (checks.Run, or one check's
// Run alone), as seen by one check (cur; nil for the runner). It keeps each
// check's findings and each corroboration index: an evidence finding names
// the configuration findings it corroborates, and computing those once per
// switch or NIC made a fabric's checks quadratic in its size. This is
// staticcheck's Pass.ResultOf: a check reads only the checks it Requires.
type run struct {
	f   *model.Fabric
	cur *Check
	*runState
}

type runState struct {
	found map[string][]Finding
	corr  map[string]*corroboration
}

func newRun(f *model.Fabric) *run {
	return &run{f: f, runState: &runState{found: map[string][]Finding{}, corr: map[string]*corroboration{}}}
}

// as is the run seen by check c.
func (r *run) as(c *Check) *run { return &run{f: r.f, cur: c, runState: r.runState} }

// findings are c's findings in this run, computed on first use after the
// checks c requires. A check may read only the findings of checks it
// declares in Requires: reading another is a bug in the catalog, which
// every test of the check would hit.
func (r *run) findings(c *Check) []Finding {
	if r.cur != nil && !slices.Contains(r.cur.Requires, c) {
		panic(fmt.Sprintf("check %s reads the findings of %s, which its Requires does not list", r.cur.ID, c.ID))
	}
	if fs, ok := r.found[c.ID]; ok {
		return fs
	}
	for _, req := range c.Requires {
		r.as(c).findings(req)
	}
	var fs []Finding
	if c.runIn != nil {
		fs = c.runIn(r.as(c))
	} else {
		fs = c.Run(r.f)
	}
	r.found[c.ID] = fs
	return fs
}

// inRun sets c's Run to fn in a run of its own, and lets checks.Run call
// fn in the run it shares with every other check.
func inRun(c *Check, fn func(*run) []Finding) *Check {
	c.runIn = fn
	c.Run = func(f *model.Fabric) []Finding { return fn(newRun(f).as(c)) }
	return c
}

// corroboration indexes the configuration findings of some checks by
// device and interface, built once per run on first use.
type corroboration struct {
	r      *run
	checks []*Check
	// byKey maps "device\x00iface" (iface "" for device-wide findings) to
	// the IDs of the checks that found something there, in catalog order.
	byKey map[string][]string
}

// corroboration is the run's index of the findings of cs.
func (r *run) corroboration(cs ...*Check) *corroboration {
	var ids []string
	for _, c := range cs {
		r.findings(c) // computed, and required, before it is indexed
		ids = append(ids, c.ID)
	}
	key := strings.Join(ids, "\x00")
	c, ok := r.corr[key]
	if !ok {
		c = &corroboration{r: r, checks: cs}
		r.corr[key] = c
	}
	return c
}

// explain is the message tail naming the configuration findings at iface of
// device that the evidence corroborates.
func (c *corroboration) explain(device, iface, what string) string {
	if c.byKey == nil {
		c.byKey = map[string][]string{}
		for _, ck := range c.checks {
			for _, fd := range c.r.findings(ck) {
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
