package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
)

// A switch whose `nv config show -o commands` capture has a line that
// cannot be read: lint exits 2 (the report is incomplete) and names that
// line, yet the switch is still checked on every other line, and the lines
// that are not configuration are notes. The capture is the broken pod's
// leaf02 as a terminal would save it: a comment, the prompt line, a login
// banner in the shape NVUE prints one (collectors/nvue/shell.go cites the
// real output), a quote that never closes, and `nv config apply`.
func TestLintCommandsCaptureWithABadLine(t *testing.T) {
	dir := copyDir(t, "../../../examples/broken-pod")
	p := filepath.Join(dir, "devices", "leaf02", "nv-config-commands.txt")
	orig, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// The example's own lines move down by the two header lines; the
	// banner spans four lines after them.
	n := strings.Count(string(orig), "\n")
	badLine, applyLine := n+7, n+8
	before := leaf02Findings(t, dir, "devices/leaf02/nv-config-commands.txt")
	capture := "# leaf02, saved from a terminal\n" +
		"cumulus@leaf02:mgmt:~$ nv config show -o commands\n" +
		string(orig) + // lines 3 to n+2
		"nv set system message pre-login '####################\n" + // n+3
		"# Authorized use only.\n# NVIDIA Cumulus'\"'\"' banner\n####################'\n" +
		"nv set system aaa user cumulus hashed-password '*\n" + // n+7
		"nv config apply\n" // n+8
	if err := os.WriteFile(p, []byte(capture), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := Lint(&out, &errOut, dir, LintOptions{Format: "json", FailOn: judge.Error})
	if code != ExitInput {
		t.Errorf("exit %d, want %d (incomplete)\n%s", code, ExitInput, errOut.String())
	}
	var r struct {
		Findings []struct {
			Check  string `json:"check"`
			Device string `json:"device"`
			Source struct {
				File string `json:"file"`
				Line int    `json:"line"`
			} `json:"source"`
		} `json:"findings"`
		Errors []struct {
			Device  string `json:"device"`
			File    string `json:"file"`
			Line    int    `json:"line"`
			Message string `json:"message"`
		} `json:"input_errors"`
		Notes []string `json:"notes"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	const file = "devices/leaf02/nv-config-commands.txt"
	if len(r.Errors) != 1 || r.Errors[0].Device != "leaf02" || r.Errors[0].File != file || r.Errors[0].Line != badLine ||
		!strings.Contains(r.Errors[0].Message, "unterminated single quote") {
		t.Errorf("input errors = %+v, want one at %s:%d", r.Errors, file, badLine)
	}
	for _, want := range []string{
		"leaf02: " + file + `:2: a shell prompt line, not configuration; skipped: "cumulus@leaf02:mgmt:~$ nv config show -o commands"`,
		fmt.Sprintf("leaf02: %s:%d: not configuration; skipped: \"nv config apply\"", file, applyLine),
	} {
		if !slices.Contains(r.Notes, want) {
			t.Errorf("notes lack %q: %q", want, r.Notes)
		}
	}
	// The planted defects of leaf02 (examples/broken-pod/README.md #4-#7),
	// two lines further down.
	var got []string
	for _, f := range r.Findings {
		if f.Device == "leaf02" && f.Source.File == file {
			got = append(got, fmt.Sprintf("%s:%d", f.Check, f.Source.Line))
		}
	}
	if len(before) < 4 {
		t.Fatalf("the broken pod's leaf02 has %d findings in its commands file, want its 4 planted ones", len(before))
	}
	for _, f := range before {
		if want := fmt.Sprintf("%s:%d", f.check, f.line+2); !slices.Contains(got, want) {
			t.Errorf("leaf02 findings %v lack %s", got, want)
		}
	}
}

type lineFinding struct {
	check string
	line  int
}

// leaf02Findings lints dir and returns leaf02's findings whose evidence is
// in file.
func leaf02Findings(t *testing.T, dir, file string) []lineFinding {
	t.Helper()
	r, err := BuildReport(dir, judge.Error)
	if err != nil {
		t.Fatal(err)
	}
	var out []lineFinding
	for _, f := range r.Findings {
		if f.Device == "leaf02" && f.Source.File == file {
			out = append(out, lineFinding{f.Check, f.Source.Line})
		}
	}
	return out
}
