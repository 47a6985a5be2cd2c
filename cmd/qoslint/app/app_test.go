package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/fixture"
)

func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	copyTree(t, src, dst)
	return dst
}

func TestLintExitCodes(t *testing.T) {
	badInv := copyDir(t, "../../../examples/clean-pod")
	if err := os.WriteFile(filepath.Join(badInv, "inventory.hcl"), []byte("fabric = \"x\"\npolicy {\n  roce { dscpp = [26] }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missingDev := copyDir(t, "../../../examples/clean-pod")
	if err := os.RemoveAll(filepath.Join(missingDev, "devices", "gpu03")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir string
		failOn    judge.Severity
		format    string
		code      int
		stdout    string // must contain
		stderr    string // must contain
	}{
		{"clean", "../../../examples/clean-pod", judge.Error, "text", ExitOK, "PASS", ""},
		{"broken", "../../../examples/broken-pod", judge.Error, "text", ExitFindings, "FAIL: findings at or above error", ""},
		{"broken, json", "../../../examples/broken-pod", judge.Error, "json", ExitFindings, `"failed": true`, ""},
		{"malformed files", fixture.Dir(t, "../../../render/testdata/input-errors"), judge.Error, "text", ExitInput, "INCOMPLETE", ""},
		{"bad inventory", badInv, judge.Error, "text", ExitInput, "", `inventory.hcl:3:`},
		{"missing device folder", missingDev, judge.Error, "text", ExitInput, "devices/gpu03", ""},
		{"no inventory", t.TempDir(), judge.Error, "text", ExitInput, "", "inventory"},
		{"unknown format", "../../../examples/clean-pod", judge.Error, "xml", ExitInput, "", `unknown format "xml"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Lint(&out, &errOut, tc.dir, LintOptions{Format: tc.format, FailOn: tc.failOn})
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out.String(), errOut.String())
			}
			if !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("stdout lacks %q or stderr lacks %q\nstdout:\n%s\nstderr:\n%s", tc.stdout, tc.stderr, out.String(), errOut.String())
			}
		})
	}
}

// --fail-on decides the exit code on the same findings: the broken pod has a
// warning-only device once its errors are waived by a high threshold.
func TestFailOn(t *testing.T) {
	dir := copyDir(t, "../../../examples/clean-pod")
	p := filepath.Join(dir, "devices", "spine02", "nv-config-commands.txt")
	data, _ := os.ReadFile(p)
	// On for the switch and on one of its two routed ports (swp1, swp2):
	// adaptive routing in effect where the policy hashes is a warning.
	data = append(data, "nv set router adaptive-routing state enabled\nnv set interface swp1 router adaptive-routing state enabled\n"...)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for sev, want := range map[judge.Severity]int{judge.Error: ExitOK, judge.Warning: ExitFindings, judge.Info: ExitFindings} {
		var out, errOut bytes.Buffer
		if code := Lint(&out, &errOut, dir, LintOptions{Format: "text", FailOn: sev}); code != want {
			t.Errorf("--fail-on %s: exit %d, want %d", sev, code, want)
		}
	}
}

// The JSON report keeps the documented fields.
func TestJSONSchemaFields(t *testing.T) {
	var out, errOut bytes.Buffer
	Lint(&out, &errOut, "../../../examples/broken-pod", LintOptions{Format: "json", FailOn: judge.Error})
	var doc struct {
		Schema   string
		Findings []map[string]any
		Summary  map[string]any
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != "qoslint.report/v1" || len(doc.Findings) == 0 || doc.Summary["findings"] == nil {
		t.Fatalf("bad document: %s", out.String())
	}
	for _, key := range []string{"check", "severity", "device", "interface", "message", "expected", "actual", "source", "fix", "rollback"} {
		found := false
		for _, f := range doc.Findings {
			if _, ok := f[key]; ok {
				found = true
			}
		}
		if !found {
			t.Errorf("no finding has %q", key)
		}
	}
	src := doc.Findings[0]["source"].(map[string]any)
	if src["file"] == "" || src["line"] == nil {
		t.Errorf("source = %v", src)
	}
}
