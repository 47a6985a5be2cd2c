package checks

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

var switchBufferPool = &Check{
	ID:       "switch-buffer-pool",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Error,
	Title:    "The RoCE priority has the lossless buffer pools, and the pools fit in the buffer",
	Doc: `PFC makes RoCE lossless only if its packets are buffered in a lossless pool with headroom:
qos roce's lossless modes allocate "Switch priority 3 ... to RoCE lossless traffic pool"
(CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/
RDMA-over-Converged-Ethernet-RoCE.md, Default RoCE Configuration), which "nv show qos roce" prints
as the pools roce-reserved-ingress (switch priorities 3) and roce-reserved-egress (traffic class 3);
NetQ's RoCE validation checks the service pools (content/cumulus-netq-53/Validate-Operations/
Validation-Checks.md, test 1). Under a lossless policy on a lossless switch the check wants the
RoCE priority in no lossy traffic pool the configuration writes (default-lossy, mc-lossy,
roce-lossy: "nv set qos traffic-pool default-lossy switch-priority 0-3,5-7" is how the RoCE page
moves RoCE to a lossy pool), and in roce-lossless or default-lossless where the configuration lists
their priorities; and, where "nv show qos roce" was collected, the RoCE priority in the reserved
ingress pool (except under lossless-single-ipool, whose one ingress pool is shared by design) and
the RoCE traffic class in roce-reserved-egress. A switch without a roce-reserved pool is left to
switch-oper-drift. In every mode the memory-percent values the configuration writes add up to at
most 100 ("The total memory allocation across pools must not exceed 100%", QoS guide, Traffic
Pools), and so do the sizes "nv show qos roce" prints for the ingress pools and for the egress
pools ("inf" does not count). What a pool the configuration leaves out gets under a RoCE mode is
not documented, so unwritten values are not added. Which pool to shrink is the operator's choice:
qoslint prints no command for the totals, nor for the switch's own tables, which follow qos roce
and qos traffic-pool.`,
	Inputs: []Input{NVConfig, NVShowQoSRoCE},
	Run:    runSwitchBufferPool,
}

func runSwitchBufferPool(f *model.Fabric) []Finding {
	var out []Finding
	for _, sw := range f.ConfiguredSwitches() {
		out = append(out, poolMemory(sw)...)
		if !f.Policy.RoCE.Lossless() || !sw.RoCE.Lossless() {
			continue
		}
		out = append(out, poolPriority(f, sw)...)
		out = append(out, operPools(f, sw)...)
	}
	return out
}

// poolMemory: the memory-percent values the configuration writes.
func poolMemory(sw *model.Switch) []Finding {
	total, parts := 0, []string{}
	var blame model.Value[int]
	for _, p := range sw.Pools {
		if m := p.MemoryPercent; m.Known {
			total += m.V
			parts = append(parts, fmt.Sprintf("%s %d%%", p.Name, m.V))
			if m.V >= blame.V {
				blame = m
			}
		}
	}
	if judge.PoolMemory(total).OK {
		return nil
	}
	return []Finding{{
		Severity: judge.Warning, Device: sw.Name,
		Message: fmt.Sprintf("the traffic pools' memory-percent add up to %d%%, above the 100%% of the buffer NVIDIA's guide allows: "+
			"qoslint prints no command: lower the pools to a total of 100%%", total),
		Expected: "memory-percent total ≤ 100%",
		Actual:   fmt.Sprintf("%d%% (%s)", total, strings.Join(parts, ", ")),
		Source:   at(blame.Origin, sw.ConfigFile),
	}}
}

// poolPriority: the RoCE priority in the pools the configuration assigns.
func poolPriority(f *model.Fabric, sw *model.Switch) []Finding {
	prio := f.Policy.RoCE.Priority
	var out []Finding
	for _, p := range sw.Pools {
		if p.SPsPos.IsZero() {
			continue
		}
		if judge.PoolPriority(f.Policy, sw.RoCE.Lossless(), p.Name, true, p.SPs).OK {
			continue
		}
		fd := Finding{Severity: judge.Error, Device: sw.Name, Source: p.SPsPos, Actual: fmt.Sprintf("traffic-pool %s switch-priority %s", p.Name, model.IntList(p.SPs))}
		if model.LossyPool(p.Name) {
			fd.Message = fmt.Sprintf("the RoCE switch-priority %d is in the lossy traffic pool %s: it gets no lossless buffer, so PFC cannot keep RoCE lossless", prio, p.Name)
			fd.Expected = fmt.Sprintf("switch-priority %d not in %s", prio, p.Name)
			fd.Changes = []Change{nvUnset("", "qos", "traffic-pool", p.Name, "switch-priority", strconv.Itoa(prio))}
		} else {
			fd.Message = fmt.Sprintf("the lossless traffic pool %s lists switch-priority %s, not the RoCE priority %d: RoCE gets no lossless buffer", p.Name, model.IntList(p.SPs), prio)
			fd.Expected = fmt.Sprintf("switch-priority %d in %s", prio, p.Name)
			fd.Changes = []Change{nvSet("", false, strconv.Itoa(prio), "qos", "traffic-pool", p.Name, "switch-priority")}
		}
		out = append(out, fd)
	}
	return out
}

// operPools judges the pool table of `nv show qos roce`: its layout is the
// one of the 5.3 and 5.12-5.18 RoCE pages (collectors/nvue/roce.go).
func operPools(f *model.Fabric, sw *model.Switch) []Finding {
	o := sw.Oper
	if o == nil || o.PoolPos().IsZero() {
		return nil
	}
	out := operPoolSizes(sw)
	var ingress, egress *model.RocePool
	for i := range o.Pools {
		switch p := &o.Pools[i]; p.Name {
		case "roce-reserved-ingress":
			ingress = p
		case "roce-reserved-egress":
			egress = p
		}
	}
	if egress == nil && ingress == nil {
		return out
	}
	prio, tc := f.Policy.RoCE.Priority, f.Policy.RoCE.TrafficClass
	const none = "qoslint prints no command: the switch's pools follow its qos roce and qos traffic-pool configuration"
	if sw.RoCE.Mode.V != "lossless-single-ipool" && (ingress == nil || !slices.Contains(ingress.SPs, prio)) {
		fd := Finding{Severity: judge.Error, Device: sw.Name, Source: rowPos(o, ingress),
			Message:  fmt.Sprintf("the switch does not buffer the RoCE switch-priority %d in its reserved ingress pool: RoCE arrives into lossy buffer, which PFC cannot keep lossless; %s", prio, none),
			Expected: fmt.Sprintf("roce-reserved-ingress switch-priorities include %d", prio), Actual: "no roce-reserved-ingress"}
		if ingress != nil {
			fd.Actual = "roce-reserved-ingress switch-priorities " + model.IntList(ingress.SPs)
		}
		out = append(out, fd)
	}
	if egress == nil || !slices.Contains(egress.TCs, tc) {
		fd := Finding{Severity: judge.Error, Device: sw.Name, Source: rowPos(o, egress),
			Message:  fmt.Sprintf("the switch does not hold the RoCE traffic-class %d in its reserved egress pool: RoCE queues in lossy buffer on the way out; %s", tc, none),
			Expected: fmt.Sprintf("roce-reserved-egress traffic-class includes %d", tc), Actual: "no roce-reserved-egress"}
		if egress != nil {
			fd.Actual = "roce-reserved-egress traffic-class " + model.IntList(egress.TCs)
		}
		out = append(out, fd)
	}
	return out
}

// operPoolSizes adds the percent sizes of the ingress and of the egress
// pools ("50.0%", "100%"; "inf" is not a share).
func operPoolSizes(sw *model.Switch) []Finding {
	var out []Finding
	for _, dir := range []string{"ingress", "egress"} {
		total, parts, line := 0.0, []string{}, 0
		for _, p := range sw.Oper.Pools {
			v, err := strconv.ParseFloat(strings.TrimSuffix(p.Size, "%"), 64)
			if !strings.HasSuffix(p.Name, "-"+dir) || !strings.HasSuffix(p.Size, "%") || err != nil {
				continue
			}
			total += v
			parts = append(parts, p.Name+" "+p.Size)
			line = p.Line
		}
		if total <= 100 {
			continue
		}
		pos := sw.Oper.PoolPos()
		pos.Line = line
		out = append(out, Finding{
			Severity: judge.Warning, Device: sw.Name,
			Message: fmt.Sprintf("the switch's %s pools take %g%% of the buffer, above 100%%: "+
				"qoslint prints no command: lower the traffic pools' memory-percent", dir, total),
			Expected: dir + " pools ≤ 100%", Actual: strings.Join(parts, ", "), Source: pos,
		})
	}
	return out
}

// rowPos is a pool's row of the table, or the table's title when the pool
// is absent.
func rowPos(o *model.Operational, p *model.RocePool) source.Pos {
	pos := o.PoolPos()
	if p != nil && p.Line > 0 {
		pos.Line = p.Line
	}
	return pos
}
