package commands

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// badInventory is a fabric directory whose inventory.hcl has a syntax
// error at line 3 (an attribute HCL does not know).
func badInventory(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "inventory.hcl"), []byte("fabric = \"x\"\npolicy {\n  roce { dscpp = [26] }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// readFile is the file's text, failing the test when it is not there.
func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s was not written: %v", path, err)
	}
	return string(data)
}

// What each format must say about an inventory that could not be read:
// the error at its file and line, as a machine reads it.
var inputErrorShapes = map[string]func(t *testing.T, doc string){
	"junit": func(t *testing.T, doc string) {
		var x struct {
			Errors int `xml:"errors,attr"`
			Suites []struct {
				Cases []struct {
					Name  string `xml:"name,attr"`
					Error *struct {
						Message string `xml:"message,attr"`
					} `xml:"error"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal([]byte(doc), &x); err != nil {
			t.Fatalf("junit does not parse: %v\n%s", err, doc)
		}
		if x.Errors != 1 || len(x.Suites) != 1 || len(x.Suites[0].Cases) != 1 || x.Suites[0].Cases[0].Error == nil ||
			!strings.Contains(x.Suites[0].Cases[0].Error.Message, "inventory.hcl:3: ") {
			t.Errorf("want one <error> test case naming inventory.hcl:3:\n%s", doc)
		}
	},
	"json": func(t *testing.T, doc string) {
		var x struct {
			Summary struct {
				InputErrors int  `json:"input_errors"`
				Judged      bool `json:"judged"`
			}
			Devices     []any
			InputErrors []struct {
				File    string
				Line    int
				Message string
			} `json:"input_errors"`
		}
		if err := json.Unmarshal([]byte(doc), &x); err != nil {
			t.Fatalf("json does not parse: %v", err)
		}
		if x.Summary.InputErrors != 1 || x.Summary.Judged || len(x.Devices) != 0 || len(x.InputErrors) != 1 ||
			x.InputErrors[0].File != "inventory.hcl" || x.InputErrors[0].Line != 3 || !strings.Contains(x.InputErrors[0].Message, "dscpp") {
			t.Errorf("want the input error at inventory.hcl:3, judged false, no devices:\n%s", doc)
		}
	},
	"prometheus": func(t *testing.T, doc string) {
		if !regexp.MustCompile(`(?m)^qoslint_input_errors\{fabric=""\} 1$`).MatchString(doc) {
			t.Errorf("want qoslint_input_errors 1:\n%s", doc)
		}
	},
	"sarif": func(t *testing.T, doc string) {
		var x struct {
			Runs []any `json:"runs"`
		}
		if err := json.Unmarshal([]byte(doc), &x); err != nil || len(x.Runs) != 1 {
			t.Errorf("sarif: %v, %d runs\n%s", err, len(x.Runs), doc)
		}
	},
	"text":     containsInputError,
	"markdown": containsInputError,
	"html":     containsInputError,
}

func containsInputError(t *testing.T, doc string) {
	if !strings.Contains(doc, "inventory.hcl:3") || !strings.Contains(doc, "dscpp") {
		t.Errorf("the report does not show the error at inventory.hcl:3:\n%s", doc)
	}
	if strings.Contains(strings.ToLower(doc), "still checked") {
		t.Errorf("the report says the rest was checked; nothing was:\n%s", doc)
	}
}

// issue 22 item 1: an inventory with a syntax error still leaves every
// report a CI step asked for (-o FILE included), at exit code 2, with the
// message on stderr as before.
func TestInputErrorStillWritesEveryFormat(t *testing.T) {
	dir := badInventory(t)
	out := t.TempDir()
	for format, shape := range inputErrorShapes {
		t.Run(format, func(t *testing.T) {
			file := filepath.Join(out, "r."+format)
			code, stdout, stderr := run("lint", dir, "-f", format, "-o", file)
			if code != 2 {
				t.Errorf("exit %d, want 2\n%s", code, stderr)
			}
			if stdout != "" || !strings.Contains(stderr, "inventory.hcl:3:") {
				t.Errorf("stdout %q; stderr lacks the error:\n%s", stdout, stderr)
			}
			shape(t, readFile(t, file))
		})
	}
}

// The same for audit (its inventory is a file) and for demo (its own
// set-up failing), and for several outputs of one run.
func TestInputErrorReportsOfAuditAndDemo(t *testing.T) {
	dir := badInventory(t)
	out := t.TempDir()
	code, stdout, stderr := run("audit", "--inventory", filepath.Join(dir, "inventory.hcl"),
		"-f", "text", "-f", "junit="+filepath.Join(out, "a.xml"), "-f", "json="+filepath.Join(out, "a.json"))
	if code != 2 || !strings.Contains(stdout, "inventory.hcl:3") || !strings.Contains(stderr, "inventory.hcl:3") {
		t.Errorf("audit: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	inputErrorShapes["junit"](t, readFile(t, filepath.Join(out, "a.xml")))

	code, _, stderr = run("demo", "no-such-pod", "-f", "junit", "-o", filepath.Join(out, "d.xml"))
	if code != 2 || !strings.Contains(stderr, `no shipped fabric "no-such-pod"`) {
		t.Errorf("demo: exit %d\n%s", code, stderr)
	}
	if doc := readFile(t, filepath.Join(out, "d.xml")); !strings.Contains(doc, `<error message="demo: no shipped fabric`) {
		t.Errorf("demo junit:\n%s", doc)
	}
}

// A normal run exports qoslint_input_errors too, at 0, so that an alert on
// it has data when all is well.
func TestPrometheusInputErrorsZero(t *testing.T) {
	code, out, _ := run("lint", "../../../examples/clean-pod", "-f", "prometheus")
	if code != 0 || !regexp.MustCompile(`(?m)^qoslint_input_errors\{fabric="pod-clean"\} 0$`).MatchString(out) {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// issue 22 item 5: one run, several outputs, each byte for byte what a run
// of that format alone writes (the formats without a clock: junit and
// prometheus carry the run's time, TestOneCheckRun in app compares them
// with a fixed clock).
func TestSeveralOutputsOfOneRun(t *testing.T) {
	const fabric = "../../../examples/broken-pod"
	dir := t.TempDir()
	sarif, js := filepath.Join(dir, "r.sarif"), filepath.Join(dir, "r.json")
	code, stdout, stderr := run("lint", fabric, "-f", "text", "-f", "sarif="+sarif, "-f", "json="+js)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (broken-pod has errors)\n%s", code, stderr)
	}
	for format, got := range map[string]string{"text": stdout, "sarif": readFile(t, sarif), "json": readFile(t, js)} {
		c, alone, _ := run("lint", fabric, "-f", format)
		if c != code || alone != got {
			t.Errorf("-f %s of the shared run differs from a run of its own (exit %d)", format, c)
		}
	}
	// -o FILE takes the one format without a path.
	md := filepath.Join(dir, "r.md")
	if code, stdout, _ := run("lint", fabric, "-f", "junit="+filepath.Join(dir, "r.xml"), "-f", "markdown", "-o", md); code != 1 || stdout != "" {
		t.Errorf("exit %d, stdout %q", code, stdout)
	}
	if !strings.HasPrefix(readFile(t, md), "## qoslint: fabric pod-b") || !strings.Contains(readFile(t, filepath.Join(dir, "r.xml")), "<testsuites") {
		t.Error("-o or -f junit=PATH not written")
	}
}

// Outputs that cannot all be written are a usage error before anything is
// read, and nothing is written.
func TestOutputsRefused(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-f", "text", "-f", "json"}, "-f text and -f json would both go to standard output"},
		{[]string{"-f", "json=" + a, "-f", "sarif=" + a}, "write the same file " + a},
		{[]string{"-f", "json", "-o", a, "-f", "sarif=" + a}, "write the same file " + a},
		{[]string{"-f", "json=" + a, "-o", filepath.Join(dir, "b")}, "every -f names its own file"},
		{[]string{"-f", "json="}, "no file after ="},
		{[]string{"-f", "xml=" + a}, `unknown format "xml"`},
	} {
		for _, cmd := range [][]string{{"lint", "../../../examples/clean-pod"}, {"audit", "--inventory", "../../../examples/clean-pod/inventory.hcl"}, {"demo"}} {
			code, stdout, stderr := run(append(cmd, tc.args...)...)
			if code != 2 || stdout != "" || !strings.Contains(stderr, tc.want) {
				t.Errorf("%s %s: exit %d, stdout %q, stderr:\n%s", cmd[0], strings.Join(tc.args, " "), code, stdout, stderr)
			}
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Fatalf("%s: a refused run wrote %v", strings.Join(tc.args, " "), entries)
		}
	}
}

// A file that cannot be written is named, the other outputs are still
// written, and the exit code is 2.
func TestOneOutputFailing(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "not-a-folder")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad, good := filepath.Join(blocker, "r.xml"), filepath.Join(dir, "r.json")
	code, stdout, stderr := run("lint", "../../../examples/clean-pod", "-f", "text", "-f", "junit="+bad, "-f", "json="+good)
	if code != 2 || !strings.Contains(stderr, "-f junit="+bad+": ") {
		t.Errorf("exit %d, want 2 and the file named; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "PASS") || !strings.Contains(readFile(t, good), `"schema": "qoslint.report/v1"`) {
		t.Errorf("the other outputs were not written; stdout:\n%s", stdout)
	}
}

// Completion of -f still offers the format names.
func TestFormatCompletion(t *testing.T) {
	for _, cmd := range [][]string{{"lint", "x"}, {"audit"}, {"demo"}} {
		_, out, _ := run(append(append([]string{"__complete"}, cmd...), "-f", "text", "-f", "")...)
		for _, want := range []string{"junit\n", "sarif\n", "prometheus\n", "text\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s -f: completion lacks %q:\n%s", cmd[0], want, out)
			}
		}
	}
}

// issue 22 item 6: the JUnit verdict (any failure or error) is the exit
// code's, under every --fail-on, on a fabric with errors, a clean one, and
// one whose only finding is a warning.
func TestJUnitVerdictIsExitCode(t *testing.T) {
	warnOnly := t.TempDir()
	if err := os.CopyFS(warnOnly, os.DirFS("../../../examples/clean-pod")); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(warnOnly, "devices", "spine02", "nv-config-commands.txt")
	data := readFile(t, p)
	// Adaptive routing where the policy hashes: a warning (app TestFailOn).
	data += "nv set router adaptive-routing state enabled\nnv set interface swp1 router adaptive-routing state enabled\n"
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	codes := map[string]bool{}
	for _, dir := range []string{"../../../examples/broken-pod", "../../../examples/clean-pod", warnOnly} {
		for _, failOn := range failOnValues {
			code, out, stderr := run("lint", dir, "-f", "junit", "--fail-on", failOn)
			var x struct {
				Failures int `xml:"failures,attr"`
				Errors   int `xml:"errors,attr"`
			}
			if err := xml.Unmarshal([]byte(out), &x); err != nil {
				t.Fatalf("%s --fail-on %s: %v\n%s", dir, failOn, err, stderr)
			}
			if failing := x.Failures+x.Errors > 0; failing != (code != 0) {
				t.Errorf("%s --fail-on %s: exit %d, but JUnit has %d failures and %d errors", dir, failOn, code, x.Failures, x.Errors)
			}
			codes[failOn+"/"+string(rune('0'+code))] = true
		}
	}
	// The cases cover both verdicts at the thresholds that differ.
	for _, want := range []string{"error/0", "error/1", "warning/1", "none/0", "info/1"} {
		if !codes[want] {
			t.Errorf("no case with --fail-on %s", want)
		}
	}
}

// Every testcase and suite has a time, every suite a timestamp of the
// Ant schema's pattern (no time zone) and a hostname.
func TestJUnitTimes(t *testing.T) {
	_, out, _ := run("lint", "../../../examples/broken-pod", "-f", "junit")
	var x struct {
		Time   *string `xml:"time,attr"`
		Suites []struct {
			Time      *string `xml:"time,attr"`
			Timestamp string  `xml:"timestamp,attr"`
			Hostname  string  `xml:"hostname,attr"`
			Cases     []struct {
				Time *string `xml:"time,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(out), &x); err != nil {
		t.Fatal(err)
	}
	seconds := regexp.MustCompile(`^[0-9]+\.[0-9]{3}$`)
	stamp := regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$`)
	if x.Time == nil || !seconds.MatchString(*x.Time) || len(x.Suites) == 0 {
		t.Fatalf("testsuites time %v, %d suites", x.Time, len(x.Suites))
	}
	for _, s := range x.Suites {
		if s.Time == nil || !seconds.MatchString(*s.Time) || !stamp.MatchString(s.Timestamp) || s.Hostname == "" {
			t.Errorf("suite time %v timestamp %q hostname %q", s.Time, s.Timestamp, s.Hostname)
		}
		for _, c := range s.Cases {
			if c.Time == nil || !seconds.MatchString(*c.Time) {
				t.Errorf("testcase time %v", c.Time)
			}
		}
	}
}
