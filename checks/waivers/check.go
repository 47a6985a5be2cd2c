package waivers

import (
	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
)

// Check documents the findings of the waiver file itself. It is not in
// checks.All(), which is the fabric's rule catalog: it runs on no fabric,
// only on the waiver file, and no waiver can waive it. `qoslint explain
// waiver` prints it, and reports list it as a rule.
var Check = &checks.Check{
	ID:       "waiver",
	Kind:     checks.KindInput,
	Severity: judge.Warning,
	Title:    "Every waiver in qoslint-waivers.yaml is current and still needed",
	Doc: `A waiver accepts a finding the CI gate would otherwise fail on: it names the check, a
device glob and optionally an interface glob, says why (a ticket, an owner), and may expire
(expires: YYYY-MM-DD, valid through that day). Waived findings are still reported, marked with
the reason, and do not count against --fail-on. A waiver that has expired waives nothing and is
reported, so that the accepted risk is looked at again rather than forgotten; a waiver that matches
no finding is reported too, because the fault it covered is fixed or the waiver names the wrong
device, and a stale waiver would silently hide the fault if it came back. Both are warnings: they
fail the gate only with --fail-on warning.`,
}
