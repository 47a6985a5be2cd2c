package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/model"
)

var hostPFC = &Check{
	ID:       "host-pfc",
	Kind:     KindConfig,
	Devices:  Hosts,
	Severity: Error,
	Title:    "Each NIC has PFC on the RoCE priority, and only on it",
	Doc: `The NIC must honour pause frames for the RoCE priority (or it overruns the switch's
headroom and RoCE is dropped) and send them when its own receive buffer fills. mlnx_qos prints the
per-priority "enabled" row under "PFC configuration:"; the fix is one --pfc list of eight 0/1
values. PFC on a priority without lossless traffic is a warning: it lets a slow receiver pause
traffic that could have been dropped and retried. Skipped when the policy designs the fabric lossy.`,
	Inputs: []Input{MlnxQoS},
	Run:    runHostPFC,
}

func runHostPFC(f *model.Fabric) []Finding {
	if !PFCRequired(f.Policy) {
		return nil
	}
	var out []Finding
	want := f.Policy.RoCE.Priority
	has := func(n *model.NIC) bool { return hasQos(n) && n.PFC[0].Known }
	nc := nicIter(f, qosFile, has, "PFC", func(h *model.Host, n *model.NIC) {
		var on []int
		cur := map[int]bool{}
		for p, v := range n.PFC {
			if v.V {
				on = append(on, p)
				cur[p] = true
			}
		}
		j := JudgeHostPFC(f.Policy, on)
		if j.OK {
			return
		}
		out = append(out, Finding{
			Severity: j.Severity, Device: h.Name, Interface: n.Netdev, Message: j.Reason,
			Expected: fmt.Sprintf("PFC on priority %d (%s)", want, pfcList(map[int]bool{want: true})),
			Actual:   fmt.Sprintf("PFC on %s (%s)", prioList(on), pfcList(cur)),
			Source:   n.PFC[0].Origin.Pos,
			Changes: []Change{{Kind: MlnxQos, Target: n.Netdev, Flag: "--pfc",
				Value: pfcList(map[int]bool{want: true}), Old: pfcList(cur), HasOld: true}},
		})
	})
	return append(out, nc...)
}
