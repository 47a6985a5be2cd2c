package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/fixture"
)

const brokenPod = "../../../examples/broken-pod"

type limitJSON struct {
	jsonFindings
	Devices []struct{ Name string }
	Notes   []string
}

func decodeLimit(t *testing.T, b []byte) limitJSON {
	t.Helper()
	var j limitJSON
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return j
}

func devicesOf(j limitJSON) []string {
	var out []string
	for _, d := range j.Devices {
		out = append(out, d.Name)
	}
	return out
}

// A limited lint reports exactly the full lint's findings of the limited
// devices, link findings included (the other ends are read), lists only
// those devices and says that it is limited.
func TestLintLimit(t *testing.T) {
	var full, limited, errOut bytes.Buffer
	fullCode := Lint(&full, &errOut, brokenPod, LintOptions{Format: "json", FailOn: judge.Error})
	code := Lint(&limited, &errOut, brokenPod, LintOptions{Format: "json", FailOn: judge.Error, Checks: CheckFlags{Limit: "leaf*:!leaf03"}})
	if code != fullCode || code != ExitFindings {
		t.Fatalf("exit %d, full lint %d: %s", code, fullCode, errOut.String())
	}
	f, l := decodeLimit(t, full.Bytes()), decodeLimit(t, limited.Bytes())
	sel := []string{"leaf01", "leaf02"}
	if got := devicesOf(l); !slices.Equal(got, sel) {
		t.Errorf("devices %v, want %v", got, sel)
	}
	want := slices.DeleteFunc(f.Findings, func(x jsonFinding) bool { return !slices.Contains(sel, x.Device) })
	wj, _ := json.Marshal(want)
	lj, _ := json.Marshal(l.Findings)
	if len(want) == 0 || string(wj) != string(lj) {
		t.Errorf("limited findings differ from the full lint's of %v:\nwant %s\ngot  %s", sel, wj, lj)
	}
	if !slices.ContainsFunc(l.Findings, func(x jsonFinding) bool { return strings.HasPrefix(x.Check, "link-") }) {
		t.Error("no link finding on the limited leaves: the other ends were not judged")
	}
	note := "limited run (--limit leaf*:!leaf03): 2 of 9 devices checked (leaf01, leaf02)"
	if !slices.ContainsFunc(l.Notes, func(n string) bool { return strings.HasPrefix(n, note) }) {
		t.Errorf("notes %q lack %q", l.Notes, note)
	}
	for _, n := range l.Notes {
		if strings.HasPrefix(n, "gpu") || strings.HasPrefix(n, "spine") {
			t.Errorf("a note of a device outside the limit: %q", n)
		}
	}
	var text bytes.Buffer
	Lint(&text, &errOut, brokenPod, LintOptions{Format: "text", FailOn: judge.Error, Checks: CheckFlags{Limit: "leaf*:!leaf03"}})
	if !strings.Contains(text.String(), note) {
		t.Errorf("the text report does not say it is limited:\n%s", text.String())
	}
}

// A pattern that matches nothing is an input error naming it, on every
// command that takes --limit, before any device is dialled.
func TestLimitMatchesNothing(t *testing.T) {
	inv := filepath.Join(brokenPod, "inventory.yaml")
	const pattern = "leaf01,spine9*"
	for name, run := range map[string]func(out, errOut *bytes.Buffer) int{
		"lint": func(out, errOut *bytes.Buffer) int {
			return Lint(out, errOut, brokenPod, LintOptions{Format: "json", Checks: CheckFlags{Limit: pattern}})
		},
		"fix": func(out, errOut *bytes.Buffer) int {
			return Fix(out, errOut, brokenPod, FixOptions{Format: "script", Checks: CheckFlags{Limit: pattern}})
		},
		"audit": func(out, errOut *bytes.Buffer) int {
			o := liveOpts(inv)
			o.Limit = pattern
			return Audit(context.Background(), out, errOut, AuditOptions{LiveOptions: o, Format: "json"})
		},
		"collect": func(out, errOut *bytes.Buffer) int {
			o := liveOpts(inv)
			o.Limit = pattern
			return Collect(context.Background(), errOut, o, filepath.Join(t.TempDir(), "out"))
		},
	} {
		var out, errOut bytes.Buffer
		if code := run(&out, &errOut); code != ExitInput {
			t.Errorf("%s: exit %d, want %d", name, code, ExitInput)
		}
		if !strings.Contains(errOut.String(), `"spine9*" matches no device name or group`) {
			t.Errorf("%s: stderr does not name the pattern: %q", name, errOut.String())
		}
	}
}

// A limited audit dials only the limited devices (every other one refuses
// its connection, which would make the audit incomplete), and its report
// is what lint --limit of a limited collect's capture reports; lint of
// that capture without the limit is not a pass.
func TestAuditLimit(t *testing.T) {
	const pattern = "leaf01,gpu0[12]"
	sel := []string{"gpu01", "gpu02", "leaf01"}
	faults := map[string]sim.Fault{}
	for _, d := range []string{"spine01", "spine02", "leaf02", "leaf03", "gpu03", "gpu04"} {
		faults[d] = sim.Fault{Refuse: true}
	}
	inv, _ := simulate(t, brokenPod, faults)
	opt := liveOpts(inv)
	opt.Limit = pattern
	// gpu03 is not dialled, so its waiver matches nothing this time: that
	// is not an unused waiver.
	wfile := filepath.Join(t.TempDir(), "waivers.yaml")
	writeFile(t, wfile, "waivers:\n  - {check: host-tos, device: gpu03, reason: \"outside the limit\"}\n")
	var auditOut, errOut bytes.Buffer
	code := Audit(context.Background(), &auditOut, &errOut, AuditOptions{LiveOptions: opt, Format: "json", FailOn: judge.Error, Waivers: wfile})
	if code != ExitFindings {
		t.Fatalf("audit exit %d: %s", code, errOut.String())
	}
	a := decodeLimit(t, auditOut.Bytes())
	if len(a.InputErrors) != 0 {
		t.Errorf("input errors: %+v", a.InputErrors)
	}
	if got := devicesOf(a); !slices.Equal(got, sel) {
		t.Errorf("devices %v, want %v", got, sel)
	}
	if len(a.Findings) == 0 || slices.ContainsFunc(a.Findings, func(f jsonFinding) bool { return !slices.Contains(sel, f.Device) }) {
		t.Errorf("findings of devices outside the limit, or none: %+v", a.Findings)
	}
	if slices.ContainsFunc(a.Findings, func(f jsonFinding) bool { return f.Check == "waiver" }) {
		t.Errorf("a waiver of a device outside the limit was judged: %+v", a.Findings)
	}
	if !slices.ContainsFunc(a.Notes, func(n string) bool {
		return strings.HasPrefix(n, "limited run (--limit "+pattern+"): 3 of 9") && strings.HasSuffix(n, "they were not collected, so links to them are not judged")
	}) {
		t.Errorf("notes %q do not say the audit is limited", a.Notes)
	}

	out := filepath.Join(t.TempDir(), "capture")
	errOut.Reset()
	if code := Collect(context.Background(), &errOut, opt, out); code != ExitOK {
		t.Fatalf("collect exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(errOut.String(), "limited collection (--limit "+pattern+"): 3 of 9 devices") {
		t.Errorf("collect does not say it is limited: %s", errOut.String())
	}
	entries, _ := os.ReadDir(filepath.Join(out, "devices"))
	var dirs []string
	for _, e := range entries {
		dirs = append(dirs, e.Name())
	}
	if !slices.Equal(dirs, sel) {
		t.Errorf("collected %v, want %v", dirs, sel)
	}
	var lintOut bytes.Buffer
	if code := Lint(&lintOut, &errOut, out, LintOptions{Format: "json", FailOn: judge.Error, Checks: CheckFlags{Limit: pattern}}); code != ExitFindings {
		t.Errorf("lint --limit of the capture: exit %d", code)
	}
	aj, _ := json.Marshal(a.Findings)
	lj, _ := json.Marshal(decodeLimit(t, lintOut.Bytes()).Findings)
	if string(aj) != string(lj) {
		t.Errorf("lint --limit of the capture differs from the audit:\naudit %s\nlint  %s", aj, lj)
	}
	lintOut.Reset()
	if code := Lint(&lintOut, &errOut, out, LintOptions{Format: "json", FailOn: judge.Error}); code != ExitInput {
		t.Errorf("lint of a limited capture without --limit: exit %d, want %d", code, ExitInput)
	}
}

// fix --limit prints the fixes of the limited devices only, and says so.
func TestFixLimit(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := Fix(&out, &errOut, brokenPod, FixOptions{Format: "script", Checks: CheckFlags{Limit: "gpu01,spine01"}}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var heads []string
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "# ==> ") {
			heads = append(heads, line)
		}
	}
	if want := []string{"# ==> gpu01 <==", "# ==> spine01 <=="}; !slices.Equal(heads, want) {
		t.Errorf("scripts %q, want %q", heads, want)
	}
	if !strings.Contains(errOut.String(), "qoslint: limited run (--limit gpu01,spine01): 2 of 9 devices") {
		t.Errorf("fix does not say it is limited: %s", errOut.String())
	}
}

// A limited lint judges waivers on the whole fabric's findings (it reads
// every device) and waives the limited devices' findings.
func TestLimitWaivers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pod")
	fixture.Copy(t, brokenPod, dir) // through the example's links
	writeFile(t, filepath.Join(dir, "qoslint-waivers.yaml"), "waivers:\n"+
		"  - {check: host-tos, device: gpu03, reason: \"outside the limit\"}\n"+
		"  - {check: host-trust, device: gpu01, reason: \"inside the limit\"}\n")
	var out, errOut bytes.Buffer
	Lint(&out, &errOut, dir, LintOptions{Format: "json", FailOn: judge.Error, Checks: CheckFlags{Limit: "gpu01"}})
	var j struct {
		Summary  struct{ Waived int }
		Findings []jsonFinding
	}
	if err := json.Unmarshal(out.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	trust := 0
	for _, f := range j.Findings {
		if f.Check == "waiver" {
			t.Errorf("a limited run reported %q", f.Message)
		}
		if f.Check == "host-trust" {
			trust++
		}
	}
	if trust == 0 || j.Summary.Waived != trust {
		t.Errorf("%d host-trust findings on gpu01, %d waived", trust, j.Summary.Waived)
	}
}
