package render

import (
	"fmt"

	"github.com/qoslint/qoslint/checks"
)

// verdict is the report's outcome as the text format words it: input
// errors first, because a report with unread input is not a pass whatever
// its findings say.
func verdict(r *Report) (word, detail string) {
	switch {
	case len(r.Errors) > 0:
		return "INCOMPLETE", "fix the input and run again"
	case r.Failed():
		return "FAIL", fmt.Sprintf("findings at or above %s", r.FailOn)
	}
	return "PASS", fmt.Sprintf("no findings at or above %s", r.FailOn)
}

// summary is the one-line tally the text format starts with, without the
// fabric name.
func summary(r *Report) string {
	c := r.Counts()
	s := fmt.Sprintf("%s, %s (%s, %s, %d info",
		plural(len(r.Devices), "device"), plural(len(r.Findings), "finding"),
		plural(c.Error, "error"), plural(c.Warning, "warning"), c.Info)
	// Waived findings are counted apart from the severities, which count
	// what the gate judges.
	if n := r.Waived(); n > 0 {
		s += fmt.Sprintf(", %d waived", n)
	}
	s += ")"
	if len(r.Errors) > 0 {
		s += ", " + plural(len(r.Errors), "input error")
	}
	return s
}

// findingsByDevice groups the (already sorted) findings by device.
func findingsByDevice(r *Report) map[string][]checks.Finding {
	by := map[string][]checks.Finding{}
	for _, f := range r.Findings {
		by[f.Device] = append(by[f.Device], f)
	}
	return by
}
