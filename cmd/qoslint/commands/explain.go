package commands

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/waivers"
)

func newExplainCmd(out, _ io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "explain [CHECK-ID]",
		Short: "List the checks, or explain one",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "CHECK\tSEVERITY\tWHAT")
				// The merged not-collected finding and the waiver file's own
				// check are listed after the fabric's.
				for _, c := range append(checks.All(), checks.NotCollected, waivers.Check) {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", c.ID, c.Severity, c.Title)
				}
				return tw.Flush()
			}
			c := checks.Lookup(args[0])
			if c == nil && args[0] == waivers.Check.ID {
				c = waivers.Check
			}
			if c == nil {
				return fmt.Errorf("no check %q; `qoslint explain` lists them", args[0])
			}
			_, err := fmt.Fprintf(out, "%s (%s)\n%s\n\n%s\n", c.ID, c.Severity, c.Title, c.Doc)
			return err
		},
	}
}
