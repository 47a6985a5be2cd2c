package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var hostPFC = &Check{
	ID:       "host-pfc",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesRoCEHost,
	Severity: judge.Error,
	Title:    "Each NIC has PFC on the RoCE priority, and only on it; off on it in a lossy fabric",
	Doc: `The NIC must honour pause frames for the RoCE priority (or it overruns the switch's
headroom and RoCE is dropped) and send them when its own receive buffer fills. mlnx_qos prints the
per-priority "enabled" row under "PFC configuration:"; the fix is one --pfc list of eight 0/1
values. PFC on a priority without lossless traffic is a warning: it lets a slow receiver pause
traffic that could have been dropped and retried. When the policy designs the fabric lossy, PFC on
the RoCE priority is a warning: Cumulus Linux's RoCE defaults enable PFC on switch priority 3 in
lossless mode only ("Enable PFC on switch priority 3 (RoCE)": lossy NO, CumulusNetworks/docs
content/cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/
RDMA-over-Converged-Ethernet-RoCE.md) and lossy-multi-tc shows "pfc-priority -", so no switch
pauses RoCE or honours the NIC's pause (NetQ's RoCE test 0 checks mode and flow control on switch
and host alike); the fix turns it off there and leaves the NIC's other priorities as they are.`,
	Inputs: []Input{MlnxQoS},
	Run:    runHostPFC,
}

func runHostPFC(f *model.Fabric) []Finding {
	var out []Finding
	want := f.Policy.RoCE.Priority
	has := func(n *model.NIC) bool { return hasQos(n) && n.PFC.At(0).Known }
	nc := nicIter(f, qosFile, has, "PFC", func(h *model.Host, n *model.NIC) {
		var on []int
		cur := map[int]bool{}
		for p, v := range n.PFC.All() {
			if v.V {
				on = append(on, p)
				cur[p] = true
			}
		}
		j := judge.HostPFC(f.Policy, on)
		if j.OK {
			return
		}
		wanted := map[int]bool{want: true}
		expected := fmt.Sprintf("PFC on priority %d (%s)", want, pfcList(wanted))
		if !judge.PFCRequired(f.Policy) {
			// Lossy: the RoCE priority's PFC off, the others as they are.
			wanted = map[int]bool{}
			for _, p := range judge.WantedPFC(f.Policy, on) {
				wanted[p] = true
			}
			expected = fmt.Sprintf("PFC off on priority %d (%s)", want, pfcList(wanted))
		}
		out = append(out, Finding{
			Severity: j.Severity, Device: h.Name, Interface: n.Netdev, Message: j.Reason,
			Expected: expected,
			Actual:   fmt.Sprintf("PFC on %s (%s)", judge.PrioList(on), pfcList(cur)),
			Source:   n.PFC.At(0).Origin.Pos(),
			Changes: []Change{{Kind: MlnxQos, Target: n.Netdev, Flag: "--pfc",
				Value: pfcList(wanted), Old: pfcList(cur), HasOld: true}},
		})
	})
	return append(out, nc...)
}
