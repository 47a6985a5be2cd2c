package commands

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/render"
)

func newLintCmd(out, errOut io.Writer) *cobra.Command {
	var format, failOn, waiverFile string
	var fix bool
	var cf app.CheckFlags
	cmd := &cobra.Command{
		Use:   "lint DIR",
		Short: "Check a fabric directory (inventory + saved device outputs) offline",
		Long: `lint reads DIR/inventory.yaml (or inventory.hcl) and DIR/devices/<device>/..., builds what
each device effectively does, and reports every place where the RoCE marking chain breaks, with
the commands that fix it and roll the fix back.

DIR/qoslint-waivers.yaml, when present, waives findings by check, device glob and interface
glob, each with a reason and an optional expiry date (` + "`qoslint explain waiver`" + `). Waived findings
are still reported, marked, and do not count against --fail-on; an expired or unused waiver is
reported as a warning.

Exit codes: 0 nothing at or above --fail-on, 1 findings at or above --fail-on,
2 the input could not be read (bad inventory or waiver file, unknown or missing device folder,
malformed file).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sev, err := checks.ParseSeverity(failOn)
			if err != nil {
				return err
			}
			return exitCode(app.Lint(out, errOut, args[0], app.LintOptions{Format: format, FailOn: sev, Fix: fix, Waivers: waiverFile, Checks: cf}))
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", fmt.Sprintf("output format: %s", strings.Join(render.FormatNames(), "|")))
	cmd.Flags().StringVar(&failOn, "fail-on", "error", "lowest severity that makes the exit code 1: error|warning|info")
	cmd.Flags().BoolVar(&fix, "fix", false, "add each device's grouped fix and rollback commands to the report")
	cmd.Flags().StringVar(&waiverFile, "waivers", "", "waiver file (default DIR/qoslint-waivers.yaml when it exists)")
	addCheckFlags(cmd, &cf)
	return cmd
}

// addCheckFlags adds --enable and --disable, which the commands that run
// the checks share (README "Selecting checks").
func addCheckFlags(cmd *cobra.Command, cf *app.CheckFlags) {
	cmd.Flags().StringSliceVar(&cf.Enable, "enable", nil,
		"run only these checks: IDs or kinds (config, evidence, topology, input), comma-separated or repeated; adds to the inventory's checks.enable")
	cmd.Flags().StringSliceVar(&cf.Disable, "disable", nil,
		"do not report these checks (IDs or kinds); disable wins over enable; adds to the inventory's checks.disable")
}
