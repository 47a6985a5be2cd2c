package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var switchQueueMap = &Check{
	ID:       "switch-queue-map",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Error,
	Title:    "The RoCE switch priority egresses through the RoCE traffic class, alone",
	Doc: `After classification a switch priority is queued in a traffic class (egress queue) by the
egress-queue-mapping; ECN marking, the scheduler weight and the lossless buffer pool are per
traffic class. qos roce maps priority 3 to traffic class 3 and 6 to 6, everything else to 0. If the
RoCE priority maps to another class, RoCE shares a queue with best-effort traffic, is never ECN
marked where the policy expects, and gets that queue's bandwidth. Other priorities in the RoCE
traffic class are reported as a warning: they compete with RoCE for its lossless queue.`,
	Inputs: []Input{NVConfig, ConfigDB},
	Run:    runSwitchQueueMap,
}

func runSwitchQueueMap(f *model.Fabric) []Finding {
	var out []Finding
	sp, tc := f.Policy.RoCE.Priority, f.Policy.RoCE.TrafficClass
	for _, sw := range f.ConfiguredSwitches() {
		// NVUE has only the default-global egress-queue-mapping, so every
		// port has the same map and the switch is one group; SONiC binds a
		// tc_to_queue_map per port (PORT_QOS_MAP).
		groups := sw.ProfileGroups(model.QueueMap)
		for _, g := range groups {
			q, iface := g.Q, queueMapIface(groups, g)
			if v := q.TC[sp]; !judge.SwitchQueue(f.Policy, sp, v.V, v.Origin.IsDefault()).OK {
				j := judge.SwitchQueue(f.Policy, sp, v.V, v.Origin.IsDefault())
				o, had := old(v)
				out = append(out, Finding{
					Severity: j.Severity, Device: sw.Name, Interface: iface,
					Message:  j.Reason,
					Expected: fmt.Sprintf("switch-priority %d → traffic-class %d", sp, tc),
					Actual:   fmt.Sprintf("switch-priority %d → traffic-class %s", sp, why(v)),
					Source:   at(v.Origin, sw.ConfigFile),
					Changes: []Change{nvSet(o, had, strconv.Itoa(tc), "qos", "egress-queue-mapping", model.DefaultProfile, "switch-priority", strconv.Itoa(sp), "traffic-class").
						with(Setting{Aspect: PriorityQueue, Ports: portsOf(sw, g), Key: sp, Value: tc})},
				})
			}
			for other, v := range q.TC {
				j := judge.SwitchQueue(f.Policy, other, v.V, v.Origin.IsDefault())
				if other == sp || j.OK {
					continue
				}
				o, had := old(v)
				out = append(out, Finding{
					Severity: j.Severity, Device: sw.Name, Interface: iface,
					Message:  j.Reason,
					Expected: fmt.Sprintf("switch-priority %d → a traffic-class other than %d", other, tc),
					Actual:   fmt.Sprintf("switch-priority %d → traffic-class %s", other, why(v)),
					Source:   at(v.Origin, sw.ConfigFile),
					Changes: []Change{nvSet(o, had, "0", "qos", "egress-queue-mapping", model.DefaultProfile, "switch-priority", strconv.Itoa(other), "traffic-class").
						with(Setting{Aspect: PriorityQueue, Ports: portsOf(sw, g), Key: other, Value: 0})},
				})
			}
		}
	}
	return out
}

// queueMapIface names a queue-map group's ports where the switch has more
// than one map; a switch with one map is judged as a whole.
func queueMapIface(groups []model.PortGroup, g model.PortGroup) string {
	if len(groups) > 1 {
		return g.Iface
	}
	return ""
}
