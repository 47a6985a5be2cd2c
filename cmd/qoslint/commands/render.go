package commands

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/cmd/qoslint/app"
)

// renderFlagsOf are the flags that mean something only for one kind of
// device; given for the other, they are an error rather than ignored.
var renderFlagsOf = map[string][]string{"switch": {"ports", "syntax", "uplinks", "os"}, "host": {"nics"}}

// syntaxReleases are the releases --syntax completion offers; any 5.x
// release is accepted (CL 5.0 to 5.14 spell enable on, 5.15 and later
// state enabled).
var syntaxReleases = []string{"5.0", "5.3", "5.6", "5.9", "5.12", "5.14", "5.15", "5.18", "5.19"}

func newRenderCmd(out, errOut io.Writer) *cobra.Command {
	var opt app.GenerateOptions
	var o output
	cmd := &cobra.Command{
		Use:   "render --policy FILE --role leaf|spine|super-spine|border|host",
		Short: "Generate the RoCE QoS configuration of a new device from the policy",
		Long: `render prints the complete RoCE QoS configuration of a new device that follows the policy
of an inventory file, one form at a time (--format):

  switch (leaf, spine, super-spine, border): commands (default: nv set lines and nv config apply),
    script (the same as a shell script), yaml (a startup.yaml fragment), patch (for nv config patch)
  host: script (default: mlnx_qos, sysfs, nccl.conf, MTU), commands (the same lines, no script header)
  --os sonic switch: json (default: the QoS tables as a config_db.json fragment), patch (a JSON Patch
    for sudo config apply-patch; take sudo config checkpoint NAME first, and try it with --dry-run)

--syntax is the switch's Cumulus Linux release, 5.0 to 5.x (5.9, 5.14.2, 5.18): up to 5.14 NVUE
spells enable on, from 5.15 state enabled. Only commands that release has are printed; each one it
lacks is a "# not printed: ..." comment line instead (5.3 has no PFC watchdog, 5.0 no QoS
commands). --ports, --syntax and --uplinks are for switches, --nics for hosts.

--uplinks NAME reads the cabling of the inventory switch NAME in the policy file's fabric directory
(devices/NAME/lldp.json, else topology.dot): when the policy wants adaptive routing, each port of its
ECMP group (its links to the next tier up; a top-tier switch's links down) gets
"nv set interface <port> router adaptive-routing" on, as NVIDIA asks for every port of the ECMP route.`,
		Example: `  qoslint render --policy inventory.yaml --role leaf --syntax 5.9 -f script -o leaf.sh
  qoslint render --policy fabric/inventory.hcl --role leaf --uplinks leaf01 --syntax 5.14
  qoslint render --policy inventory.yaml --role host --nics ens1f0np0,ens1f1np1 > gpu.sh
  qoslint render --policy inventory.yaml --role leaf --os sonic --ports Ethernet0,Ethernet8 -f patch`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := renderFlagsFit(cmd, opt.Role); err != nil {
				return err
			}
			return o.run(out, func(w io.Writer) error { return exitCode(app.Generate(w, errOut, opt)) })
		},
	}
	cmd.Flags().StringVar(&opt.Policy, "policy", "", "inventory file whose policy to follow")
	inventoryFile(cmd, "policy")
	cmd.Flags().StringVar(&opt.Role, "role", "", strings.Join(app.RenderRoles, ", "))
	complete(cmd, "role", app.RenderRoles...)
	cmd.Flags().StringVarP(&opt.Format, "format", "f", "",
		"what to print: "+strings.Join(app.SwitchRenderFormats, "|")+" for a switch (default commands), "+
			strings.Join(app.HostRenderFormats, "|")+" for a host (default script)")
	_ = cmd.RegisterFlagCompletionFunc("format", func(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if opt.Role == "host" {
			return app.HostRenderFormats, cobra.ShellCompDirectiveNoFileComp
		}
		return app.SwitchRenderFormats, cobra.ShellCompDirectiveNoFileComp
	})
	o.add(cmd)
	cmd.Flags().StringVar(&opt.Syntax, "syntax", "5.15", "switches: the Cumulus Linux release (5.0 to 5.x), which decides the NVUE syntax")
	complete(cmd, "syntax", syntaxReleases...)
	cmd.Flags().StringVar(&opt.Ports, "ports", "swp1-32", "switches: fabric ports (NVUE range) that get the MTU; SONiC: PORT names, Ethernet0,Ethernet8")
	cmd.Flags().StringVar(&opt.OS, "os", "", "switches: cumulus (default) or sonic, printed as a config_db.json fragment (-f json) or a config apply-patch JSON Patch (-f patch)")
	complete(cmd, "os", "cumulus", "sonic")
	cmd.Flags().StringVar(&opt.Uplinks, "uplinks", "", "switches: inventory switch whose cabling (lldp.json, else topology.dot) gives the ports that get adaptive routing")
	cmd.Flags().StringSliceVar(&opt.NICs, "nics", nil, "hosts: RoCE netdevs, e.g. ens1f0np0,ens1f1np1")
	cmd.Flags().StringVar(&opt.Templates, "templates", "", "directory of *.tmpl files overriding the embedded templates")
	_ = cmd.MarkFlagDirname("templates")
	_ = cmd.MarkFlagRequired("policy")
	_ = cmd.MarkFlagRequired("role")
	return cmd
}

// renderFlagsFit refuses a flag given for the other kind of device: --nics
// on a leaf would be silently ignored, and the config would not be the
// one asked for.
func renderFlagsFit(cmd *cobra.Command, role string) error {
	kind, other := "switch", "host"
	if role == "host" {
		kind, other = "host", "switch"
	} else if !slices.Contains(app.RenderRoles, role) {
		return nil // Generate names the unknown role
	}
	for _, f := range renderFlagsOf[other] {
		if cmd.Flags().Changed(f) {
			return fmt.Errorf("--%s is for a %s; --role %s is a %s\n%s", f, other, role, kind, usageHint(cmd))
		}
	}
	return nil
}
