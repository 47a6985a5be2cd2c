package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

var mtu = &Check{
	ID:       "mtu",
	Kind:     KindConfig,
	Devices:  AllDevices,
	Severity: judge.Error,
	Title:    "Host RoCE netdevs and switch ports have at least the policy's MTU",
	Doc: `RoCE picks its path MTU (256 to 4096 bytes of payload) from the netdev MTU: a 1500-byte
netdev limits RoCE to 1024-byte messages, a quarter of the 4096 the fabric is built for, and a
switch port below the hosts' MTU drops every full-size frame (RoCE does not fragment). The policy
gives minimums: the host one must fit a 4096-byte RoCE payload plus headers (4200), the switch
one must exceed every host (Cumulus defaults to 9216). Ports are grouped by their MTU setting.
A bond is judged on its own link mtu: "the member links or slave interfaces inherit the configured
value" (Cumulus Switch-Port-Attributes), so a member's own setting does not count (a note says so);
a breakout parent is no port, its split ports are.`,
	Inputs: []Input{NVConfig, ConfigDB, IPLink},
	Run:    runMTU,
}

func runMTU(f *model.Fabric) []Finding {
	var out []Finding
	minHost := f.Policy.MTU.Host
	nc := nicIter(f, func(*model.NIC) string { return layout.IPLinkFile + " not collected" },
		func(n *model.NIC) bool { return n.MTU.Known }, "host MTU", func(h *model.Host, n *model.NIC) {
			j := judge.HostMTU(f.Policy, n.MTU.V)
			if j.OK {
				return
			}
			out = append(out, Finding{
				Severity: j.Severity, Device: h.Name, Interface: n.Netdev,
				Message:  j.Reason,
				Expected: fmt.Sprintf(">= %d", minHost), Actual: strconv.Itoa(n.MTU.V),
				Source:  n.MTU.Origin.Pos(),
				Changes: []Change{{Kind: LinkMTU, Target: n.Netdev, Value: strconv.Itoa(minHost), Old: strconv.Itoa(n.MTU.V), HasOld: true}},
			})
		})
	for _, sw := range f.ConfiguredSwitches() {
		minSwitch := judge.MinSwitchMTU(f.Policy, sw.OS)
		groups := groupByValue(sw.Ports, func(p string) model.Value[int] { return sw.MTU.At(p) },
			func(v model.Value[int]) bool { return !judge.OSSwitchMTU(f.Policy, sw.OS, v.V).OK })
		for _, g := range groups {
			j := judge.OSSwitchMTU(f.Policy, sw.OS, g.v.V)
			ports := model.CompressNames(g.ports)
			o, had := old(g.v)
			out = append(out, Finding{
				Severity: j.Severity, Device: sw.Name, Interface: ports,
				Message:  j.Reason,
				Expected: fmt.Sprintf(">= %d", minSwitch), Actual: why(g.v),
				Source: at(g.v.Origin, sw.ConfigFile),
				Changes: []Change{nvSet(o, had, strconv.Itoa(minSwitch), "interface", ports, "link", "mtu").
					with(Setting{Aspect: PortMTU, Ports: g.ports, Value: minSwitch})},
			})
		}
	}
	return append(out, nc...)
}
