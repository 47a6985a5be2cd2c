package render_test

import (
	"bytes"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/render"
)

// notJudgedReport is what lint reports when its inventory does not parse
// (app's inputErrorReport): no devices, the error at its file and line.
func notJudgedReport() *render.Report {
	return &render.Report{
		NotJudged: true, FailOn: judge.Error, Run: goldenRun, Host: "ci-runner",
		Errors: []*source.Error{source.Errorf("inventory.hcl", 3, `Unsupported argument: An argument named "dscpp" is not expected here. Did you mean "dscp"?`)},
	}
}

// Every format but SARIF (its run-level notification is SARIF's own
// work) as a golden file; SARIF must still be written.
func TestNotJudgedGolden(t *testing.T) {
	for name, format := range render.Formatters() {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := format(&b, notJudgedReport()); err != nil {
				t.Fatal(err)
			}
			if name == "sarif" {
				if b.Len() == 0 {
					t.Error("no SARIF written")
				}
				return
			}
			golden(t, "not-judged."+name+".golden", b.Bytes())
		})
	}
}
