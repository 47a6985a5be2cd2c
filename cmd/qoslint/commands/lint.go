package commands

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/app"
	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/render"
)

func newLintCmd(out, errOut io.Writer) *cobra.Command {
	var format, failOn string
	var fix bool
	cmd := &cobra.Command{
		Use:   "lint DIR",
		Short: "Check a fabric directory (inventory + saved device outputs) offline",
		Long: `lint reads DIR/inventory.yaml (or inventory.hcl) and DIR/devices/<device>/..., builds what
each device effectively does, and reports every place where the RoCE marking chain breaks, with
the commands that fix it and roll the fix back.

Exit codes: 0 nothing at or above --fail-on, 1 findings at or above --fail-on,
2 the input could not be read (bad inventory, unknown or missing device folder, malformed file).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sev, err := checks.ParseSeverity(failOn)
			if err != nil {
				return err
			}
			return exitCode(app.Lint(out, errOut, args[0], app.LintOptions{Format: format, FailOn: sev, Fix: fix}))
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", fmt.Sprintf("output format: %s", strings.Join(render.FormatNames(), "|")))
	cmd.Flags().StringVar(&failOn, "fail-on", "error", "lowest severity that makes the exit code 1: error|warning|info")
	cmd.Flags().BoolVar(&fix, "fix", false, "add each device's grouped fix and rollback commands to the report")
	return cmd
}
