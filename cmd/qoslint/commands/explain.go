package commands

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/checks"
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
				for _, c := range checks.All() {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", c.ID, c.Severity, c.Title)
				}
				return tw.Flush()
			}
			c := checks.Lookup(args[0])
			if c == nil {
				return fmt.Errorf("no check %q; `qoslint explain` lists them", args[0])
			}
			_, err := fmt.Fprintf(out, "%s (%s)\n%s\n\n%s\n", c.ID, c.Severity, c.Title, c.Doc)
			return err
		},
	}
}
