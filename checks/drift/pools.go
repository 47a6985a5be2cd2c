package drift

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/model/snapshot"
)

// pcpItems are a port group's 802.1p → switch priority map, the RoCE and
// CNP entries judged by switch-pcp-map. The verdict depends on the group's
// trust too, so a broken entry says so in its text.
func pcpItems(l *itemList, g *snapshot.PortGroup, p policy.Policy) {
	for pcp, v := range g.PCP {
		it := item{field: "pcp_map." + strconv.Itoa(pcp), text: intText(v), origin: v.Origin, say: fmt.Sprintf("PCP %d → switch-priority %%s", pcp)}
		if pcp == p.RoCE.Priority || pcp == p.CNP.Priority {
			j := judge.SwitchPCP(p, g.Trust.Value, pcp, v.Value)
			if !j.OK {
				it.text += " on ports trusting l2"
			}
			it.judge("switch-pcp-map", j)
		}
		l.add(it)
	}
}

// poolItems are the switch's traffic pools: each pool's memory-percent and
// switch priorities, and the memory total switch-buffer-pool judges. The
// switch-priority verdict depends on the switch's RoCE mode too, so a
// broken one says why in its text.
func poolItems(l *itemList, sw *snapshot.Switch, p policy.Policy) {
	total := 0
	lossless := sw.RoCE.Enabled.Value && model.LosslessMode(sw.RoCE.Mode.Value)
	for _, tp := range sw.TrafficPools {
		pre := "traffic_pools." + tp.Name + "."
		mem := tp.MemoryPercent
		l.add(item{field: pre + "memory_percent", text: text(mem, func(v int) string { return strconv.Itoa(v) + "%" }), origin: mem.Origin,
			say: "traffic-pool " + tp.Name + " memory-percent %s", checks: []string{"switch-buffer-pool"}})
		if mem.Known {
			total += mem.Value
		}
		sps := tp.SwitchPriorities
		it := item{field: pre + "switch_priorities", text: prioSetText(sps), origin: sps.Origin, say: "traffic-pool " + tp.Name + " switch-priority %s"}
		if !sps.Known {
			it.text = "not set"
		}
		j := judge.PoolPriority(p, lossless, tp.Name, sps.Known, sps.Value)
		if !j.OK {
			it.text += fmt.Sprintf(" (RoCE priority %d %s)", p.RoCE.Priority, map[bool]string{true: "in a lossy pool", false: "not in this lossless pool"}[model.LossyPool(tp.Name)])
		}
		it.judge("switch-buffer-pool", j)
		l.add(it)
	}
	it := item{field: "traffic_pools.memory_total", text: strconv.Itoa(total) + "%", say: "traffic pools' memory-percent total %s"}
	it.judge("switch-buffer-pool", judge.PoolMemory(total))
	l.add(it)
}
