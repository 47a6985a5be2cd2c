package checks

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var switchETSBandwidth = &Check{
	ID:       "switch-ets-bandwidth",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Warning,
	Title:    "The DWRR bandwidth shares of each port group add up to at most 100%",
	Doc: `Under contention a switch port shares its bandwidth among the DWRR traffic classes by their
bw-percent, which is how the RoCE traffic class is guaranteed its share next to storage and
best-effort traffic (qos roce gives classes 0 and 3 50% each). NVIDIA's QoS guide says "the
combined total of values you assign to bw_percent must be less than or equal to 100"
(CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/
_index.md, Egress Scheduling). Adding a class with its own share to the qos roce defaults
(traffic-class 2 mode dwrr, bw-percent 30) easily breaks that: the shares the configuration
writes are then not the shares any port can give. The guide does not say what the switch does
with more than 100%, so this is a warning, and qoslint prints no command: which share to lower is
the operator's choice. Checked per port group, since an egress-scheduler profile bound to some
ports replaces the default for them; strict classes have no share and do not count.`,
	Inputs: []Input{NVConfig, ConfigDB},
	Run:    runSwitchETSBandwidth,
}

func runSwitchETSBandwidth(f *model.Fabric) []Finding {
	var out []Finding
	for _, sw := range f.ConfiguredSwitches() {
		for _, g := range sw.ProfileGroups(model.SchedProfile) {
			total, parts := 0, []string{}
			var blame model.Value[int]
			for tc, mode := range g.Q.Sched {
				bw := g.Q.SchedBW[tc]
				if mode.V != "dwrr" || bw.V == 0 {
					continue
				}
				total += bw.V
				parts = append(parts, fmt.Sprintf("%d: %d%%", tc, bw.V))
				// The finding points at the largest share the
				// configuration wrote itself.
				if !bw.Origin.IsDefault() && bw.V >= blame.V {
					blame = bw
				}
			}
			j := judge.ETSBandwidth(g.Q.SchedProfile.V, total)
			if j.OK {
				continue
			}
			out = append(out, Finding{
				Severity: j.Severity, Device: sw.Name, Interface: g.Iface,
				Message:  j.Reason,
				Expected: "DWRR bw-percent total ≤ 100%",
				Actual:   fmt.Sprintf("%d%% (traffic-class %s)", total, strings.Join(parts, ", ")),
				Source:   at(blame.Origin, sw.ConfigFile),
			})
		}
	}
	return out
}
