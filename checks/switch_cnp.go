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
			v := g.Q.DSCP.At(c.DSCP)
			if j := judge.SwitchCNPDSCP(f.Policy, v.V); !j.OK {
				o, had := old(v)
				out = append(out, Finding{
					Severity: j.Severity, Device: sw.Name, Interface: g.Iface,
					Message:  j.Reason,
					Expected: fmt.Sprintf("DSCP %d → switch-priority %d", c.DSCP, c.Priority),
					Actual:   fmt.Sprintf("DSCP %d → switch-priority %s", c.DSCP, why(v)),
					Source:   at(v.Origin, sw.ConfigFile),
					Changes: []Change{nvSet(o, had, strconv.Itoa(c.Priority), "qos", "mapping", g.Q.MappingProfile.V, "dscp", strconv.Itoa(c.DSCP), "switch-priority").
						with(Setting{Aspect: DSCPPriority, Ports: portsOf(sw, g), Key: c.DSCP, Value: c.Priority})},
				})
			}
		}
		// A switch whose CNP priority lands in the wrong queue is judged
		// for that first: the scheduler of a queue CNP does not use says
		// nothing.
		if fs := cnpQueue(f, sw); len(fs) > 0 {
			out = append(out, fs...)
			continue
		}
		for _, g := range sw.ProfileGroups(model.SchedProfile) {
			tc := g.Q.TC[c.Priority]
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
				Source: at(s.Origin, sw.ConfigFile),
				Changes: []Change{nvSet(o, had, "strict", "qos", "egress-scheduler", g.Q.SchedProfile.V, "traffic-class", strconv.Itoa(tc.V), "mode").
					with(Setting{Aspect: QueueStrict, Ports: portsOf(sw, g), Key: tc.V})},
			})
		}
	}
	return out
}

// cnpQueue judges the traffic class the CNP priority maps to, per group of
// ports with one queue map (one group on NVUE, switch_queue_map.go).
func cnpQueue(f *model.Fabric, sw *model.Switch) []Finding {
	c := f.Policy.CNP
	var out []Finding
	groups := sw.ProfileGroups(model.QueueMap)
	for _, g := range groups {
		tc := g.Q.TC[c.Priority]
		j := judge.SwitchCNPQueue(f.Policy, tc.V)
		if j.OK {
			continue
		}
		o, had := old(tc)
		out = append(out, Finding{
			Severity: j.Severity, Device: sw.Name, Interface: queueMapIface(groups, g),
			Message:  j.Reason,
			Expected: fmt.Sprintf("switch-priority %d → traffic-class %d", c.Priority, c.Priority),
			Actual:   fmt.Sprintf("switch-priority %d → traffic-class %s", c.Priority, why(tc)),
			Source:   at(tc.Origin, sw.ConfigFile),
			Changes: []Change{nvSet(o, had, strconv.Itoa(c.Priority), "qos", "egress-queue-mapping", model.DefaultProfile, "switch-priority", strconv.Itoa(c.Priority), "traffic-class").
				with(Setting{Aspect: PriorityQueue, Ports: portsOf(sw, g), Key: c.Priority, Value: c.Priority})},
		})
	}
	return out
}
