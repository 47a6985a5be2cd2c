package commands

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/waivers"
	"github.com/qoslint/qoslint/render"
)

// catalog is every check `explain` knows: the fabric's, then the merged
// not-collected finding and the waiver file's own check.
func catalog() []*checks.Check {
	return append(checks.All(), checks.NotCollected, waivers.Check)
}

var explainFormats = []string{"text", "markdown"}

func newExplainCmd(out, _ io.Writer) *cobra.Command {
	var format string
	var o output
	cmd := &cobra.Command{
		Use:               "explain [CHECK-ID]",
		Short:             "List the checks, or explain one",
		Args:              maxArgs(1, "one CHECK-ID (qoslint explain lists them)"),
		ValidArgsFunction: completeCheckArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(explainFormats, format) {
				return fmt.Errorf("--format %q: text or markdown", format)
			}
			color, err := colorOn(cmd, out, o.toFile())
			if err != nil {
				return err
			}
			return o.run(out, func(w io.Writer) error { return explain(w, args, format, color) })
		},
	}
	addFormat(cmd, &format, "text", explainFormats, "text, or markdown (the check table of qoslint help checks)")
	o.add(cmd)
	return cmd
}

// explain writes the list of checks, or one check; markdown is never
// coloured (it is a document, not a terminal view).
func explain(w io.Writer, args []string, format string, color bool) error {
	if len(args) == 0 {
		if format == "markdown" {
			_, err := io.WriteString(w, explainMarkdown())
			return err
		}
		return explainText(w, color)
	}
	c := checks.Lookup(args[0])
	if c == nil && args[0] == waivers.Check.ID {
		c = waivers.Check
	}
	if c == nil {
		var ids []string
		for _, c := range catalog() {
			ids = append(ids, c.ID)
		}
		if near := checks.Nearest(args[0], ids); near != "" {
			return fmt.Errorf("no check %q; did you mean %s? `qoslint explain` lists them", args[0], near)
		}
		return fmt.Errorf("no check %q; `qoslint explain` lists them", args[0])
	}
	_, err := io.WriteString(w, explainOne(c, color && format == "text"))
	return err
}

// explainOne is one check: its declaration, then its documentation.
func explainOne(c *checks.Check, color bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n%s\n\n", c.ID, render.PaintSeverity(color, c.Severity, false, c.Severity.String()), c.Title)
	fmt.Fprintf(&b, "kind:     %s\n", c.Kind)
	fmt.Fprintf(&b, "devices:  %s\n", devicesText(c))
	if oses := checks.SwitchOSes(c); len(oses) > 0 {
		fmt.Fprintf(&b, "switches: %s\n", strings.Join(oses, ", "))
	}
	var ins, reqs []string
	for _, in := range c.Inputs {
		ins = append(ins, string(in))
	}
	for _, r := range c.Requires {
		reqs = append(reqs, r.ID)
	}
	fmt.Fprintf(&b, "inputs:   %s\n", orNone(ins))
	fmt.Fprintf(&b, "requires: %s\n\n%s\n", orNone(reqs), c.Doc)
	return b.String()
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// devicesText is what a check applies to; the waiver check judges no
// device but the waiver file.
func devicesText(c *checks.Check) string {
	if c.ID == waivers.Check.ID {
		return "waiver file"
	}
	return c.Devices.String()
}

// explainText is the table of checks. The columns are padded by hand, not
// by text/tabwriter, so that a coloured severity (escapes have no width
// on a terminal) stays aligned with the uncoloured header.
func explainText(out io.Writer, color bool) error {
	rows := [][4]string{{"CHECK", "KIND", "SEVERITY", "WHAT"}}
	for _, c := range catalog() {
		rows = append(rows, [4]string{c.ID, string(c.Kind), c.Severity.String(), c.Title})
	}
	var width [3]int
	for _, r := range rows {
		for i := range width {
			width[i] = max(width[i], len(r[i]))
		}
	}
	var b strings.Builder
	for n, r := range rows {
		for i := range width {
			cell := r[i]
			if i == 2 && n > 0 {
				cell = render.PaintSeverity(color, catalog()[n-1].Severity, false, cell)
			}
			b.WriteString(cell + strings.Repeat(" ", width[i]-len(r[i])+2))
		}
		b.WriteString(r[3] + "\n")
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// explainMarkdown is the check table of `qoslint help checks`, generated
// from the catalog so that the two cannot disagree (TestChecksTopic).
func explainMarkdown() string {
	var b strings.Builder
	b.WriteString("| ID | kind | applies to | severity | what it checks |\n| --- | --- | --- | --- | --- |\n")
	for _, c := range catalog() {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", c.ID, c.Kind, devicesText(c), c.Severity, strings.ReplaceAll(c.Title, "|", `\|`))
	}
	return b.String()
}

// checksReference is the generated part of `qoslint help checks`
// (cmd/qoslint/help/checks.md): the table, then one section per check
// headed by its bare ID, so that GitHub gives it the anchor #<id> that
// SARIF rules' helpUri names. The body is what `qoslint explain ID`
// prints, fenced, since check docs are plain text (`<if>`, `DSCP>>3`)
// that markdown would otherwise read as HTML or emphasis.
func checksReference() string {
	var b strings.Builder
	b.WriteString(explainMarkdown())
	for _, c := range catalog() {
		fmt.Fprintf(&b, "\n### %s\n\n```text\n%s```\n", c.ID, explainOne(c, false))
	}
	return b.String()
}
