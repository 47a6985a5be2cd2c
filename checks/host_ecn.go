package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

var hostECN = &Check{
	ID:       "host-ecn",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesRoCEHost,
	Severity: judge.Error,
	Title:    "DCQCN is on for the RoCE priority at both ends: notification and reaction point",
	Doc: `DCQCN needs two halves on the NIC, per priority: the notification point (roce_np), which
turns a received Congestion Experienced mark into a CNP back to the sender, and the reaction point
(roce_rp), which slows the sender's QP when a CNP arrives. MLNX_OFED exposes them as
/sys/class/net/<netdev>/ecn/roce_np/enable/<prio> and .../roce_rp/enable/<prio>. With either off
for the RoCE priority, switches mark packets in vain and the only brake is PFC. The sysfs writes do
not survive a reboot; mlxconfig's ROCE_CC_PRIO_MASK makes them persistent.`,
	Inputs: []Input{SysfsECN},
	Run:    runHostECN,
}

func runHostECN(f *model.Fabric) []Finding {
	var out []Finding
	p := f.Policy.RoCE.Priority
	has := func(n *model.NIC) bool { return n.ECNNP.At(p).Known || n.ECNRP.At(p).Known }
	nc := nicIter(f, func(n *model.NIC) string { return sysfsECN(n) }, has, "DCQCN enables", func(h *model.Host, n *model.NIC) {
		for _, pt := range []struct {
			name string
			v    model.Value[bool]
		}{{layout.PointNP, n.ECNNP.At(p)}, {layout.PointRP, n.ECNRP.At(p)}} {
			j := judge.HostDCQCN(f.Policy, pt.name, p, pt.v.V)
			if !pt.v.Known || j.OK {
				continue
			}
			out = append(out, Finding{
				Severity: j.Severity, Device: h.Name, Interface: n.Netdev,
				Message:  j.Reason,
				Expected: fmt.Sprintf("roce_%s/enable/%d = 1", pt.name, p),
				Actual:   fmt.Sprintf("roce_%s/enable/%d = 0", pt.name, p),
				Source:   pt.v.Origin.Pos(),
				Changes:  []Change{{Kind: Sysfs, Target: model.ECNPath(n.Netdev, pt.name, p), Value: "1", Old: "0", HasOld: true}},
			})
		}
	})
	return append(out, nc...)
}
