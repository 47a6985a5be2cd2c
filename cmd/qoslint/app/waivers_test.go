package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
)

// setClock fixes the date waivers are judged by for one test.
func setClock(t *testing.T, day string) {
	t.Helper()
	d, err := time.Parse("2006-01-02", day)
	if err != nil {
		t.Fatal(err)
	}
	old := now
	now = func() time.Time { return d.Add(12 * time.Hour) }
	t.Cleanup(func() { now = old })
}

// waiveAll is a waiver file that waives, on every device, every check with
// a finding in the broken pod (a waiver of a check without one would be
// unused), with extra entries appended. It asks the pod, not a list, so a
// new check costs this test nothing.
func waiveAll(extra string) string {
	r, err := BuildReport("../../../examples/broken-pod", judge.Error)
	if err != nil {
		panic(err)
	}
	found := map[string]bool{}
	for _, f := range r.Findings {
		found[f.Check] = true
	}
	var b strings.Builder
	b.WriteString("waivers:\n")
	for _, c := range append(checks.All(), checks.NotCollected) {
		if found[c.ID] {
			fmt.Fprintf(&b, "  - {check: %s, device: \"*\", reason: \"accepted for the test\", expires: 2026-06-30}\n", c.ID)
		}
	}
	b.WriteString(extra)
	return b.String()
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLintWaivers(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "elsewhere.yaml")
	writeFile(t, outside, "waivers:\n  - {check: mtu, device: leaf03, reason: \"swp5 is a management uplink\"}\n")
	for _, tc := range []struct {
		name    string
		waivers string // DIR/qoslint-waivers.yaml; "" for none
		flag    string // --waivers
		today   string
		failOn  judge.Severity
		code    int
		stdout  []string
		stderr  string
	}{
		{name: "no waivers", today: "2026-01-01", failOn: judge.Error, code: ExitFindings,
			stdout: []string{"57 findings (30 errors, 9 warnings, 18 info)"}},
		{name: "every error waived", waivers: waiveAll(""), today: "2026-06-30", failOn: judge.Error, code: ExitOK,
			stdout: []string{"57 findings (0 errors, 0 warnings, 0 info, 57 waived)", "PASS", "error (waived) host-tos", "waived:   accepted for the test"}},
		{name: "every finding waived, strictest gate", waivers: waiveAll(""), today: "2026-06-30", failOn: judge.Info, code: ExitOK,
			stdout: []string{"PASS: no findings at or above info"}},
		{name: "the day after expiry", waivers: waiveAll(""), today: "2026-07-01", failOn: judge.Error, code: ExitFindings,
			stdout: []string{"(30 errors, 39 warnings, 18 info)", "waiver host-tos on * expired on 2026-06-30", "evidence: qoslint-waivers.yaml:17"}},
		{name: "an unused waiver fails only a warning gate", waivers: waiveAll("  - {check: mtu, device: spine09, reason: gone}\n"),
			today: "2026-01-01", failOn: judge.Error, code: ExitOK,
			stdout: []string{"waiver mtu on spine09 matches no finding", "(fabric)\n  warning  waiver"}},
		{name: "an unused waiver, warning gate", waivers: waiveAll("  - {check: mtu, device: spine09, reason: gone}\n"),
			today: "2026-01-01", failOn: judge.Warning, code: ExitFindings, stdout: []string{"FAIL: findings at or above warning"}},
		{name: "bad waiver file", waivers: "waivers:\n  - check: mtu\n    device: leaf03\n    reasons: typo\n",
			today: "2026-01-01", failOn: judge.Error, code: ExitInput,
			// The rest of the fabric is still judged and printed.
			stdout: []string{`qoslint-waivers.yaml:4: unknown key "reasons" in a waiver`, "57 findings (30 errors, 9 warnings, 18 info)", "INCOMPLETE"}},
		{name: "--waivers elsewhere replaces the fabric's", waivers: "not: [valid", flag: outside, today: "2026-01-01", failOn: judge.Error,
			code: ExitFindings, stdout: []string{"1 waived", "waived:   swp5 is a management uplink"}},
		{name: "--waivers of a missing file", flag: filepath.Join(t.TempDir(), "nope.yaml"), today: "2026-01-01", failOn: judge.Error,
			code: ExitInput, stdout: []string{"nope.yaml", "57 findings", "INCOMPLETE"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			setClock(t, tc.today)
			dir := copyDir(t, "../../../examples/broken-pod")
			if tc.waivers != "" {
				writeFile(t, filepath.Join(dir, "qoslint-waivers.yaml"), tc.waivers)
			}
			var out, errOut bytes.Buffer
			code := Lint(&out, &errOut, dir, LintOptions{Format: "text", FailOn: tc.failOn, Waivers: tc.flag})
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.code, out.String(), errOut.String())
			}
			for _, want := range tc.stdout {
				if !strings.Contains(out.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, out.String())
				}
			}
			if !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("stderr lacks %q: %s", tc.stderr, errOut.String())
			}
		})
	}
}

// The waiver file is cited relative to DIR when it is inside it, as every
// other evidence file is; elsewhere, as given.
func TestWaiverFileName(t *testing.T) {
	setClock(t, "2026-01-01")
	dir := copyDir(t, "../../../examples/clean-pod")
	unused := "waivers:\n  - {check: mtu, device: leaf01, reason: r}\n"
	inside := filepath.Join(dir, "ci", "waivers.yaml")
	if err := os.MkdirAll(filepath.Dir(inside), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, inside, unused)
	outside := filepath.Join(t.TempDir(), "w.yaml")
	writeFile(t, outside, unused)
	for file, want := range map[string]string{inside: "ci/waivers.yaml:2", outside: outside + ":2"} {
		var out, errOut bytes.Buffer
		Lint(&out, &errOut, dir, LintOptions{Format: "text", FailOn: judge.Error, Waivers: file})
		if !strings.Contains(out.String(), "evidence: "+want+"\n") {
			t.Errorf("--waivers %s: evidence is not %s:\n%s", file, want, out.String())
		}
	}
}

// fix leaves waived findings as they are.
func TestFixSkipsWaived(t *testing.T) {
	setClock(t, "2026-01-01")
	dir := copyDir(t, "../../../examples/broken-pod")
	writeFile(t, filepath.Join(dir, "qoslint-waivers.yaml"),
		"waivers:\n  - {check: host-tos, device: \"gpu0*\", reason: \"NCCL_IB_TC is set by the job scheduler\"}\n")
	var out, errOut bytes.Buffer
	if code := Fix(&out, &errOut, dir, FixOptions{Format: "script", FailOn: judge.Error}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if strings.Contains(out.String(), "NCCL_IB_TC") || !strings.Contains(out.String(), "cnp_802p_prio") {
		t.Errorf("the fix must skip the waived host-tos and keep gpu03's CNP fix:\n%s", out.String())
	}
}

// audit reads qoslint-waivers.yaml beside the inventory and reports as
// lint does with the same file; a bad file stops it before any login.
func TestAuditWaivers(t *testing.T) {
	setClock(t, "2026-06-30")
	src := copyDir(t, "../../../examples/broken-pod")
	writeFile(t, filepath.Join(src, "qoslint-waivers.yaml"), waiveAll(""))
	var lintOut, errOut bytes.Buffer
	if code := Lint(&lintOut, &errOut, src, LintOptions{Format: "json", FailOn: judge.Error}); code != ExitOK {
		t.Fatalf("lint exit %d: %s", code, errOut.String())
	}
	inv, _ := simulate(t, src, nil)
	// Audit reads no packet capture (they are offline-only), so a waiver
	// of a wire check would match nothing there.
	var noWire []string
	for _, l := range strings.SplitAfter(waiveAll(""), "\n") {
		if !strings.Contains(l, "check: wire-") {
			noWire = append(noWire, l)
		}
	}
	writeFile(t, filepath.Join(filepath.Dir(inv), "qoslint-waivers.yaml"), strings.Join(noWire, ""))
	var auditOut bytes.Buffer
	if code := Audit(context.Background(), &auditOut, &errOut, AuditOptions{LiveOptions: liveOpts(inv), Format: "json", FailOn: judge.Error}); code != ExitOK {
		t.Fatalf("audit exit %d: %s\n%s", code, errOut.String(), auditOut.String())
	}
	type finding struct {
		Check, Device, Interface string
		Waived                   bool
		WaiverReason             string `json:"waiver_reason"`
	}
	type doc struct{ Findings []finding }
	var l, a doc
	if err := json.Unmarshal(lintOut.Bytes(), &l); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(auditOut.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	// The wire findings are lint's only: captures are offline-only.
	wire := len(l.Findings)
	l.Findings = slices.DeleteFunc(l.Findings, func(f finding) bool { return strings.HasPrefix(f.Check, "wire-") })
	lj, _ := json.Marshal(l.Findings)
	aj, _ := json.Marshal(a.Findings)
	if wire-len(l.Findings) != 2 || string(lj) != string(aj) || len(a.Findings) != 55 || !a.Findings[0].Waived {
		t.Errorf("audit differs from lint:\nlint  %s\naudit %s", lj, aj)
	}
	// collect takes the waivers along: lint of the capture is the audit.
	capture := filepath.Join(t.TempDir(), "capture")
	if code := Collect(context.Background(), &errOut, liveOpts(inv), capture); code != ExitOK {
		t.Fatalf("collect exit %d: %s", code, errOut.String())
	}
	var again bytes.Buffer
	if code := Lint(&again, &errOut, capture, LintOptions{Format: "json", FailOn: judge.Error}); code != ExitOK {
		t.Errorf("lint of the capture: exit %d\n%s", code, again.String())
	}
	var c doc
	if err := json.Unmarshal(again.Bytes(), &c); err != nil {
		t.Fatal(err)
	}
	if cj, _ := json.Marshal(c.Findings); string(cj) != string(aj) {
		t.Errorf("lint of the capture differs from audit:\n%s\n%s", cj, aj)
	}

	bad := filepath.Join(t.TempDir(), "w.yaml")
	writeFile(t, bad, "waivers:\n  - {check: nope, device: x, reason: r}\n")
	opt := liveOpts(inv)
	opt.Inventory = filepath.Join(t.TempDir(), "missing-inventory.yaml") // never read: the waivers fail first
	var out bytes.Buffer
	errOut.Reset()
	code := Audit(context.Background(), &out, &errOut, AuditOptions{LiveOptions: opt, Format: "text", FailOn: judge.Error, Waivers: bad})
	// The report is still printed: the error, and that nothing was checked.
	if code != ExitInput || !strings.Contains(errOut.String(), bad+`:2: check: unknown check "nope"`) ||
		!strings.Contains(out.String(), bad+`:2: check: unknown check "nope"`) || !strings.Contains(out.String(), "nothing was checked") {
		t.Errorf("bad waivers: exit %d\n%s%s", code, out.String(), errOut.String())
	}
}
