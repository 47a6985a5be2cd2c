package render

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/checks"
)

// statuses indexes the report's skips by device and check.
type statuses map[[2]string]checks.Status

// statusIndex holds only the checks that did not run: all that skipped
// asks, and a small part of a large fabric's statuses (a map of all of
// them was the largest thing a JUnit report of TestLintScale's fabric
// built).
func (r *Report) statusIndex() statuses {
	idx := statuses{}
	for _, s := range r.Statuses {
		if !s.Ran() {
			idx[[2]string{s.Device, s.Check()}] = s
		}
	}
	return idx
}

// skipped is the skip of check on device, nil when it ran or the report
// has no status for it.
func (idx statuses) skipped(device, check string) *checks.Status {
	if s, ok := idx[[2]string{device, check}]; ok && !s.Ran() {
		return &s
	}
	return nil
}

// Skipped are the statuses of the checks that did not run on a device
// of their kind (a switch check is never listed for a host), in device
// then catalog order.
func (r *Report) Skipped() []checks.Status {
	kind := map[string]string{}
	for _, d := range r.Devices {
		kind[d.Name] = d.Kind
	}
	var out []checks.Status
	for _, s := range r.Statuses {
		c := checks.Lookup(s.Check())
		if k, ok := kind[s.Device]; ok && !s.Ran() && c != nil && c.Devices.Has(k) {
			out = append(out, s)
		}
	}
	return out
}

// skippedLine is the one line the text and markdown formats give the
// skipped checks: how many, by kind of skip; "" when none.
func skippedLine(r *Report) string {
	sk := r.Skipped()
	if len(sk) == 0 {
		return ""
	}
	n := map[checks.SkipKind]int{}
	for _, s := range sk {
		n[s.Skip()]++
	}
	var parts []string
	for _, k := range []checks.SkipKind{checks.SkipNotCollected, checks.SkipNotApplicable, checks.SkipDisabled} {
		if n[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[k], k))
		}
	}
	return fmt.Sprintf("skipped: %s did not run (%s); the json, junit and html formats give each reason",
		counted(len(sk), "device × check pair"), strings.Join(parts, ", "))
}
