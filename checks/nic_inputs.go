package checks

import (
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

// nicIter calls fn for each NIC whose input `has` reports collected, and
// returns one "not collected" finding per host for the others, naming each
// missing input with what(n).
func nicIter(f *model.Fabric, what func(n *model.NIC) string, has func(n *model.NIC) bool, skipped string, fn func(h *model.Host, n *model.NIC)) []Finding {
	var out []Finding
	for _, h := range f.Hosts {
		var missing []string
		for _, n := range h.NICs {
			if !has(n) {
				missing = append(missing, what(n))
				continue
			}
			fn(h, n)
		}
		if len(missing) > 0 {
			out = append(out, notCollected(h.Name, missing, skipped))
		}
	}
	return out
}

func qosFile(n *model.NIC) string {
	if n.QosUnreadable {
		return layout.MlnxQosFile(n.Netdev) + " unreadable (see input errors)"
	}
	return layout.MlnxQosFile(n.Netdev) + " not collected"
}

func hasQos(n *model.NIC) bool { return n.QosFile != "" }

func sysfsECN(n *model.NIC) string {
	return "sysfs ecn/roce_np, ecn/roce_rp of " + n.Netdev + " not collected"
}
