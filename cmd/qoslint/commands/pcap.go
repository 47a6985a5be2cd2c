package commands

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/render"
)

func newPcapCmd(out, errOut io.Writer) *cobra.Command {
	var format string
	var opt app.PcapOptions
	var fo failOn
	var o output
	cmd := &cobra.Command{
		Use: "pcap FILE...",
		Example: `  qoslint pcap job.pcapng
  qoslint pcap gpu01.pcap span.pcapng --policy fabric/inventory.yaml -f html -o wire.html`,
		Short: "Judge RoCEv2 packet captures (pcap, pcapng) against the policy: DSCP, ECN, CNPs, ECMP entropy",
		Long: `pcap reads packet captures (tcpdump on a RoCE netdev, or a switch's ERSPAN type I/II/III or
GRE mirror), reduces them, streamed, to their RoCEv2 flows and runs the wire checks on them
(qoslint explain evidence): the DSCP and ECN of the data packets, the DSCP and priority of the
CNPs, and how the flows spread over UDP source ports and uplinks.

--policy takes an inventory file (yaml or hcl): its policy is what the wire is judged by, and
its hosts' addresses name the senders. Without it the default preset (cumulus-default) is used
and senders are named by their IP.

A capture inside a fabric directory (devices/<device>/captures/*.pcap) is judged by lint too.

Exit codes: 0 nothing at or above --fail-on, 1 findings at or above --fail-on, 2 a file or the
policy could not be read (the report still covers what was read).`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return argsError(cmd, "takes FILE..., one or more pcap or pcapng captures", args)
			}
			return nil
		},
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return []string{"pcap", "pcapng"}, cobra.ShellCompDirectiveFilterFileExt
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			sev, reportOnly, err := fo.parse()
			if err != nil {
				return err
			}
			st, err := style(cmd, out, &o, reportOnly)
			if err != nil {
				return err
			}
			opt.Format, opt.FailOn, opt.Style = format, sev, st
			return o.run(out, func(w io.Writer) error {
				return exitCode(app.Pcap(w, errOut, args, opt))
			})
		},
	}
	addFormat(cmd, &format, "text", render.FormatNames(), "output format")
	o.add(cmd)
	fo.add(cmd)
	cmd.Flags().StringVar(&opt.Policy, "policy", "", "inventory file whose policy and host addresses to judge by (default: the cumulus-default preset)")
	inventoryFile(cmd, "policy")
	return cmd
}
