package commands

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/cmd/qoslint/app"
)

func newRenderCmd(out, errOut io.Writer) *cobra.Command {
	var opt app.GenerateOptions
	cmd := &cobra.Command{
		Use:   "render --policy FILE --role leaf|spine|host",
		Short: "Generate the RoCE QoS configuration of a new device from the policy",
		Long: `render prints the complete RoCE QoS configuration of a new device that follows the policy
of an inventory file: NVUE commands and the same as a startup.yaml fragment for a switch, a shell
script (mlnx_qos, sysfs, nccl.conf, MTU) for a GPU server.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exitCode(app.Generate(out, errOut, opt))
		},
	}
	cmd.Flags().StringVar(&opt.Policy, "policy", "", "inventory file whose policy to follow")
	cmd.Flags().StringVar(&opt.Role, "role", "", "leaf, spine, super-spine, border or host")
	cmd.Flags().StringVar(&opt.Syntax, "syntax", "5.15", "NVUE syntax for switches: 5.15 (state enabled) or 5.14 (enable on)")
	cmd.Flags().StringVar(&opt.Ports, "ports", "swp1-32", "switch fabric ports (NVUE range) that get the MTU")
	cmd.Flags().StringSliceVar(&opt.NICs, "nics", nil, "host RoCE netdevs, e.g. ens1f0np0,ens1f1np1")
	cmd.Flags().StringVar(&opt.Templates, "templates", "", "directory of *.tmpl files overriding the embedded templates")
	_ = cmd.MarkFlagRequired("policy")
	_ = cmd.MarkFlagRequired("role")
	return cmd
}
