package commands

import (
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/checks/drift"
	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/model/snapshot"
	"github.com/qoslint/qoslint/render/driftfmt"
)

func newSnapshotCmd(out, errOut io.Writer) *cobra.Command {
	var outFile string
	cmd := &cobra.Command{
		Use:   "snapshot DIR [--out FILE]",
		Short: "Write the effective QoS model of a fabric directory as a versioned JSON snapshot",
		Long: `snapshot reads DIR as lint does and writes what each device effectively does for RoCE
(schema ` + snapshot.Version + `): per switch the RoCE mode, each port group's trust, DSCP map,
PFC, queues, ECN and scheduler, ECMP hashing, adaptive routing and MTUs; per host NIC the trust,
dscp2prio, PFC, DCQCN, CNP marking, MTU and effective ToS. Every value keeps its origin (file:line
or the default that applied). The output is deterministic: the same input gives the same bytes.
Compare two snapshots with qoslint drift.

Exit codes: 0 written; 2 the input could not be read (bad inventory, or malformed device files:
the snapshot is still written and records them) or FILE could not be written.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return exitCode(app.Snapshot(out, errOut, args[0], outFile))
		},
	}
	cmd.Flags().StringVar(&outFile, "out", "", "file to write the snapshot to (default: standard output)")
	return cmd
}

func newDriftCmd(out, errOut io.Writer) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "drift OLD NEW [--format text|json|markdown|html]",
		Short: "Report what changed between two snapshots or fabric directories, in QoS terms",
		Long: `drift compares OLD with NEW; each is a snapshot file (a path ending in .json, written by
qoslint snapshot) or a fabric directory, snapshotted on the fly. It reports per device what
changed in QoS terms ("DSCP 26 → switch-priority 0, was 3", "PFC moved from priority 3 to 5"),
with the evidence of both values, which changes break the policy (judged with the rules of the
checks against NEW's policy, naming the checks), and the devices that appeared or vanished.
--format json writes schema ` + drift.DriftVersion + `; html is one self-contained page.

Exit codes: 0 no drift, 1 drift, 2 unreadable input (a snapshot of another version, a bad
inventory, malformed device files on either side).`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return exitCode(app.Drift(out, errOut, args[0], args[1], format))
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: "+strings.Join(driftfmt.FormatNames(), "|"))
	return cmd
}
