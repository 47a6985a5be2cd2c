package render

import (
	"fmt"
	"io"
	"sort"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/collectors/source"
)

// Device is one device of the report.
type Device struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // "switch" or "host"
}

// Report is everything a formatter prints.
type Report struct {
	Fabric   string
	Devices  []Device
	Findings []checks.Finding
	// Errors are input problems: files that could not be read or parsed.
	Errors []*source.Error
	// Notes are remarks on how the data was obtained (host keys not
	// verified, outputs a live device did not give).
	Notes  []string
	FailOn checks.Severity
	// Plans, when set (--fix), are each device's grouped fix and rollback.
	Plans []Plan
}

// Counts tallies findings by severity.
type Counts struct {
	Error   int `json:"error"`
	Warning int `json:"warning"`
	Info    int `json:"info"`
}

// Counts tallies the report's findings.
func (r *Report) Counts() Counts {
	var c Counts
	for _, f := range r.Findings {
		switch f.Severity {
		case checks.Error:
			c.Error++
		case checks.Warning:
			c.Warning++
		default:
			c.Info++
		}
	}
	return c
}

// Failed reports whether any finding is at or above FailOn.
func (r *Report) Failed() bool {
	for _, f := range r.Findings {
		if f.Severity >= r.FailOn {
			return true
		}
	}
	return false
}

// Normalize sorts everything a formatter prints, so output is stable.
func (r *Report) Normalize() {
	sort.Slice(r.Devices, func(i, j int) bool { return r.Devices[i].Name < r.Devices[j].Name })
	checks.Sort(r.Findings)
	sort.SliceStable(r.Errors, func(i, j int) bool {
		a, b := r.Errors[i], r.Errors[j]
		switch {
		case a.Device != b.Device:
			return a.Device < b.Device
		case a.File != b.File:
			return a.File < b.File
		case a.Line != b.Line:
			return a.Line < b.Line
		}
		return a.Msg < b.Msg
	})
}

// Formatter writes a report in one format.
type Formatter func(w io.Writer, r *Report) error

// Formatters are the output formats, by --format name.
func Formatters() map[string]Formatter {
	return map[string]Formatter{
		"text": Text, "json": JSON, "markdown": Markdown, "junit": JUnit, "sarif": SARIF,
	}
}

// FormatNames lists the formats for help texts.
func FormatNames() []string {
	names := make([]string, 0, len(Formatters()))
	for n := range Formatters() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
