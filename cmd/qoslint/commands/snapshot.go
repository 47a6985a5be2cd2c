package commands

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/checks/drift"
	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/model/snapshot"
	"github.com/qoslint/qoslint/render/driftfmt"
)

func newSnapshotCmd(out, errOut io.Writer) *cobra.Command {
	var outFile, oldOut string
	cmd := &cobra.Command{
		Use:   "snapshot DIR [-o FILE]",
		Short: "Write the effective QoS model of a fabric directory as a versioned JSON snapshot",
		Long: `snapshot reads DIR as lint does and writes what each device effectively does for RoCE
(schema ` + snapshot.Version + `): per switch the RoCE mode, each port group's trust, DSCP map,
PFC, queues, ECN and scheduler, ECMP hashing, adaptive routing and MTUs; per host NIC the trust,
dscp2prio, PFC, DCQCN, CNP marking, MTU and effective ToS. Every value keeps its origin (file:line
or the default that applied). The output is deterministic: the same input gives the same bytes.
Compare two snapshots with qoslint drift.

Exit codes: 0 written; 2 the input could not be read (bad inventory, or malformed device files:
the snapshot is still written and records them) or FILE could not be written.`,
		Args:              exactArgs(1, "DIR, the fabric directory (or a file in it)"),
		ValidArgsFunction: completeDirs(1, false),
		RunE: func(cmd *cobra.Command, args []string) error {
			if oldOut != "" {
				if outFile != "" {
					return fmt.Errorf("give -o/--output only (--out is its old name)")
				}
				outFile = oldOut
				// Not cobra's MarkDeprecated: it prints to stdout, into the
				// snapshot a pipe may be reading.
				fmt.Fprintln(errOut, "qoslint: snapshot --out is deprecated: use -o/--output (--out is a directory on collect and fix)")
			}
			return exitCode(app.Snapshot(out, errOut, args[0], outFile))
		},
	}
	cmd.Flags().StringVarP(&outFile, "output", "o", "", "write the snapshot to FILE (replaced whole, atomically) instead of standard output")
	_ = cmd.MarkFlagFilename("output", "json")
	// --out is a folder on every other command; a file here was the odd
	// one out, kept for old scripts with a warning.
	cmd.Flags().StringVar(&oldOut, "out", "", "old name of -o/--output")
	_ = cmd.Flags().MarkHidden("out")
	return cmd
}

func newDriftCmd(out, errOut io.Writer) *cobra.Command {
	var format string
	var o output
	cmd := &cobra.Command{
		Use:   "drift OLD NEW",
		Short: "Report what changed between two snapshots or fabric directories, in QoS terms",
		Long: `drift compares OLD with NEW; each is a snapshot file (a path ending in .json, written by
qoslint snapshot) or a fabric directory, snapshotted on the fly. It reports per device what
changed in QoS terms ("DSCP 26 → switch-priority 0, was 3", "PFC moved from priority 3 to 5"),
with the evidence of both values, which changes break the policy (judged with the rules of the
checks against NEW's policy, naming the checks), and the devices that appeared or vanished.
--format json writes schema ` + drift.DriftVersion + `; html is one self-contained page.

Exit codes: 0 no drift, 1 drift, 2 unreadable input (a snapshot of another version, a bad
inventory, malformed device files on either side).`,
		Args:              exactArgs(2, "OLD and NEW, each a snapshot (.json) or a fabric directory"),
		ValidArgsFunction: completeDirs(2, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(out, func(w io.Writer) error { return exitCode(app.Drift(w, errOut, args[0], args[1], format)) })
		},
	}
	addFormat(cmd, &format, "text", driftfmt.FormatNames(), "output format")
	o.add(cmd)
	return cmd
}
