package commands

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/cmd/qoslint/app"
)

func newLintCmd(out, errOut io.Writer) *cobra.Command {
	var waiverFile string
	var rf reportFormats
	var prefix string
	var fo failOn
	var o output
	var fix bool
	var cf app.CheckFlags
	cmd := &cobra.Command{
		Use: "lint DIR",
		Example: `  qoslint lint examples/broken-pod
  qoslint lint . -f sarif -o qoslint.sarif
  qoslint lint . -f text -f sarif=qoslint.sarif -f junit=qoslint.xml   # one run, three reports
  qoslint lint fabric/inventory.yaml --fail-on none     # a file: its folder is linted`,
		Short: "Check a fabric directory (inventory + saved device outputs) offline",
		Long: `lint reads DIR/inventory.yaml (or inventory.hcl) and DIR/devices/<device>/..., builds what
each device effectively does, and reports every place where the RoCE marking chain breaks, with
the commands that fix it and roll the fix back.

DIR may also be a file in it (DIR/inventory.yaml): its folder is linted.

DIR/qoslint-waivers.yaml, when present, waives findings by check, device glob and interface
glob, each with a reason and an optional expiry date (` + "`qoslint explain waiver`" + `). Waived findings
are still reported, marked, and do not count against --fail-on; an expired or unused waiver is
reported as a warning.

Exit codes: 0 nothing at or above --fail-on (always, with --fail-on none), 1 findings at or above --fail-on,
2 the input could not be read (bad inventory or waiver file, unknown or missing device folder,
malformed file). A report is written in every format asked for even then: with no devices and
the input errors at their file and line when the inventory itself could not be read.`,
		Args:              exactArgs(1, "DIR, the fabric directory (or a file in it)"),
		ValidArgsFunction: completeDirs(1, false),
		RunE: func(cmd *cobra.Command, args []string) error {
			sev, reportOnly, err := fo.parse()
			if err != nil {
				return err
			}
			outs, err := rf.outputs(cmd, &o)
			if err != nil {
				return err
			}
			st, err := style(cmd, out, &o, reportOnly)
			if err != nil {
				return err
			}
			return o.run(out, func(w io.Writer) error {
				return exitCode(app.Lint(w, errOut, args[0], app.LintOptions{Outputs: outs, FailOn: sev, Fix: fix, Waivers: waiverFile, Checks: cf, Style: st, PathPrefix: prefix}))
			})
		},
	}
	rf.add(cmd)
	o.add(cmd)
	fo.add(cmd)
	cmd.Flags().BoolVar(&fix, "fix", false, "add each device's grouped fix and rollback commands to the report")
	addWaivers(cmd, &waiverFile, "DIR/qoslint-waivers.yaml when it exists")
	addCheckFlags(cmd, &cf)
	addLimit(cmd, &cf.Limit)
	cmd.Flags().StringVar(&cf.K8s, "k8s", "", "a folder of Kubernetes manifests (*.yaml) to judge with the fabric, besides DIR/k8s")
	_ = cmd.MarkFlagDirname("k8s")
	addPathPrefix(cmd, &prefix, "DIR's path below the git work tree that holds it")
	return cmd
}

// addPathPrefix adds --path-prefix, which lint, audit and demo share.
func addPathPrefix(cmd *cobra.Command, p *string, def string) {
	cmd.Flags().StringVar(p, "path-prefix", "",
		"sarif format: the fabric directory's path from the repository root, put before every file path (default "+def+")")
}

// addWaivers adds --waivers, which lint, audit and fix share.
func addWaivers(cmd *cobra.Command, p *string, def string) {
	cmd.Flags().StringVar(p, "waivers", "", "waiver file (default "+def+")")
	_ = cmd.MarkFlagFilename("waivers", "yaml", "yml")
}

// addLimit adds --limit, which lint, fix, audit and collect share
// (inventory.ParseLimit has the syntax).
func addLimit(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVar(p, "limit", "",
		"only these devices, as Ansible's --limit: names, globs (leaf*) or groups (all, switches, hosts, leaf, spine, super-spine, border), "+
			"separated by ',' or ':'; !PATTERN excludes, &PATTERN intersects; a pattern matching no device is an error")
}

// addCheckFlags adds --enable and --disable, which the commands that run
// the checks share (`qoslint help checks`, "Selecting checks").
func addCheckFlags(cmd *cobra.Command, cf *app.CheckFlags) {
	cmd.Flags().StringSliceVar(&cf.Enable, "enable", nil,
		"run only these checks: IDs or kinds (config, evidence, topology, input), comma-separated or repeated; adds to the inventory's checks.enable")
	cmd.Flags().StringSliceVar(&cf.Disable, "disable", nil,
		"do not report these checks (IDs or kinds); disable wins over enable; adds to the inventory's checks.disable")
	_ = cmd.RegisterFlagCompletionFunc("enable", completeCheckList)
	_ = cmd.RegisterFlagCompletionFunc("disable", completeCheckList)
}
