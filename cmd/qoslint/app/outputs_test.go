package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/render"
)

// fixedRun stops the clock and names the machine, so that the formats
// that print the run's time and host are the same bytes run after run.
func fixedRun(t *testing.T) {
	t.Helper()
	oldNow, oldHost := now, hostname
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	now = func() time.Time { return at }
	hostname = func() string { return "ci-runner" }
	t.Cleanup(func() { now, hostname = oldNow, oldHost })
}

// countChecks counts the check runs of the test.
func countChecks(t *testing.T) *int {
	t.Helper()
	n := new(int)
	old := runChecks
	runChecks = func(fab *model.Fabric, set *checks.Set) ([]checks.Finding, []checks.Status) {
		*n++
		return old(fab, set)
	}
	t.Cleanup(func() { runChecks = old })
	return n
}

// issue 22 item 5: every format of the catalog from one run, with one
// model and one check run, each byte for byte the report of a run of
// that format alone.
func TestOneCheckRun(t *testing.T) {
	fixedRun(t)
	runs := countChecks(t)
	dir := t.TempDir()
	outs := []Output{{Format: "text"}}
	for _, name := range render.FormatNames() {
		outs = append(outs, Output{Format: name, Path: filepath.Join(dir, "r."+name)})
	}
	var out, errOut bytes.Buffer
	code := Lint(&out, &errOut, "../../../examples/broken-pod", LintOptions{Outputs: outs, FailOn: judge.Error, Fix: true})
	if code != ExitFindings || *runs != 1 {
		t.Fatalf("exit %d, %d check runs; want 1 and 1\n%s", code, *runs, errOut.String())
	}
	for _, o := range outs {
		var alone bytes.Buffer
		if c := Lint(&alone, &errOut, "../../../examples/broken-pod", LintOptions{Format: o.Format, FailOn: judge.Error, Fix: true}); c != code {
			t.Errorf("-f %s alone: exit %d", o.Format, c)
		}
		got := out.Bytes()
		if o.Path != "" {
			var err error
			if got, err = os.ReadFile(o.Path); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(got, alone.Bytes()) {
			t.Errorf("-f %s differs from a run of its own", o)
		}
	}
	if *runs != 1+len(outs) {
		t.Errorf("%d check runs, want one per Lint", *runs)
	}
}

// Colour is for the terminal: a file written beside it never gets an
// escape.
func TestFileOutputsHaveNoColour(t *testing.T) {
	file := filepath.Join(t.TempDir(), "r.txt")
	var out, errOut bytes.Buffer
	Lint(&out, &errOut, "../../../examples/broken-pod", LintOptions{
		Outputs: []Output{{Format: "text"}, {Format: "text", Path: file}}, FailOn: judge.Error, Style: Style{Color: true},
	})
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out.Bytes(), []byte("\x1b[")) || bytes.Contains(data, []byte("\x1b[")) {
		t.Errorf("escapes on stdout %v, in the file %v; want true, false", bytes.Contains(out.Bytes(), []byte("\x1b[")), bytes.Contains(data, []byte("\x1b[")))
	}
}

// The input errors of a run that stops before the model keep their
// positions: each of a joined list (an unknown check name in the
// inventory and one on the command line) is its own error.
func TestInputErrorReportPositions(t *testing.T) {
	dir := copyDir(t, "../../../examples/clean-pod")
	p := filepath.Join(dir, "inventory.hcl")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append(data, "checks {\n  enable = [\"no-such-check\"]\n}\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := Lint(&out, &errOut, dir, LintOptions{Format: "json", FailOn: judge.Error, Checks: CheckFlags{Disable: []string{"nor-this"}}})
	if code != ExitInput {
		t.Fatalf("exit %d\n%s", code, errOut.String())
	}
	var doc struct {
		InputErrors []struct {
			File    string
			Line    int
			Message string
		} `json:"input_errors"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	// Sorted by position: no file first.
	e := doc.InputErrors
	if len(e) != 2 || e[0].File != "" || !strings.Contains(e[0].Message, `"nor-this"`) ||
		e[1].File != "inventory.hcl" || e[1].Line == 0 || !strings.Contains(e[1].Message, `"no-such-check"`) {
		t.Errorf("input errors %+v, want --disable's at no position and the inventory's at its line", e)
	}
}
