package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/collectors/layout"
	"github.com/qoslint/qoslint/model"
)

var hostCNP = &Check{
	ID:       "host-cnp",
	Device:   "host",
	Severity: Error,
	Title:    "The NIC marks its CNPs with the CNP DSCP and 802.1p priority the switches expect",
	Doc: `When a NIC's notification point sends a CNP it marks it with its own DSCP and 802.1p
priority (/sys/class/net/<netdev>/ecn/roce_np/cnp_dscp and cnp_802p_prio; mlxconfig CNP_DSCP_P1 and
CNP_802P_PRIO_P1 persistently). The switches give the policy's CNP DSCP (48 by default) a strict
queue of its own. A NIC that marks CNPs differently sends them into a lossy or the RoCE queue, where
they arrive late or not at all, and DCQCN reacts to congestion too slowly.`,
	Run: runHostCNP,
}

func runHostCNP(f *model.Fabric) []Finding {
	var out []Finding
	c := f.Policy.CNP
	has := func(n *model.NIC) bool { return n.CNPDSCP.Known || n.CNPPrio.Known }
	what := func(n *model.NIC) string {
		return "sysfs ecn/roce_np/cnp_dscp, cnp_802p_prio of " + n.Netdev + " not collected"
	}
	nc := nicIter(f, what, has, "CNP marking", func(h *model.Host, n *model.NIC) {
		for _, a := range []struct {
			attr string
			v    model.Value[int]
			want int
			what string
		}{
			{layout.CNPDSCP, n.CNPDSCP, c.DSCP, "DSCP"},
			{layout.CNP802pPrio, n.CNPPrio, c.Priority, "802.1p priority"},
		} {
			if !a.v.Known || a.v.V == a.want {
				continue
			}
			out = append(out, Finding{
				Severity: Error, Device: h.Name, Interface: n.Netdev,
				Message:  fmt.Sprintf("CNPs leave with %s %d, not the CNP %s %d", a.what, a.v.V, a.what, a.want),
				Expected: fmt.Sprintf("%s = %d", a.attr, a.want),
				Actual:   fmt.Sprintf("%s = %d", a.attr, a.v.V),
				Source:   a.v.Origin.Pos,
				Changes:  []Change{{Kind: Sysfs, Target: model.CNPPath(n.Netdev, a.attr), Value: itoa(a.want), Old: itoa(a.v.V), HasOld: true}},
			})
		}
	})
	return append(out, nc...)
}
