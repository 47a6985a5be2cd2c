package render

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/checks"
)

// verdict is the report's outcome as the text format words it: input
// errors first, because a report with unread input is not a pass whatever
// its findings say.
func verdict(r *Report) (word, detail string) {
	switch {
	case len(r.Errors) > 0:
		return "INCOMPLETE", incompleteDetail(r)
	case r.ReportOnly:
		c := r.Counts()
		return "REPORT ONLY", fmt.Sprintf("%s, %s, %d info (--fail-on none)",
			counted(c.Error, "error"), counted(c.Warning, "warning"), c.Info)
	case r.Failed():
		return "FAIL", fmt.Sprintf("findings at or above %s", r.FailOn)
	}
	return "PASS", fmt.Sprintf("no findings at or above %s", r.FailOn)
}

// incompleteDetail says what to do about an incomplete report. Devices a
// live audit could not reach are a matter of the network, credentials or
// host keys (each error names its cause), never of the input files.
func incompleteDetail(r *Report) string {
	var parts []string
	if n := len(r.NotAudited); n > 0 {
		parts = append(parts, fmt.Sprintf("%s not audited (%s): check the network, credentials and host keys named above and run again",
			counted(n, "device"), strings.Join(r.NotAudited, ", ")))
	}
	switch n := len(r.Errors) - len(r.NotAudited); {
	case len(parts) == 0:
		parts = append(parts, "fix the input and run again")
	case n > 0:
		parts = append(parts, counted(n, "input error")+": fix the input and run again")
	}
	return strings.Join(parts, "; ")
}

// summary is the one-line tally the text format starts with, without the
// fabric name.
func summary(r *Report) string {
	c := r.Counts()
	s := fmt.Sprintf("%s, %s (%s, %s, %d info",
		counted(len(r.Devices), "device"), counted(len(r.Findings), "finding"),
		counted(c.Error, "error"), counted(c.Warning, "warning"), c.Info)
	// Waived findings are counted apart from the severities, which count
	// what the gate judges.
	if n := r.Waived(); n > 0 {
		s += fmt.Sprintf(", %d waived", n)
	}
	s += ")"
	if len(r.Errors) > 0 {
		s += ", " + counted(len(r.Errors), "input error")
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
