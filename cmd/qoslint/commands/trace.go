package commands

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/render"
)

func newTraceCmd(out, errOut io.Writer) *cobra.Command {
	var format, dir string
	var o output
	cmd := &cobra.Command{
		Use: "trace SRC[:NIC] DST[:NIC]",
		Example: `  qoslint trace gpu01:ens1f0np0 gpu03:ens1f1np1 --dir examples/clean-pod
  qoslint trace gpu01 gpu02 --dir examples/broken-pod -f json -o trace.json
  qoslint trace gpu02:ens1f0np0 gpu01:ens1f0np0 --dir examples/broken-pod -f html -o trace.html`,
		Short: "List the ECMP paths between two GPUs and the marking chain on every hop",
		Long: `trace follows RoCE from one GPU NIC to another through the fabric directory's LLDP links:
the source NIC's leaf, each spine linked to both leaves, the destination's leaf (one path without
spines when both NICs share a leaf). On every hop and port it judges, with the checks' own rules,
the ToS the host sends, the NIC's trust, priority and PFC, each switch ingress port's trust,
DSCP → switch-priority and PFC, the egress traffic class and ECN, and for the CNPs going back the
receiver's CNP marking, each switch's CNP DSCP → priority and CNP queue, and the sender's DCQCN
reaction point. The first broken hop of each path is marked with the check that breaks it.

Without :NIC, NIC k of SRC is paired with NIC k of DST (the rail order: the inventory's nics, else
ibdev2netdev.txt, else netdev order); with one NIC named, the other host's NIC of the same rank.

Exit codes: 0 every path keeps the marking, 1 a path has a broken hop, 2 an unknown host or NIC, a
NIC without an LLDP link, no path between the leaves, or input that could not be read.`,
		Args:              exactArgs(2, "SRC[:NIC] and DST[:NIC], two GPU hosts of the inventory"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(out, func(w io.Writer) error {
				return exitCode(app.Trace(w, errOut, dir, args[0], args[1], format))
			})
		},
	}
	cmd.Flags().StringVar(&dir, "dir", ".", "the fabric directory (inventory and devices/), or a file in it")
	_ = cmd.MarkFlagDirname("dir")
	addFormat(cmd, &format, "text", render.TraceFormats, "output format")
	o.add(cmd)
	return cmd
}
