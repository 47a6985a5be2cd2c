package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var switchECN = &Check{
	ID:       "switch-ecn",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Error,
	Title:    "ECN marking is on for the RoCE traffic class, with sane thresholds",
	Doc: `DCQCN, the congestion control of RoCE NICs, only slows a sender down when a switch marks
its packets Congestion Experienced: without ECN on the RoCE queue the only brake left is PFC, and
pause frames spread congestion to innocent flows (head-of-line blocking, pause storms). qos roce
enables ECN on traffic classes 0 and 3 with a 150 KB minimum and 1.5 MB maximum threshold. The
check wants ECN on the policy's RoCE traffic class in every port group's congestion-control
profile, and a minimum threshold below the maximum. A port bound to its own congestion-control
profile marks only on the classes that profile lists (it replaces default-global and the qos roce
defaults), so a profile that lists traffic class 1 leaves RoCE on class 3 unmarked. With dynamic
ECN ("traffic-class N mode relative") the switch ignores the byte thresholds and marks between
min-threshold-percent and max-threshold-percent of the buffer allowance; the maximum must not be
below the minimum.`,
	Inputs: []Input{NVConfig, ConfigDB},
	Run:    runSwitchECN,
}

func runSwitchECN(f *model.Fabric) []Finding {
	var out []Finding
	tc := f.Policy.RoCE.TrafficClass
	for _, sw := range f.ConfiguredSwitches() {
		for _, g := range sw.ProfileGroups(model.ECNProfile) {
			q := g.Q
			prof := q.ECNProfile.V
			if v := q.ECN[tc]; !judge.SwitchECN(f.Policy, v.V).OK {
				j := judge.SwitchECN(f.Policy, v.V)
				o, had := old(v)
				path := []string{"qos", "congestion-control", prof, "traffic-class", strconv.Itoa(tc), "ecn"}
				if had {
					o = model.NVUEBool(release(sw), false, path...)
				}
				out = append(out, Finding{
					Severity: j.Severity, Device: sw.Name, Interface: g.Iface,
					Message:  j.Reason,
					Expected: fmt.Sprintf("ecn enable on traffic-class %d", tc),
					Actual:   "disabled, " + v.Origin.String(),
					Source:   at(v.Origin, sw.ConfigFile),
					Changes: []Change{nvSet(o, had, model.NVUEBool(release(sw), true, path...), path...).
						with(Setting{Aspect: QueueECN, Ports: portsOf(sw, g), Key: tc, On: true})},
				})
				continue
			}
			if q.ECNMode[tc].V == "relative" {
				out = append(out, relativeThresholds(sw, g, tc)...)
				continue
			}
			if mn, mx := q.ECNMin[tc], q.ECNMax[tc]; !judge.SwitchECNThresholds(f.Policy, mn.V, mx.V).OK {
				j := judge.SwitchECNThresholds(f.Policy, mn.V, mx.V)
				src := mn.Origin
				if src.IsDefault() {
					src = mx.Origin
				}
				out = append(out, Finding{
					Severity: j.Severity, Device: sw.Name, Interface: g.Iface,
					Message:  j.Reason,
					Expected: "min-threshold < max-threshold",
					Actual:   fmt.Sprintf("min %s, max %s", why(mn), why(mx)),
					Source:   at(src, sw.ConfigFile),
				})
			}
		}
	}
	return out
}

// relativeThresholds checks dynamic ECN's percentages: "The value must be
// greater than or equal to the minimum threshold percent" (CumulusNetworks/docs
// content/cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md,
// Dynamic ECN).
func relativeThresholds(sw *model.Switch, g model.PortGroup, tc int) []Finding {
	mn, mx := g.Q.ECNMinPct[tc], g.Q.ECNMaxPct[tc]
	if mn.V <= mx.V {
		return nil
	}
	src := mx.Origin
	if src.IsDefault() {
		src = mn.Origin
	}
	return []Finding{{
		Severity: judge.Warning, Device: sw.Name, Interface: g.Iface,
		Message:  fmt.Sprintf("dynamic ECN min-threshold-percent %d is above max-threshold-percent %d on traffic-class %d", mn.V, mx.V, tc),
		Expected: "min-threshold-percent <= max-threshold-percent",
		Actual:   fmt.Sprintf("min %s, max %s", why(mn), why(mx)),
		Source:   at(src, sw.ConfigFile),
	}}
}
