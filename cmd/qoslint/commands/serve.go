package commands

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/collectors/live"
)

func newServeCmd(_, errOut io.Writer) *cobra.Command {
	var lf liveFlags
	var opt app.ServeOptions
	var failOn string
	cmd := &cobra.Command{
		Use:   "serve --inventory FILE",
		Short: "Audit the fabric on a schedule and serve Prometheus metrics, the report and the drift",
		Long: `serve audits every device of the inventory at once and then every --interval (plus up
to a tenth of it at random; never two runs at once), and serves over HTTP:

  /metrics              the latest run's metrics (as --format prometheus) and qoslint_runs_total
  /probe?target=DEVICE  audits one device now and answers with its metrics (blackbox-exporter style)
  /report               the latest run's HTML report
  /drift                what changed between the last two runs (?format=text|json|markdown|html)
  /healthz              ok

Each run's snapshot is kept in --state-dir (the newest --keep). The address is loopback
unless --allow-remote. SIGTERM or Ctrl-C stops serve: the run in flight is cancelled.

Exit codes: 0 after a shutdown, 2 the settings, the inventory or the waiver file are wrong,
or the address cannot be listened on.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			sev, err := judge.ParseSeverity(failOn)
			if err != nil {
				return err
			}
			if err := lf.validate(); err != nil {
				return err
			}
			if opt.Every <= 0 {
				// Zero would audit without a pause; it is refused rather
				// than read as the default, which would hide the typo.
				return fmt.Errorf("--interval %s: must be positive (the time between two runs, e.g. 10m)", opt.Every)
			}
			opt.LiveOptions = lf.options(nil) // no progress bar: serve logs
			opt.FailOn = sev
			ctx, stop := interruptible()
			defer stop()
			return exitCode(app.Serve(ctx, errOut, opt))
		},
	}
	f := cmd.Flags()
	f.StringVar(&lf.inventory, "inventory", "", "inventory file (inventory.yaml or inventory.hcl)")
	_ = cmd.MarkFlagRequired("inventory")
	f.IntVar(&lf.workers, "workers", 32, "devices collected at once")
	f.DurationVar(&lf.commandTimeout, "command-timeout", 30*time.Second, "longest wait for one command (and the login)")
	f.DurationVar(&lf.devTime, "device-timeout", 2*time.Minute, "longest time for one device")
	f.BoolVar(&lf.insecureSkipHostKeyCheck, "insecure-skip-host-key-check", false, "do not verify host keys against known_hosts (the report says so)")
	f.Int64Var(&lf.maxOutput, "max-output", live.DefaultMaxOutput, "most bytes one command may print")
	f.StringVar(&opt.Listen, "listen", app.DefaultServeListen, "address to serve HTTP on (loopback unless --allow-remote)")
	f.BoolVar(&opt.AllowRemote, "allow-remote", false, "allow a --listen address that is not loopback")
	f.DurationVar(&opt.Every, "interval", app.DefaultServeInterval, "time between two runs")
	f.StringVar(&opt.StateDir, "state-dir", "", "where each run's snapshot is kept (default "+app.StateDirName+" beside the inventory)")
	f.IntVar(&opt.Keep, "keep", app.DefaultServeKeep, "snapshots kept in --state-dir, at least 2")
	f.StringVar(&failOn, "fail-on", "error", "lowest severity a run counts as findings in qoslint_runs_total: error|warning|info")
	f.StringVar(&opt.Waivers, "waivers", "", "waiver file (default qoslint-waivers.yaml beside the inventory when it exists)")
	addCheckFlags(cmd, &opt.Checks)
	return cmd
}
