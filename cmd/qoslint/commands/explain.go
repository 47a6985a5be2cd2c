package commands

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/waivers"
)

// catalog is every check `explain` knows: the fabric's, then the merged
// not-collected finding and the waiver file's own check.
func catalog() []*checks.Check {
	return append(checks.All(), checks.NotCollected, waivers.Check)
}

func newExplainCmd(out, _ io.Writer) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "explain [CHECK-ID]",
		Short: "List the checks, or explain one",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				switch format {
				case "text":
					return explainText(out)
				case "markdown":
					_, err := io.WriteString(out, explainMarkdown())
					return err
				}
				return fmt.Errorf("unknown format %q (text or markdown)", format)
			}
			c := checks.Lookup(args[0])
			if c == nil && args[0] == waivers.Check.ID {
				c = waivers.Check
			}
			if c == nil {
				return fmt.Errorf("no check %q; `qoslint explain` lists them", args[0])
			}
			_, err := io.WriteString(out, explainOne(c))
			return err
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "text, or markdown (the README's check table)")
	return cmd
}

// explainOne is one check: its declaration, then its documentation.
func explainOne(c *checks.Check) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n%s\n\n", c.ID, c.Severity, c.Title)
	fmt.Fprintf(&b, "kind:     %s\n", c.Kind)
	fmt.Fprintf(&b, "devices:  %s\n", devicesText(c))
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

func explainText(out io.Writer) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CHECK\tKIND\tSEVERITY\tWHAT")
	for _, c := range catalog() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.ID, c.Kind, c.Severity, c.Title)
	}
	return tw.Flush()
}

// explainMarkdown is the check table of the README, generated from the
// catalog so that the two cannot disagree (a test compares them).
func explainMarkdown() string {
	var b strings.Builder
	b.WriteString("| ID | kind | applies to | severity | what it checks |\n| --- | --- | --- | --- | --- |\n")
	for _, c := range catalog() {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", c.ID, c.Kind, devicesText(c), c.Severity, strings.ReplaceAll(c.Title, "|", `\|`))
	}
	return b.String()
}
