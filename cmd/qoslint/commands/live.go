package commands

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/collectors/live"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/examples"
)

// interruptible is the context every live command runs in: Ctrl-C or
// SIGTERM cancels it, and the command still writes what it has.
func interruptible() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// progressWriter is stderr when it is a terminal outside CI, else nil: the
// bar is for people, never for logs.
func progressWriter(errOut io.Writer) io.Writer {
	f, ok := errOut.(*os.File)
	if !ok || os.Getenv("CI") != "" || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return errOut
}

type liveFlags struct {
	inventory                string
	workers                  int
	commandTimeout, devTime  time.Duration
	insecureSkipHostKeyCheck bool
	counters                 bool
	jobEnv                   bool
	interval                 time.Duration
	maxOutput                int64
	limit                    string
}

func (l *liveFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&l.inventory, "inventory", "", "inventory file (inventory.yaml or inventory.hcl)")
	inventoryFile(cmd, "inventory")
	cmd.Flags().IntVar(&l.workers, "workers", 32, "devices collected at once")
	cmd.Flags().DurationVar(&l.commandTimeout, "command-timeout", 30*time.Second, "longest wait for one command (and the login)")
	cmd.Flags().DurationVar(&l.devTime, "device-timeout", 2*time.Minute, "longest time for one device")
	cmd.Flags().BoolVar(&l.insecureSkipHostKeyCheck, "insecure-skip-host-key-check", false,
		"do not verify host keys against known_hosts (the report says so)")
	cmd.Flags().BoolVar(&l.counters, "counters", false,
		"also collect runtime counters: ethtool -S of every RoCE NIC (ethtool-S-<netdev>.txt) and each switch's gNMI counters (gnmi-counters.json)")
	cmd.Flags().BoolVar(&l.jobEnv, "job-env", false,
		"also read the job environment of running NCCL processes (/proc/<pid>/environ, the lowest pid with NCCL_ variables; sudo -n where the inventory says so) "+
			"into nccl-env.txt, keeping only NCCL_*, UCX_*, NVSHMEM_* and HOME")
	cmd.Flags().DurationVar(&l.interval, "interval", 0,
		"with --counters: take the counters twice, this far apart (e.g. 30s), and judge what grew in between")
	cmd.Flags().Int64Var(&l.maxOutput, "max-output", live.DefaultMaxOutput,
		"most bytes one command may print; a device whose command prints more fails with that cause")
	_ = cmd.MarkFlagRequired("inventory")
}

// validate rejects flag combinations that mean nothing.
func (l *liveFlags) validate() error {
	switch {
	case l.workers < 1:
		return fmt.Errorf("--workers %d: at least 1 device at a time", l.workers)
	case l.commandTimeout <= 0:
		return fmt.Errorf("--command-timeout %s: must be positive", l.commandTimeout)
	case l.devTime <= 0:
		return fmt.Errorf("--device-timeout %s: must be positive", l.devTime)
	case l.maxOutput < 1:
		return fmt.Errorf("--max-output %d: must be positive", l.maxOutput)
	case l.interval < 0:
		return fmt.Errorf("--interval %s is negative", l.interval)
	case l.interval > 0 && !l.counters:
		return fmt.Errorf("--interval needs --counters: it is the gap between two counter samples")
	}
	return nil
}

func (l *liveFlags) options(errOut io.Writer) app.LiveOptions {
	return app.LiveOptions{
		Inventory: l.inventory, Workers: l.workers, CommandTimeout: l.commandTimeout, DeviceTimeout: l.devTime,
		InsecureSkipHostKeyCheck: l.insecureSkipHostKeyCheck, Progress: progressWriter(errOut), Counters: l.counters,
		Interval: l.interval, MaxOutput: l.maxOutput, JobEnv: l.jobEnv, Limit: l.limit,
	}
}

const liveExitCodes = `Exit codes: 0 nothing at or above --fail-on (always, with --fail-on none), 1 findings at or above --fail-on,
2 the inventory or the waiver file could not be read, 3 the audit is incomplete: some devices
could not be collected or answered with output that could not be read (the report names each
and why). Every report asked for (-f FORMAT, -f FORMAT=PATH, -o FILE) is written whatever the
exit code; when the inventory or the waiver file cannot be read it has no devices and the input
errors at their file and line.`

func newAuditCmd(out, errOut io.Writer) *cobra.Command {
	var lf liveFlags
	var waiverFile string
	var rf reportFormats
	var prefix string
	var fo failOn
	var o output
	var fix bool
	var cf app.CheckFlags
	cmd := &cobra.Command{
		Use:   "audit --inventory FILE",
		Short: "Collect every device live over SSH and check the fabric",
		Long: `audit logs in to every switch and GPU host of the inventory over SSH (read-only commands
from a fixed allowlist), then reports exactly as lint does on the same data, with the waivers of
qoslint-waivers.yaml beside the inventory file when it exists (or --waivers).

` + liveExitCodes,
		Example: `  qoslint audit --inventory inventory.yaml -f text -f sarif=qoslint.sarif -f junit=qoslint.xml`,
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			sev, reportOnly, err := fo.parse()
			if err != nil {
				return err
			}
			if err := lf.validate(); err != nil {
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
			ctx, stop := interruptible()
			defer stop()
			return o.run(out, func(w io.Writer) error {
				return exitCode(app.Audit(ctx, w, errOut, app.AuditOptions{LiveOptions: lf.options(errOut), Outputs: outs, FailOn: sev, Fix: fix, Waivers: waiverFile, Checks: cf, Style: st, PathPrefix: prefix}))
			})
		},
	}
	lf.add(cmd)
	addLimit(cmd, &lf.limit)
	addCheckFlags(cmd, &cf)
	rf.add(cmd)
	o.add(cmd)
	fo.add(cmd)
	cmd.Flags().BoolVar(&fix, "fix", false, "add each device's grouped fix and rollback commands to the report")
	addWaivers(cmd, &waiverFile, "qoslint-waivers.yaml beside the inventory when it exists")
	addPathPrefix(cmd, &prefix, "the inventory folder's path below the git work tree that holds it")
	return cmd
}

func newCollectCmd(_, errOut io.Writer) *cobra.Command {
	var lf liveFlags
	var outDir string
	var force bool
	cmd := &cobra.Command{
		Use:   "collect --inventory FILE --out DIR",
		Short: "Collect every device live and save a fabric directory for lint",
		Long: `collect saves what audit reads, in the fabric-directory layout (inventory included), so
that qoslint lint DIR gives the same findings later, in CI or elsewhere. It also writes
DIR/.qoslint/capture.json, the capture manifest: each device's status and every file's
command, size and SHA-256. lint checks the capture against it, so a lint that passes means
every device was read completely and nothing changed since. Interrupted, collect still
writes what it collected, and the manifest marks what is missing.

DIR must be new or empty: --force replaces a non-empty DIR whole (nothing of the old one
is kept). DIR appears at once, when the collection is over.

Exit codes: 0 every device collected, 2 the inventory could not be read or DIR written
(or DIR is not empty, without --force), 3 some devices could not be collected (each is
named with its cause) or the collection was interrupted.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := lf.validate(); err != nil {
				return err
			}
			ctx, stop := interruptible()
			defer stop()
			opt := lf.options(errOut)
			opt.Force = force
			return exitCode(app.Collect(ctx, errOut, opt, outDir))
		},
	}
	lf.add(cmd)
	addLimit(cmd, &lf.limit)
	cmd.Flags().StringVar(&outDir, "out", "", "directory to write the fabric directory to (new or empty)")
	_ = cmd.MarkFlagDirname("out")
	cmd.Flags().BoolVar(&force, "force", false, "replace a non-empty --out directory whole")
	_ = cmd.MarkFlagRequired("out")
	return cmd
}

func newSimCmd(out, errOut io.Writer) *cobra.Command {
	var opt app.SimOptions
	cmd := &cobra.Command{
		Use:   "sim DIR",
		Short: "Serve a fabric directory over SSH on loopback, one port per device",
		Long: `sim answers qoslint's read-only commands from each device's files, with a shell prompt
like the real device, so you can demo qoslint audit or test your own captures. It writes an
inventory for the simulated devices (the password comes from $` + app.SimPasswordEnv + `,
generated when unset) and the known_hosts file that inventory names, then runs until interrupted.

The inventory and its known_hosts go to a new temporary folder (its path is printed on standard
error; it is removed when sim stops), or to --inventory-out PATH with the known_hosts (and, with
--gnmi, the CA) beside it. sim never replaces a file without --force (exit 2 names the file),
and copies the fabric's cabling plan (topology.dot) beside the inventory, where audit reads it,
only with --topology.`,
		Example: `  qoslint sim examples/clean-pod
  qoslint sim examples/broken-pod --inventory-out /tmp/pod/sim-inventory.yaml --topology`,
		Args:              exactArgs(1, "DIR, the fabric directory to serve"),
		ValidArgsFunction: completeDirs(1, false),
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Dir = app.FabricDir(args[0])
			ctx, stop := interruptible()
			defer stop()
			return exitCode(app.Sim(ctx, out, errOut, opt))
		},
	}
	cmd.Flags().StringVar(&opt.Listen, "listen", "127.0.0.1", "loopback address to listen on")
	cmd.Flags().DurationVar(&opt.Latency, "latency", 0, "delay added before each answer")
	cmd.Flags().StringVar(&opt.InventoryOut, "inventory-out", "", "where to write the inventory of the simulated devices, its known_hosts beside it (default: a new temporary folder)")
	_ = cmd.MarkFlagFilename("inventory-out", "yaml", "yml")
	cmd.Flags().BoolVar(&opt.Force, "force", false, "replace the files already at --inventory-out and beside it")
	cmd.Flags().BoolVar(&opt.Topology, "topology", false, "also copy DIR's cabling plan (topology.dot) beside the inventory, so that audit checks the cabling")
	cmd.Flags().BoolVar(&opt.GNMI, "gnmi", false, "also serve gNMI counters on every switch, over TLS (CA in "+sim.GNMICAFile+" beside the inventory), for audit --counters")
	return cmd
}

func newDemoCmd(out, errOut io.Writer) *cobra.Command {
	var opt app.DemoOptions
	var rf reportFormats
	var fo failOn
	var o output
	cmd := &cobra.Command{
		Use:               "demo [" + strings.Join(examples.Names(), "|") + "]",
		Short:             "Run a whole live audit of a shipped example against the simulator",
		Long:              "demo serves a shipped example with the simulator on loopback and audits it over SSH,\nexactly as audit would: the same report, flags and exit codes.\n\n" + liveExitCodes,
		Args:              maxArgs(1, "one shipped example: "+strings.Join(examples.Names(), " or ")),
		ValidArgsFunction: completeDemo,
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Fabric = "broken-pod"
			if len(args) == 1 {
				opt.Fabric = args[0]
			}
			var err error
			var reportOnly bool
			if opt.FailOn, reportOnly, err = fo.parse(); err != nil {
				return err
			}
			if opt.Outputs, err = rf.outputs(cmd, &o); err != nil {
				return err
			}
			if opt.Style, err = style(cmd, out, &o, reportOnly); err != nil {
				return err
			}
			opt.Progress = progressWriter(errOut)
			ctx, stop := interruptible()
			defer stop()
			return o.run(out, func(w io.Writer) error { return exitCode(app.Demo(ctx, w, errOut, opt)) })
		},
	}
	cmd.Flags().DurationVar(&opt.Latency, "latency", 20*time.Millisecond, "simulated delay per command")
	rf.add(cmd)
	o.add(cmd)
	fo.add(cmd)
	addPathPrefix(cmd, &opt.PathPrefix, "none: paths relative to the example's folder")
	return cmd
}

func exitCode(code int) error {
	if code != 0 {
		return exitError{code}
	}
	return nil
}
