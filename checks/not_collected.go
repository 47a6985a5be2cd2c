package checks

import (
	"github.com/qoslint/qoslint/checks/judge"

	"fmt"
	"slices"
	"sort"
	"strings"
)

// NotCollected documents the one info finding a device gets when inputs
// some checks need were not collected. It is not in All(): it runs no rule
// of its own but gathers what the checks of All() skipped, so that a
// device missing one file gets one finding naming every check the file
// would have fed, not one finding per check.
var NotCollected = &Check{
	ID:       "not-collected",
	Kind:     KindInput,
	Devices:  AllDevices,
	Severity: judge.Info,
	Title:    "Every input the checks need was collected",
	Doc: `A check that lacks its input does not guess: it skips the device (or the NIC) and says so.
qoslint gathers those skips into one info finding per device that lists each missing or
unreadable input and the checks it would have fed, e.g. "mlnx_qos-ens1f0np0.txt not collected:
host-trust (trust), host-dscp-map (dscp2prio), host-pfc (PFC) not checked". Collect the input (see
qoslint help fabric) and run again to have those checks judge the device. --fail-on info
makes a missing input fail the gate.`,
}

// skip is what one check could not judge on a device for want of inputs.
type skip struct {
	missing []string // each input, "mlnx_qos-eth0.txt not collected"
	what    string   // what the check would have judged, "trust"
}

// notCollected is the finding a check gives once per device when inputs it
// needs are missing; Run merges these into one NotCollected finding per
// device.
func notCollected(device string, missing []string, what string) Finding {
	return Finding{
		Severity: judge.Info,
		Device:   device,
		Message:  fmt.Sprintf("%s: %s not checked", strings.Join(missing, ", "), what),
		Actual:   "not collected",
		skip:     &skip{missing: missing, what: what},
	}
}

// mergeNotCollected turns the skips of every check into one finding per
// device: for each missing input (in first-seen order), the checks it
// would have fed.
func mergeNotCollected(skips []Finding) []Finding {
	type entry struct {
		order  []string
		checks map[string][]string
	}
	byDev := map[string]*entry{}
	var devs []string
	for _, f := range skips {
		e := byDev[f.Device]
		if e == nil {
			e = &entry{checks: map[string][]string{}}
			byDev[f.Device] = e
			devs = append(devs, f.Device)
		}
		for _, m := range f.skip.missing {
			if _, ok := e.checks[m]; !ok {
				e.order = append(e.order, m)
			}
			if c := fmt.Sprintf("%s (%s)", f.Check, f.skip.what); !slices.Contains(e.checks[m], c) {
				e.checks[m] = append(e.checks[m], c)
			}
		}
	}
	sort.Strings(devs)
	out := make([]Finding, 0, len(devs))
	for _, d := range devs {
		e := byDev[d]
		parts := make([]string, len(e.order))
		for i, m := range e.order {
			parts[i] = m + ": " + strings.Join(e.checks[m], ", ") + " not checked"
		}
		out = append(out, Finding{
			Check: NotCollected.ID, Severity: judge.Info, Device: d,
			Message: strings.Join(parts, "; "),
			Actual:  "not collected",
		})
	}
	return out
}
