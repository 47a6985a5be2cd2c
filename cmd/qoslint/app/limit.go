package app

import (
	"path"
	"slices"
	"strings"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/waivers"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/render"
)

// --limit restricts a run to some devices (inventory.Limit). The other
// devices stay in the model, so the link checks of a limited device judge
// both ends with whatever was read of the other end: lint reads the whole
// fabric directory, so a limited lint judges leaf01's links exactly as a
// full lint does; audit and collect dial only the limited devices, so a
// link to a device outside the limit is judged as a link to a device that
// was not collected (as after a failed login). Only the limited devices'
// findings, input errors and notes are reported: skipping the links that
// leave the limit instead would hide a mismatch the limited device itself
// must be fixed for, and reporting the other end's findings would check
// more than was asked.

// parseLimit is inventory.ParseLimit, nil for no --limit.
func parseLimit(inv *inventory.Inventory, pattern string) (*inventory.Limit, error) {
	if pattern == "" {
		return nil, nil
	}
	return inventory.ParseLimit(inv, pattern)
}

// limitWaivers keeps the waivers that can apply in a limited run: those
// whose device glob matches a limited device, and the expired ones, which
// are reported whatever the run. A waiver of devices outside the limit is
// not unused, only not needed this time (as selectChecks' waivers are).
func limitWaivers(wf *waivers.File, lim *inventory.Limit) *waivers.File {
	if wf == nil || lim == nil {
		return wf
	}
	kept := *wf
	kept.Waivers = nil
	for _, w := range wf.Waivers {
		if w.Expired(now()) || slices.ContainsFunc(lim.Names(), func(n string) bool {
			ok, err := path.Match(w.Device, n)
			return err == nil && ok
		}) {
			kept.Waivers = append(kept.Waivers, w)
		}
	}
	return &kept
}

// limitReport drops what the report says of inventory devices outside the
// limit and notes the limit. Fabric-wide input errors and findings of
// names that are no inventory device (the waiver file, a Kubernetes
// manifest no host is mapped to) are kept: they are about the input, not
// about a device left out.
//
// live says the devices outside the limit were not collected (audit), so
// their links cannot be judged; lint read them.
func limitReport(r *render.Report, lim *inventory.Limit, live bool) {
	if lim == nil {
		return
	}
	r.Findings = slices.DeleteFunc(r.Findings, func(f checks.Finding) bool { return lim.Excludes(f.Device) })
	r.Errors = slices.DeleteFunc(r.Errors, func(e *source.Error) bool { return lim.Excludes(e.Device) })
	r.Devices = slices.DeleteFunc(r.Devices, func(d render.Device) bool { return lim.Excludes(d.Name) })
	r.NotAudited = slices.DeleteFunc(r.NotAudited, lim.Excludes)
	// Notes are "device: text" (source.Error.Error, noteTexts).
	r.Notes = slices.DeleteFunc(r.Notes, func(n string) bool {
		dev, _, ok := strings.Cut(n, ": ")
		return ok && lim.Excludes(dev)
	})
	links := "; links to them are judged with what the fabric directory holds of them"
	if live {
		links = "; they were not collected, so links to them are not judged"
	}
	r.Notes = append(r.Notes, lim.Note()+links)
	r.Normalize()
}
