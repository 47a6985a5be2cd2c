package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var switchCNP = &Check{
	ID:       "switch-cnp",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Error,
	Title:    "CNPs map to their own switch priority and leave through a strict queue",
	Doc: `Congestion notification packets carry DCQCN's "slow down" back to the sender. They are
few and must not wait behind the congestion they report: qos roce maps their DSCP (48) to switch
priority 6, traffic class 6, scheduled strict priority. A CNP DSCP mapped to the RoCE priority
competes with the data it throttles; mapped to priority 0 it is dropped with best-effort traffic.
The check wants the policy's CNP DSCP in the CNP priority on every port group, that priority in a
traffic class other than RoCE's, and that class strict (except where the policy's mode is
lossy-multi-tc, whose documented profile schedules every class DWRR). A port bound to its own
egress-scheduler profile gets only what that profile lists: NVIDIA's guide schedules the classes a
profile leaves out best effort (DWRR 0), so such a profile must list the CNP class as strict.`,
	Inputs: []Input{NVConfig, ConfigDB},
	Run:    runSwitchCNP,
}

func runSwitchCNP(f *model.Fabric) []Finding {
	var out []Finding
	c := f.Policy.CNP
	for _, sw := range f.ConfiguredSwitches() {
		for _, g := range sw.ProfileGroups(model.MappingProfile) {
			v := g.Q.DSCP[c.DSCP]
			if j := judge.SwitchCNPDSCP(f.Policy, v.V); !j.OK {
				o, had := old(v)
				out = append(out, Finding{
					Severity: j.Severity, Device: sw.Name, Interface: g.Iface,
					Message:  j.Reason,
					Expected: fmt.Sprintf("DSCP %d → switch-priority %d", c.DSCP, c.Priority),
					Actual:   fmt.Sprintf("DSCP %d → switch-priority %s", c.DSCP, why(v)),
					Source:   at(v.Origin, sw.ConfigFile),
					Changes:  []Change{nvSet(o, had, strconv.Itoa(c.Priority), "qos", "mapping", g.Q.MappingProfile.V, "dscp", strconv.Itoa(c.DSCP), "switch-priority")},
				})
			}
		}
		q := sw.Global
		tc := q.TC[c.Priority]
		if j := judge.SwitchCNPQueue(f.Policy, tc.V); !j.OK {
			o, had := old(tc)
			out = append(out, Finding{
				Severity: j.Severity, Device: sw.Name,
				Message:  j.Reason,
				Expected: fmt.Sprintf("switch-priority %d → traffic-class %d", c.Priority, c.Priority),
				Actual:   fmt.Sprintf("switch-priority %d → traffic-class %s", c.Priority, why(tc)),
				Source:   at(tc.Origin, sw.ConfigFile),
				Changes:  []Change{nvSet(o, had, strconv.Itoa(c.Priority), "qos", "egress-queue-mapping", model.DefaultProfile, "switch-priority", strconv.Itoa(c.Priority), "traffic-class")},
			})
			continue
		}
		for _, g := range sw.ProfileGroups(model.SchedProfile) {
			s := g.Q.Sched[tc.V]
			j := judge.SwitchCNPScheduler(f.Policy, tc.V, s.V)
			if j.OK {
				continue
			}
			o, had := old(s)
			out = append(out, Finding{
				Severity: j.Severity, Device: sw.Name, Interface: g.Iface,
				Message:  j.Reason,
				Expected: "strict", Actual: why(s),
				Source:  at(s.Origin, sw.ConfigFile),
				Changes: []Change{nvSet(o, had, "strict", "qos", "egress-scheduler", g.Q.SchedProfile.V, "traffic-class", strconv.Itoa(tc.V), "mode")},
			})
		}
	}
	return out
}
