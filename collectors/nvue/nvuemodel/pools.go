package nvuemodel

import (
	"sort"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/nvrange"
	"github.com/qoslint/qoslint/model"
)

// trafficPools reads qos traffic-pool, sorted by name.
func (b *switchBuilder) trafficPools(qosRoot *nvue.Node) []model.TrafficPool {
	n := qosRoot.Child("traffic-pool")
	if n == nil {
		return nil
	}
	var out []model.TrafficPool
	for _, c := range n.Children {
		names, err := nvrange.ExpandNames(c.Key)
		if err != nil {
			b.problem(c, "%s: %v", c.Key, err)
			continue
		}
		for _, name := range names {
			p := model.TrafficPool{Name: name}
			if m := c.Child("memory-percent"); m != nil {
				if v, ok := b.intOf(m, 0, 100); ok {
					p.MemoryPercent = v
				}
			}
			if sp := c.Child("switch-priority"); sp != nil {
				p.SPs, p.SPsPos = b.members(sp, 0, 7), b.pos(sp)
				sort.Ints(p.SPs)
			}
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
