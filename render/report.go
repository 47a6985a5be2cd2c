package render

import (
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/english"
	"github.com/qoslint/qoslint/internal/source"
)

// Device is one device of the report.
type Device struct {
	Name string `json:"name"`
	Kind string `json:"kind"` // "switch" or "host"
	// Release is a switch's Cumulus Linux release, which decides the NVUE
	// commands its fixes may hold (the zero Release: not known).
	Release Release `json:"-"`
	// OS is a switch's operating system, layout.OSCumulus or OSSONiC; ""
	// when its configuration was not read.
	OS string `json:"-"`
	// Primary is the file (and line) a result about the device that names
	// no file, or only the device's folder, points at: a switch's NVUE
	// configuration, else the first of its files that was read, else the
	// inventory entry that declares the device. The zero Pos: none known.
	Primary source.Pos `json:"-"`
}

// Report is everything a formatter prints.
type Report struct {
	Fabric   string
	Devices  []Device
	Findings []checks.Finding
	// Errors are input problems: files that could not be read or parsed.
	Errors []*source.Error
	// NotJudged is a run that stopped before the model: the inventory (or
	// what has to be read before it, such as the waiver file) could not be
	// read, so Errors say why and nothing of the fabric was checked.
	NotJudged bool
	// Notes are remarks on how the data was obtained (host keys not
	// verified, outputs a live device did not give).
	Notes  []string
	FailOn judge.Severity
	// Plans, when set (--fix), are each device's grouped fix and rollback.
	Plans []Plan
	// Chain, when set, is the RoCE marking chain of the fabric; only the
	// html format draws it.
	Chain *MarkingChain
	// Topology, when set, is the fabric's LLDP cabling; only the html
	// format draws it, coloured by the topology checks' findings.
	Topology *Topology
	// Wire, when set, is what the packet captures showed; the html format
	// draws it (per-flow tables, DSCP and ECN histograms), the json format
	// writes its per-flow summaries.
	Wire *Wire
	// Waivers is the waiver file that was applied, "" for none. Findings
	// it covers are marked Waived; its own findings (check "waiver") have
	// the device waivers.Device.
	Waivers string
	// Run, when set, is when the run started and how long it took (the
	// prometheus format's timestamp and duration, the junit format's
	// timestamp and times).
	Run *RunInfo
	// Host is the name of the machine the run was made on (the junit
	// format's hostname); the caller sets it, so that a report rendered
	// in a test does not depend on the machine.
	Host string
	// ReportOnly is --fail-on none: findings never fail the run, so the
	// verdict reports them instead of passing or failing.
	ReportOnly bool
	// Color lets the text format colour severities and verdicts with ANSI
	// escapes; the caller sets it only for a terminal.
	Color bool
	// NotAudited are the devices of Errors that a live audit could not
	// collect (network, credentials, host keys, timeouts): the verdict
	// points at those causes, not at the input files.
	NotAudited []string
	// PathPrefix is the fabric directory's path below the repository root
	// (slash-separated, "" when they are the same or no repository is
	// known): the sarif format puts it before every fabric-relative path,
	// so that code scanning finds the files in the repository.
	PathPrefix string
	// Statuses, when set, say for every device × check whether the check
	// ran or why it did not (checks.RunStatus): a formatter shows a check
	// that did not run as skipped, never as passed.
	Statuses []checks.Status
}

// Counts tallies findings by severity.
type Counts struct {
	Error   int `json:"error"`
	Warning int `json:"warning"`
	Info    int `json:"info"`
}

// Counts tallies the report's findings that are not waived; Waived
// counts the others.
func (r *Report) Counts() Counts {
	var c Counts
	for _, f := range r.Findings {
		if f.Waived {
			continue
		}
		switch f.Severity {
		case judge.Error:
			c.Error++
		case judge.Warning:
			c.Warning++
		default:
			c.Info++
		}
	}
	return c
}

// Waived counts the waived findings.
func (r *Report) Waived() int {
	n := 0
	for _, f := range r.Findings {
		if f.Waived {
			n++
		}
	}
	return n
}

// Failed reports whether any finding that is not waived is at or above
// FailOn.
func (r *Report) Failed() bool {
	if r.ReportOnly {
		return false
	}
	for _, f := range r.Findings {
		if !f.Waived && f.Severity >= r.FailOn {
			return true
		}
	}
	return false
}

// inputErrorsNote says what input errors meant for the rest of the run.
func (r *Report) inputErrorsNote() string {
	if r.NotJudged {
		return "nothing was checked: qoslint stops when the inventory, or what it reads before the devices, cannot be read"
	}
	return "the rest of the fabric was still checked"
}

// fabricName is the fabric's name as the headings print it.
func (r *Report) fabricName() string {
	if r.Fabric == "" && r.NotJudged {
		return "(inventory not read)"
	}
	return r.Fabric
}

// FailOnName is --fail-on as given: a severity, or "none" for a
// report-only run.
func (r *Report) FailOnName() string {
	if r.ReportOnly {
		return "none"
	}
	return r.FailOn.String()
}

// FindingCommands renders a finding's fix and rollback for its device's
// release: an NVUE command the release lacks is a comment line instead.
func (r *Report) FindingCommands(f checks.Finding) (fix, rollback []string) {
	return findingCommands(r.release(f.Device), f)
}

// release is the release of the report's device name.
func (r *Report) release(name string) Release {
	for _, d := range r.Devices {
		if d.Name == name {
			return d.Release
		}
	}
	return Release{}
}

// Normalize sorts everything a formatter prints, so output is stable.
func (r *Report) Normalize() {
	sort.Slice(r.Devices, func(i, j int) bool { return r.Devices[i].Name < r.Devices[j].Name })
	checks.Sort(r.Findings)
	slices.SortStableFunc(r.Errors, source.Compare)
}

// Sections are the groups a formatter prints findings in: the inventory's
// devices, then (sorted by name, kind "") any other device a finding names,
// such as waivers.Device for the waiver file's own findings, so that no
// finding goes unprinted.
func (r *Report) Sections() []Device {
	out := append([]Device(nil), r.Devices...)
	known := map[string]bool{}
	for _, d := range r.Devices {
		known[d.Name] = true
	}
	for _, name := range r.unlisted(known, func(f *checks.Finding) string { return f.Device }) {
		out = append(out, Device{Name: name})
	}
	return out
}

// unlisted are the values of key over the findings that known lacks,
// sorted, each once.
func (r *Report) unlisted(known map[string]bool, key func(*checks.Finding) string) []string {
	seen := map[string]bool{}
	var out []string
	for i := range r.Findings {
		if k := key(&r.Findings[i]); !known[k] && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// Formatter writes a report in one format.
type Formatter func(w io.Writer, r *Report) error

// Formatters are the output formats, by --format name.
func Formatters() map[string]Formatter {
	return map[string]Formatter{
		"text": Text, "json": JSON, "markdown": Markdown, "junit": JUnit, "sarif": SARIF,
		"html":       HTML,
		"prometheus": Prometheus,
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

// counted is "1 word" or "n words".
func counted(n int, word string) string {
	return strconv.Itoa(n) + " " + english.Plural(n, word, word+"s")
}

// sentence is s capitalised, with a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}
