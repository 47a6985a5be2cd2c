package commands

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/model"
)

func newToSCmd(out, _ io.Writer) *cobra.Command {
	var dscp int
	var o output
	cmd := &cobra.Command{
		Use:   "tos [TOS]",
		Short: "ToS ↔ DSCP ↔ priority calculator",
		Long: `tos explains a ToS value (what NCCL_IB_TC and traffic_class hold), or with --dscp the ToS
that carries a DSCP. Without arguments it prints the whole table: DSCP, the ToS to configure,
and the priority a NIC and a switch give it by default (DSCP>>3).`,
		Args:              maxArgs(1, "one ToS value, 0-255"),
		ValidArgsFunction: cobra.NoFileCompletions,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(out, func(out io.Writer) error { return tos(cmd, out, args, dscp) })
		},
	}
	cmd.Flags().IntVar(&dscp, "dscp", 0, "show the ToS for this DSCP")
	o.add(cmd)
	return cmd
}

// tos explains one ToS, one DSCP, or prints the table.
func tos(cmd *cobra.Command, out io.Writer, args []string, dscp int) error {
	switch {
	case len(args) == 1 && cmd.Flags().Changed("dscp"):
		return fmt.Errorf("give a ToS or --dscp, not both")
	case len(args) == 1:
		tos, err := strconv.Atoi(args[0])
		if err != nil {
			return fmt.Errorf("ToS %q is not a number", args[0])
		}
		row, err := model.ToSTable(tos)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "ToS %d = DSCP %d (ToS>>2) + ECN %s\n", row.ToS, row.DSCP, model.ECNName(row.ECN))
		fmt.Fprintf(out, "default priority %d (DSCP>>3) on a ConnectX NIC and a Cumulus switch\n", row.DefaultPriority)
		if tos < 64 && tos != 0 {
			fmt.Fprintf(out, "if %d was meant as a DSCP, the ToS is %d (DSCP×4): NCCL_IB_TC=%d\n", tos, model.ToSOfDSCP(tos), model.ToSOfDSCP(tos))
		}
		return nil
	case cmd.Flags().Changed("dscp"):
		if dscp < 0 || dscp > 63 {
			return fmt.Errorf("DSCP %d is outside 0-63", dscp)
		}
		tos := model.ToSOfDSCP(dscp)
		fmt.Fprintf(out, "DSCP %d = ToS %d (DSCP×4), %d with ECT(0)\n", dscp, tos, tos|2)
		fmt.Fprintf(out, "default priority %d (DSCP>>3)\n", model.DefaultPriority(dscp))
		fmt.Fprintf(out, "NCCL_IB_TC=%d  or  echo %d > /sys/class/infiniband/<ibdev>/tc/<port>/traffic_class\n", tos, tos)
		return nil
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "DSCP\tToS\tToS+ECT(0)\tdefault priority\t")
	for d := 0; d < 64; d++ {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t\n", d, model.ToSOfDSCP(d), model.ToSOfDSCP(d)|2, model.DefaultPriority(d))
	}
	return tw.Flush()
}
