package offline

import (
	"github.com/qoslint/qoslint/collectors/capture"
	"github.com/qoslint/qoslint/inventory"
)

// verifyCapture checks a capture's manifest (.qoslint/capture.json, which
// `qoslint collect` writes) before anything is read: each device it marks
// failed or partial, and each file changed, missing or added since the
// collection, is an input error, so that a lint that passes on a capture
// means every device was read completely and judged as collected. It
// returns the devices not to check (failed or partial), which are reported
// once with their cause, as audit reports them. A fabric directory
// without a manifest (a config repo) gets nothing.
func (r *reader) verifyCapture(inv *inventory.Inventory) map[string]bool {
	var names []string
	for _, s := range inv.Switches {
		names = append(names, s.Name)
	}
	for _, h := range inv.Hosts {
		names = append(names, h.Name)
	}
	v := capture.Verify(r.fsys, names)
	r.capture.Errors = append(r.capture.Errors, v.Errors...)
	return v.Skip
}
