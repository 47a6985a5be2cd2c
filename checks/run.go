// The runner: one pass of the catalog over a fabric (Run, RunSet,
// RunStatus), each check computed once, after the checks it Requires, and
// the findings merged and sorted.

package checks

import (
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

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

// runState is shared by the checks of a run, which run3 computes side by
// side: each check's findings once (the first to ask computes them, the
// others wait), each corroboration index once.
type runState struct {
	mu    sync.Mutex
	found map[string]*result
	corr  map[string]*corroboration
}

type result struct {
	once sync.Once
	fs   []Finding
}

func newRun(f *model.Fabric) *run {
	return &run{f: f, runState: &runState{found: map[string]*result{}, corr: map[string]*corroboration{}}}
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
	r.mu.Lock()
	res := r.found[c.ID]
	if res == nil {
		res = &result{}
		r.found[c.ID] = res
	}
	r.mu.Unlock()
	// Requires is acyclic (validateRequires), so no two checks wait on each
	// other.
	res.once.Do(func() {
		for _, req := range c.Requires {
			r.as(c).findings(req)
		}
		if c.runIn != nil {
			res.fs = c.runIn(r.as(c))
		} else {
			res.fs = c.Run(r.f)
		}
	})
	return res.fs
}

// computeAll computes the findings of cs side by side, one goroutine per
// processor: each check reads the model only, and the findings are then
// merged in catalog order, so the result is the one computing them in
// order gives.
func (r *run) computeAll(cs []*Check) {
	next := make(chan *Check)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(cs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range next {
				r.findings(c)
			}
		}()
	}
	for _, c := range cs {
		next <- c
	}
	close(next)
	wg.Wait()
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
	once  sync.Once
}

// corroboration is the run's index of the findings of cs.
func (r *run) corroboration(cs ...*Check) *corroboration {
	var ids []string
	for _, c := range cs {
		r.findings(c) // computed, and required, before it is indexed
		ids = append(ids, c.ID)
	}
	key := strings.Join(ids, "\x00")
	r.mu.Lock()
	defer r.mu.Unlock()
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
	c.once.Do(func() {
		c.byKey = map[string][]string{}
		for _, ck := range c.checks {
			for _, fd := range c.r.findings(ck) {
				if fd.Severity == judge.Info {
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
	})
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

// Run runs every check, merges their "not collected" findings into one
// NotCollected finding per device, and returns the findings sorted by device, then
// severity (highest first), check, interface and message.
func Run(f *model.Fabric) []Finding { return RunSet(f, nil) }

// RunSet is Run reporting only the checks of set (nil: every check). A
// check set leaves out still runs when a check in set requires it, but its
// findings, and the inputs it could not judge, are not reported.
func RunSet(f *model.Fabric, set *Set) []Finding {
	out, _ := run3(f, set, false)
	return out
}

// Sort orders findings deterministically.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		switch {
		case a.Device != b.Device:
			return a.Device < b.Device
		case a.Severity != b.Severity:
			return a.Severity > b.Severity
		case a.Check != b.Check:
			return checkIndex(a.Check) < checkIndex(b.Check)
		case a.Interface != b.Interface:
			return model.NaturalLess(a.Interface, b.Interface)
		}
		return a.Message < b.Message
	})
}

// RunStatus is RunSet together with the status of every check of the
// catalog on every device of f, sorted by device then catalog order.
// Findings win over a declared skip: a check that found something on a
// device ran there.
func RunStatus(f *model.Fabric, set *Set) ([]Finding, []Status) { return run3(f, set, true) }

// run3 runs the checks of set; statuses only when asked, as RunSet's
// callers (drift, serve, fix) do not read them.
func run3(f *model.Fabric, set *Set, statuses bool) ([]Finding, []Status) {
	var out, skips []Finding
	r := newRun(f)
	type key struct{ dev, check string }
	found := map[key]bool{}
	skipped := map[key][]Finding{}
	var enabled []*Check
	for _, c := range All() {
		if set.Enabled(c.ID) {
			enabled = append(enabled, c)
		}
	}
	r.computeAll(enabled)
	for _, c := range enabled {
		for _, fd := range r.findings(c) {
			fd.Check = c.ID
			if !osFinding(f, c, &fd) {
				continue
			}
			if fd.skip != nil {
				skips = append(skips, fd)
				skipped[key{fd.Device, c.ID}] = append(skipped[key{fd.Device, c.ID}], fd)
				continue
			}
			found[key{fd.Device, c.ID}] = true
			out = append(out, fd)
		}
	}
	if set.Enabled(NotCollected.ID) {
		out = append(out, mergeNotCollected(skips)...)
	}
	Sort(out)
	if !statuses {
		return out, nil
	}
	// Sized at once: a status per device and check is most of a large
	// fabric's report, and growing it by appends was a tenth of
	// TestLintScale's lint at the size.
	devs, all := fabricDevices(f), All()
	var sts []Status // nil for no device, as before
	if n := len(devs) * len(all); n > 0 {
		sts = make([]Status, 0, n)
	}
	// One text per check, shared by every device it does not apply to.
	notApplicable := make([]string, len(all))
	for i, c := range all {
		notApplicable[i] = fmt.Sprintf("%s judges %s only", c.ID, devicesText(c.Devices))
	}
	shared := newDetails(all)
	for _, d := range devs {
		for ci, c := range all {
			var skip SkipKind
			var reason, note string
			k := key{d.name, c.ID}
			switch {
			case !set.Enabled(c.ID):
				skip, reason = SkipDisabled, "left out by --enable, --disable or the inventory's checks section"
			case found[k]:
				// It judged the device: whatever it also could not read
				// is in the not-collected finding.
			case !c.Devices.Has(d.kind):
				skip, reason = SkipNotApplicable, notApplicable[ci]
			case len(skipped[k]) > 0:
				skip, reason = SkipNotCollected, skipReason(skipped[k])
			default:
				skip, reason = inputsAbsent(f, c, d.name)
				if skip == "" && c.Applies != nil {
					skip, reason = c.Applies(f, d.name)
				}
			}
			if skip == "" {
				note = idleNote(f, c, d.name)
			}
			sts = append(sts, shared.status(d.name, c.ID, skip, reason, note))
		}
	}
	return out, sts
}
