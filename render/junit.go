package render

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/waivers"
	"github.com/qoslint/qoslint/internal/source"
)

// JUnit test names are the CI dashboard's identity of a result: GitLab
// collapses repeated names, which made ANTA's first JUnit output "look
// correct but be wrong" (aristanetworks/anta PR #1237, #1719). So every
// device gets the same fixed set of testcases, one per check of the catalog
// plus "input", named by check ID, never by message or interface.
const (
	junitInputTest = "input"
	// junitFabricSuite holds input errors of no device and the waiver
	// file's findings; device names cannot contain parentheses (inventory
	// safeName), so it cannot clash. It is waivers.Device.
	junitFabricSuite = waivers.Device
)

// junitBroken is the skip of a device's checks when its input had errors.
const junitBroken = "not fully checked: this device has input errors (see its input test)"

// The attribute names and forms are the Ant JUnit schema's
// (windyroad/JUnit-Schema JUnit.xsd, "JUnit test result schema for the
// Apache Ant JUnit and JUnitReport tasks"): testsuite has "timestamp"
// ("when the test was executed. Timezone may not be specified.", pattern
// [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}), "hostname"
// ("Host on which the tests were executed. 'localhost' should be used if
// the hostname cannot be determined.") and "time" ("Time taken (in
// seconds) to execute the tests in the suite"); testcase has "time"
// ("Time taken (in seconds) to execute the test"). That schema gives
// testsuites no time; Jenkins' and GitLab's readers take one there too.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string           `xml:"name,attr"`
	Tests      int              `xml:"tests,attr"`
	Failures   int              `xml:"failures,attr"`
	Errors     int              `xml:"errors,attr"`
	Skipped    int              `xml:"skipped,attr"`
	Time       string           `xml:"time,attr"`
	Timestamp  string           `xml:"timestamp,attr,omitempty"`
	Hostname   string           `xml:"hostname,attr,omitempty"`
	Properties *junitProperties `xml:"properties,omitempty"`
	Cases      []junitCase      `xml:"testcase"`
}

type junitProperties struct {
	Property []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// junitCase carries at most one of failure, error and skipped: the Ant
// JUnit schema that CI tools follow has them as an xs:choice, and Jenkins
// keeps only one failure per testcase. Several findings of one check on
// one device are therefore one failure that lists them all.
type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitOutcome `xml:"failure,omitempty"`
	Error     *junitOutcome `xml:"error,omitempty"`
	Skipped   *junitOutcome `xml:"skipped,omitempty"`
	SystemOut *junitText    `xml:"system-out,omitempty"`
}

type junitOutcome struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",cdata"`
}

type junitText struct {
	Body string `xml:",cdata"`
}

// JUnit writes the report as JUnit XML: one testsuite per device, one
// testcase per device × check of the catalog (classname qoslint.<device>,
// name the check ID) that fails with the check's findings at or above
// --fail-on and carries the others as system-out, and a testcase "input"
// that errors with the device's input errors. The other checks of a
// device with input errors are skipped, not passed: its files were not
// all read. So the document has a failure or an error exactly when the
// exit code is not 0.
func JUnit(w io.Writer, r *Report) error {
	r.Normalize()
	by := findingsByDevice(r)
	inputErrs := map[string][]*source.Error{}
	for _, e := range r.Errors {
		inputErrs[e.Device] = append(inputErrs[e.Device], e)
	}
	out := junitSuites{Name: xmlSafe("qoslint " + r.fabricName())}
	sk := r.statusIndex()
	known := map[string]bool{}
	for _, d := range r.Devices {
		known[d.Name] = true
		s := junitSuite{Name: xmlSafe(d.Name), Properties: &junitProperties{[]junitProperty{{Name: "kind", Value: xmlSafe(d.Kind)}}}}
		s.Cases = junitChecks(d.Name, d.Release, applicable(d.Kind, by[d.Name]), by[d.Name], len(inputErrs[d.Name]) > 0, r.fails)
		junitSkips(s.Cases, d.Name, sk)
		s.Cases = append(s.Cases, junitInput(d.Name, inputErrs[d.Name]))
		out.Suites = append(out.Suites, s)
	}
	out.Suites = append(out.Suites, junitExtraSuites(r, known, by, inputErrs)...)
	sort.SliceStable(out.Suites, func(i, j int) bool { return out.Suites[i].Name < out.Suites[j].Name })
	out.count()
	out.times(r)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitExtraSuites are the suites of what belongs to no inventory device,
// which still needs a suite or the CI would not see it: input errors of
// folders the inventory does not name or of no device, and the waiver
// file's own findings. A waiver file has its "waiver" test on every run,
// passing or not, so that a dashboard follows it.
func junitExtraSuites(r *Report, known map[string]bool, by map[string][]checks.Finding, inputErrs map[string][]*source.Error) []junitSuite {
	extra := map[string][]string{} // suite → its check tests
	var order []string
	add := func(name, check string) {
		ids, ok := extra[name]
		if !ok {
			order = append(order, name)
		}
		if check != "" && !slices.Contains(ids, check) {
			ids = append(ids, check)
		}
		extra[name] = ids
	}
	if r.Waivers != "" {
		add(junitFabricSuite, waivers.Check.ID)
	}
	for _, f := range r.Findings {
		if !known[f.Device] {
			add(f.Device, f.Check)
		}
	}
	for _, e := range r.Errors {
		if name := cmp.Or(e.Device, junitFabricSuite); !known[e.Device] {
			add(name, "")
		}
	}
	var out []junitSuite
	for _, name := range order {
		ids := extra[name]
		sort.Strings(ids)
		errs := inputErrs[name]
		if name == junitFabricSuite {
			errs = append(errs, inputErrs[""]...)
		}
		cases := junitChecks(name, Release{}, ids, by[name], false, r.fails)
		out = append(out, junitSuite{Name: xmlSafe(name), Cases: append(cases, junitInput(name, errs))})
	}
	return out
}

// count fills the suites' and the total's test counts from the cases.
func (out *junitSuites) count() {
	for i := range out.Suites {
		s := &out.Suites[i]
		for _, c := range s.Cases {
			s.Tests++
			switch {
			case c.Failure != nil:
				s.Failures++
			case c.Error != nil:
				s.Errors++
			case c.Skipped != nil:
				s.Skipped++
			}
		}
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Skipped += s.Skipped
	}
}

// times puts the run's start, host and duration on the document. qoslint
// does not time each check, so a suite's time is an even share of the
// run and a test's an even share of its suite: the sums a CI server
// shows then add up to the run. Without a Run (a report not made by a
// timed run) every time is 0.000 and there is no timestamp.
func (out *junitSuites) times(r *Report) {
	var total time.Duration
	var stamp string
	if r.Run != nil {
		total = r.Run.Duration
		stamp = r.Run.Start.Format("2006-01-02T15:04:05")
	}
	out.Time = junitSeconds(total)
	for i := range out.Suites {
		s := &out.Suites[i]
		share := total / time.Duration(len(out.Suites))
		s.Time, s.Timestamp, s.Hostname = junitSeconds(share), stamp, xmlSafe(r.Host)
		for j := range s.Cases {
			s.Cases[j].Time = junitSeconds(share / time.Duration(len(s.Cases)))
		}
	}
}

// junitSeconds is a duration as the schema's xs:decimal of seconds.
func junitSeconds(d time.Duration) string {
	return fmt.Sprintf("%.3f", d.Seconds())
}

// fails reports whether a finding fails the run (Failed): not waived, at
// or above FailOn, and not a report-only run.
func (r *Report) fails(f checks.Finding) bool {
	return !r.ReportOnly && !f.Waived && f.Severity >= r.FailOn
}

// applicable lists, in catalog order, the checks that apply to a device of
// kind: a host never "passes" switch-pfc. A check that found something on
// the device is listed whatever its kind, so that no finding goes unseen.
func applicable(kind string, fs []checks.Finding) []string {
	found := map[string]bool{}
	for _, f := range fs {
		found[f.Check] = true
	}
	var ids []string
	for _, c := range checks.All() {
		if c.Devices.Has(kind) || kind == "" || found[c.ID] {
			ids = append(ids, c.ID)
		}
	}
	// The merged not-collected finding is a test only where it was made,
	// so that a complete capture's dashboard does not grow a test.
	if found[checks.NotCollected.ID] {
		ids = append(ids, checks.NotCollected.ID)
	}
	return ids
}

// junitChecks makes a device's testcase of each check in ids. Findings
// that fail the run (fails: --fail-on) fail their test; when the only
// ones that would have failed are waived, the test is skipped with the
// waiver's reason instead. Every other finding, a warning under --fail-on
// error included, is the system-out of a test that passes: a JUnit
// failure the exit code does not share would fail a CI stage qoslint
// passed, or the reverse.
func junitChecks(device string, rel Release, ids []string, fs []checks.Finding, broken bool, fails func(checks.Finding) bool) []junitCase {
	var cases []junitCase
	for _, id := range ids {
		tc := junitCase{Classname: xmlSafe("qoslint." + device), Name: id}
		var fail, waived, other []checks.Finding
		for _, f := range fs {
			switch {
			case f.Check != id:
			case fails(f):
				fail = append(fail, f)
			case f.Waived && fails(unwaived(f)):
				waived = append(waived, f)
				other = append(other, f)
			default:
				other = append(other, f)
			}
		}
		switch {
		case len(fail) > 0:
			bodies := make([]string, len(fail))
			for i, f := range fail {
				bodies[i] = junitFindingBody(f, rel)
			}
			// Findings are sorted highest severity first.
			tc.Failure = &junitOutcome{Message: xmlSafe(junitMessage(fail)), Type: fail[0].Severity.String(), Body: xmlSafe(strings.Join(bodies, "\n\n"))}
		case len(waived) > 0:
			tc.Skipped = &junitOutcome{Message: xmlSafe(junitWaived(waived))}
		case broken:
			tc.Skipped = &junitOutcome{Message: junitBroken}
		}
		if len(other) > 0 {
			bodies := make([]string, len(other))
			for i, f := range other {
				bodies[i] = junitFindingBody(f, rel)
			}
			tc.SystemOut = &junitText{Body: xmlSafe(strings.Join(bodies, "\n\n"))}
		}
		cases = append(cases, tc)
	}
	return cases
}

// unwaived is f as it would be without its waiver.
func unwaived(f checks.Finding) checks.Finding {
	f.Waived = false
	return f
}

// junitSkips marks skipped, with the reason, each case whose check did
// not run on device: not collected, not applicable or disabled. A failing
// or waived case keeps its outcome; the reason replaces the generic one of
// a device with input errors.
func junitSkips(cases []junitCase, device string, sk statuses) {
	for i := range cases {
		tc := &cases[i]
		st := sk.skipped(device, tc.Name)
		if st == nil || tc.Failure != nil || tc.Error != nil || tc.Skipped != nil && tc.Skipped.Message != junitBroken {
			continue
		}
		tc.Skipped = &junitOutcome{Message: xmlSafe(st.SkipText())}
	}
}

// junitWaived is the skip message of waived findings: "waived: " and each
// distinct reason once.
func junitWaived(fs []checks.Finding) string {
	var reasons []string
	for _, f := range fs {
		if !slices.Contains(reasons, f.WaiverReason) {
			reasons = append(reasons, f.WaiverReason)
		}
	}
	return "waived: " + strings.Join(reasons, "; ")
}

// junitMessage is the failure message: the finding's message, or for
// several findings each distinct message once, after the interfaces it
// applies to (one check often fails the same way on every NIC).
func junitMessage(fs []checks.Finding) string {
	if len(fs) == 1 {
		return fs[0].Message
	}
	var order []string
	where := map[string][]string{}
	for _, f := range fs {
		ifs, seen := where[f.Message]
		if !seen {
			order = append(order, f.Message)
		}
		if f.Interface != "" {
			ifs = append(ifs, f.Interface)
		}
		where[f.Message] = ifs
	}
	parts := make([]string, len(order))
	for i, m := range order {
		parts[i] = m
		if ifs := where[m]; len(ifs) > 0 {
			parts[i] = strings.Join(ifs, ", ") + ": " + m
		}
	}
	return fmt.Sprintf("%d findings: %s", len(fs), strings.Join(parts, "; "))
}

func junitInput(device string, errs []*source.Error) junitCase {
	tc := junitCase{Classname: xmlSafe("qoslint." + device), Name: junitInputTest}
	if len(errs) == 0 {
		return tc
	}
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = e.Error()
	}
	msg := errs[0].Msg
	if len(errs) > 1 {
		msg = fmt.Sprintf("%d input errors: %s", len(errs), strings.Join(lines, "; "))
	} else if where := errs[0].Pos.String(); where != "" {
		msg = where + ": " + msg
	}
	tc.Error = &junitOutcome{Message: xmlSafe(msg), Type: "input-error", Body: xmlSafe(strings.Join(lines, "\n"))}
	return tc
}

// junitFindingBody is a finding as the text report shows it.
func junitFindingBody(f checks.Finding, rel Release) string {
	var b strings.Builder
	b.WriteString(f.Severity.String())
	if f.Waived {
		b.WriteString(" (waived)")
	}
	if f.Interface != "" {
		b.WriteString(" " + f.Interface)
	}
	b.WriteString(": " + f.Message + "\n")
	field := func(label, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%-9s %s\n", label+":", v)
		}
	}
	if f.Waived {
		field("waived", f.WaiverReason)
	}
	field("expected", f.Expected)
	field("actual", f.Actual)
	field("evidence", f.Source.String())
	fix, rb := findingCommands(rel, f)
	field("fix", strings.Join(fix, "\n          "))
	field("rollback", strings.Join(rb, "\n          "))
	return strings.TrimSuffix(b.String(), "\n")
}

// xmlSafe replaces what XML 1.0 cannot carry at all (§2.2 Char: most C0
// controls, surrogates, U+FFFE/FFFF, invalid UTF-8). encoding/xml does
// this for attributes and text, but not inside CDATA, and device files
// are not trusted to be clean.
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' ||
			(r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || r >= 0x10000 {
			return r
		}
		return '\uFFFD'
	}, strings.ToValidUTF8(s, "\uFFFD"))
}
