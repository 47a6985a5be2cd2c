package commands

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/cmd/qoslint/app"
)

func newFixCmd(out, errOut io.Writer) *cobra.Command {
	var opt app.FixOptions
	var o output
	cmd := &cobra.Command{
		Use:   "fix DIR",
		Short: "Print or write the commands that fix every finding, with their rollback",
		Long: `fix groups the corrective commands of every finding by device: NVUE nv set/unset lines
with one nv config apply for switches; mlnx_qos, sysfs, nccl.conf and ip link lines for hosts.
Each fix comes with the rollback built from the collected current values.

--out DIR writes <device>.sh and <device>.rollback.sh for every device, plus <switch>.nv (nv set
lines) and <switch>.patch.yaml (for nv config patch). DIR must be new or empty: --force replaces
a non-empty DIR whole, so no script of an earlier run is left beside the new ones. --preview OUT writes a copy of the fabric
directory as it would be after the fixes, so the change can be linted first. --templates DIR
overrides the embedded command templates (see templates/). Progress and "wrote" lines go to
standard error; -o FILE writes what would go to standard output to FILE.

Without --out the scripts are printed; with --out they are only written, and standard output
holds the summary alone. The summary (shell comments) ends every run: how many devices have a
fix, and per device the errors and warnings no command fixes (a cable to move, what the wire
or the counters show), with a count of such info findings. Host scripts say which of their
settings last only until the next reboot (mlnx_qos, sysfs, ip link, setpci) and that
mlxconfig changes apply after a firmware reset (mlxfwreset) or a reboot.`,
		Args:              exactArgs(1, "DIR, the fabric directory (or a file in it)"),
		ValidArgsFunction: completeDirs(1, false),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(out, func(w io.Writer) error {
				return exitCode(app.Fix(w, errOut, args[0], opt))
			})
		},
	}
	addFormat(cmd, &opt.Format, "script", app.FixFormats, "what to print")
	o.add(cmd)
	addWaivers(cmd, &opt.Waivers, "DIR/qoslint-waivers.yaml when it exists; waived findings are not fixed")
	cmd.Flags().StringVar(&opt.Out, "out", "", "directory to write every form of every device's fix to (new or empty)")
	cmd.Flags().BoolVar(&opt.Force, "force", false, "replace a non-empty --out directory whole")
	cmd.Flags().StringVar(&opt.Preview, "preview", "", "directory to write the fabric as it would be after the fixes")
	cmd.Flags().StringVar(&opt.Templates, "templates", "", "directory of *.tmpl files overriding the embedded templates")
	for _, f := range []string{"out", "preview", "templates"} {
		_ = cmd.MarkFlagDirname(f)
	}
	addCheckFlags(cmd, &opt.Checks)
	addLimit(cmd, &opt.Checks.Limit)
	return cmd
}
