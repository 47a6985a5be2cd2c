package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/model"
)

var switchECN = &Check{
	ID:       "switch-ecn",
	Device:   "switch",
	Severity: Error,
	Title:    "ECN marking is on for the RoCE traffic class, with sane thresholds",
	Doc: `DCQCN, the congestion control of RoCE NICs, only slows a sender down when a switch marks
its packets Congestion Experienced: without ECN on the RoCE queue the only brake left is PFC, and
pause frames spread congestion to innocent flows (head-of-line blocking, pause storms). qos roce
enables ECN on traffic classes 0 and 3 with a 150 KB minimum and 1.5 MB maximum threshold. The
check wants ECN on the policy's RoCE traffic class in every port group's congestion-control
profile, and a minimum threshold below the maximum.`,
	Run: runSwitchECN,
}

func runSwitchECN(f *model.Fabric) []Finding {
	var out []Finding
	tc := f.Policy.RoCE.TrafficClass
	for _, sw := range configured(f) {
		for _, g := range portGroups(sw) {
			q := g.Q
			prof := q.ECNProfile.V
			if v := q.ECN[tc]; !v.V {
				o, had := old(v)
				if had {
					o = model.EnableDisable(false)
				}
				out = append(out, Finding{
					Severity: Error, Device: sw.Name, Interface: g.Iface,
					Message:  fmt.Sprintf("ECN is off on traffic-class %d: DCQCN gets no congestion marks, only PFC brakes RoCE", tc),
					Expected: fmt.Sprintf("ecn enable on traffic-class %d", tc),
					Actual:   "disabled, " + v.Origin.String(),
					Source:   at(v.Origin, sw.ConfigFile),
					Changes:  []Change{nvSet(o, had, model.EnableDisable(true), "qos", "congestion-control", prof, "traffic-class", itoa(tc), "ecn")},
				})
				continue
			}
			if mn, mx := q.ECNMin[tc], q.ECNMax[tc]; mn.V >= mx.V {
				src := mn.Origin
				if src.IsDefault() {
					src = mx.Origin
				}
				out = append(out, Finding{
					Severity: Warning, Device: sw.Name, Interface: g.Iface,
					Message:  fmt.Sprintf("ECN min-threshold %d B is not below max-threshold %d B on traffic-class %d", mn.V, mx.V, tc),
					Expected: "min-threshold < max-threshold",
					Actual:   fmt.Sprintf("min %s, max %s", why(mn), why(mx)),
					Source:   at(src, sw.ConfigFile),
				})
			}
		}
	}
	return out
}
