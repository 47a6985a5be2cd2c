package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

var hostCNP = &Check{
	ID:       "host-cnp",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesRoCEHost,
	Severity: judge.Error,
	Title:    "The NIC marks its CNPs with the CNP DSCP and 802.1p priority the switches expect",
	Doc: `When a NIC's notification point sends a CNP it marks it with its own DSCP and 802.1p
priority (/sys/class/net/<netdev>/ecn/roce_np/cnp_dscp and cnp_802p_prio; mlxconfig CNP_DSCP_P1 and
CNP_802P_PRIO_P1 persistently). The switches give the policy's CNP DSCP (48 by default) a strict
queue of its own. A NIC that marks CNPs differently sends them into a lossy or the RoCE queue, where
they arrive late or not at all, and DCQCN reacts to congestion too slowly.`,
	Inputs: []Input{SysfsECN},
	Run:    runHostCNP,
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
			j    judge.Judgement
		}{
			{layout.CNPDSCP, n.CNPDSCP, c.DSCP, judge.HostCNPDSCP(f.Policy, n.CNPDSCP.V)},
			{layout.CNP802pPrio, n.CNPPrio, c.Priority, judge.HostCNPPrio(f.Policy, n.CNPPrio.V)},
		} {
			if !a.v.Known || a.j.OK {
				continue
			}
			out = append(out, Finding{
				Severity: a.j.Severity, Device: h.Name, Interface: n.Netdev,
				Message:  a.j.Reason,
				Expected: fmt.Sprintf("%s = %d", a.attr, a.want),
				Actual:   fmt.Sprintf("%s = %d", a.attr, a.v.V),
				Source:   a.v.Origin.Pos(),
				Changes:  []Change{{Kind: Sysfs, Target: model.CNPPath(n.Netdev, a.attr), Value: strconv.Itoa(a.want), Old: strconv.Itoa(a.v.V), HasOld: true}},
			})
		}
	})
	return append(out, nc...)
}
