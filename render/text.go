package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/qoslint/qoslint/checks"
)

// Text writes the report for a terminal: a summary line, input errors, then
// findings grouped by device, each with its evidence, fix and rollback.
func Text(w io.Writer, r *Report) error {
	r.Normalize()
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "fabric %s: %s\n", r.fabricName(), summary(r))
	if l := skippedLine(r); l != "" {
		fmt.Fprintln(bw, l)
	}

	if len(r.Notes) > 0 {
		fmt.Fprintln(bw)
		fmt.Fprintln(bw, "notes")
		for _, n := range r.Notes {
			fmt.Fprintf(bw, "  %s\n", n)
		}
	}
	if len(r.Errors) > 0 {
		fmt.Fprintln(bw)
		fmt.Fprintf(bw, "input errors (%s)\n", r.inputErrorsNote())
		for _, e := range r.Errors {
			fmt.Fprintf(bw, "  %s\n", e.Error())
		}
	}

	byDevice := map[string][]checks.Finding{}
	for _, f := range r.Findings {
		byDevice[f.Device] = append(byDevice[f.Device], f)
	}
	broken := map[string]bool{}
	for _, e := range r.Errors {
		broken[e.Device] = true
	}
	var clean []string
	for _, d := range r.Sections() {
		fs := byDevice[d.Name]
		if len(fs) == 0 {
			if !broken[d.Name] {
				clean = append(clean, d.Name)
			}
			continue
		}
		fmt.Fprintln(bw)
		if d.Kind == "" {
			fmt.Fprintln(bw, d.Name)
		} else {
			fmt.Fprintf(bw, "%s (%s)\n", d.Name, d.Kind)
		}
		for _, f := range fs {
			writeFinding(bw, f, d.Release, r.Color)
		}
	}
	if len(clean) > 0 {
		fmt.Fprintln(bw)
		fmt.Fprintf(bw, "no findings: %s\n", strings.Join(clean, ", "))
	}
	for _, p := range r.Plans {
		fmt.Fprintln(bw)
		fmt.Fprintf(bw, "fix for %s (%s), checks %s:\n", p.Device, p.Kind, strings.Join(p.Checks, ", "))
		for _, l := range p.Fix {
			fmt.Fprintf(bw, "  %s\n", l)
		}
		fmt.Fprintln(bw, "rollback:")
		for _, l := range p.Rollback {
			fmt.Fprintf(bw, "  %s\n", l)
		}
	}
	fmt.Fprintln(bw)
	word, detail := verdict(r)
	if word == "INCOMPLETE" && len(r.NotAudited) == 0 {
		detail = counted(len(r.Errors), "input error") + "; " + detail
	}
	fmt.Fprintf(bw, "%s %s\n", Paint(r.Color, verdictColor[word], word+":"), detail)
	return bw.Flush()
}

// verdictColor is the colour of a verdict word.
var verdictColor = map[string]string{"INCOMPLETE": sgrBold + sgrRed, "FAIL": sgrBold + sgrRed, "PASS": sgrBold + sgrGreen, "REPORT ONLY": sgrBold}

const indent = "           "

func writeFinding(w io.Writer, f checks.Finding, rel Release, color bool) {
	where := f.Check
	if f.Interface != "" {
		where += " " + f.Interface
	}
	sev := f.Severity.String()
	if f.Waived {
		sev += " (waived)"
	}
	pad := strings.Repeat(" ", max(0, 8-len(sev)))
	fmt.Fprintf(w, "  %s%s %s\n", PaintSeverity(color, f.Severity, f.Waived, sev), pad, where)
	fmt.Fprintf(w, "%s%s\n", indent, f.Message)
	field := func(label string, lines ...string) {
		for i, l := range lines {
			if i == 0 {
				fmt.Fprintf(w, "%s%-9s %s\n", indent, label+":", l)
			} else {
				fmt.Fprintf(w, "%s%-9s %s\n", indent, "", l)
			}
		}
	}
	if f.Waived {
		field("waived", f.WaiverReason)
	}
	if f.Expected != "" {
		field("expected", f.Expected)
	}
	if f.Actual != "" {
		field("actual", f.Actual)
	}
	if s := f.Source.String(); s != "" {
		field("evidence", s)
	}
	fix, rb := findingCommands(rel, f)
	if len(fix) > 0 {
		field("fix", fix...)
	}
	if len(rb) > 0 {
		field("rollback", rb...)
	}
}
