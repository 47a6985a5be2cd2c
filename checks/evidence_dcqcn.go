package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

// dcqcnMarksMin and cnpIgnoredMin keep counter-reading races quiet: grep
// reads the hw_counters files one after another, so marks that arrive
// between the reads of np_cnp_sent and np_ecn_marked_roce_packets can
// show without their CNPs. A notification point that is on answers the
// first marked packet of a QP, so a hundred marks with no CNP at all is
// not a race. cnpIgnoredShareMin leaves alone a few ignored CNPs next to
// many handled ones (a QP of other traffic on a priority without DCQCN).
const (
	dcqcnMarksMin      = 100
	cnpIgnoredMin      = 100
	cnpIgnoredShareMin = 0.10
)

var evidenceDCQCN = inRun(&Check{
	ID:       "evidence-dcqcn",
	Kind:     KindEvidence,
	Devices:  Hosts,
	Applies:  appliesHostCounters(true),
	Severity: judge.Error,
	Title:    "DCQCN answers congestion marks with CNPs, and acts on the CNPs it receives",
	Doc: `Runtime evidence from the RDMA hw_counters of the NIC's RDMA port
(/sys/class/infiniband/<ibdev>/ports/<port>/hw_counters, mirrored in the capture's sysfs/): mlx5
counts np_ecn_marked_roce_packets (CE-marked RoCE packets its notification point received),
np_cnp_sent (CNPs it sent in answer), rp_cnp_handled and rp_cnp_ignored (CNPs its reaction point
acted on or ignored) (Linux drivers/infiniband/hw/mlx5/counters.c; commit e1f24a79f424 "IB/mlx5:
Support congestion related counters"). The counters are per port, not per priority.

At least 100 marked RoCE packets and not one CNP sent means the notification point is off on the
priority those packets arrive on (roce_np/enable/<prio> 0): the switches mark in vain and senders
never slow down, so PFC is the only brake. An error; it corroborates host-ecn, or host-trust and
host-dscp-map when the NIC classifies received RoCE onto a priority without DCQCN. Fewer marks could
be a race between reading the two files.

At least 100 ignored CNPs that are also at least 10% of all CNPs received means the reaction point
did not slow the QPs they were meant for. The driver documentation does not list the reasons a CNP
is ignored; the one configuration causes is a reaction point that is off for the QPs' priority
(roce_rp/enable/<prio> 0), so this is a warning that corroborates host-ecn. A single sample is
cumulative since the driver loaded; with two samples (--interval) the counts are the growth during
the interval. Silent for NICs whose hw_counters were not collected.`,
	Inputs:   []Input{HWCounters, IBDev2Netdev},
	Requires: []*Check{hostECN, hostTrust, hostDSCPMap},
}, runEvidenceDCQCN)

func runEvidenceDCQCN(r *run) []Finding {
	f := r.f
	var out []Finding
	want := f.Policy.RoCE.Priority
	corrNP := r.corroboration(hostECN, hostTrust, hostDSCPMap)
	corrRP := r.corroboration(hostECN)
	countersOf(f, func(h *model.Host, n *model.NIC, c *model.NICCounters) {
		if fd, ok := dcqcnNP(n, c, want); ok {
			fd.Device, fd.Message = h.Name, fd.Message+corrNP.explain(h.Name, n.Netdev, "NIC")
			out = append(out, fd)
		}
		if fd, ok := dcqcnRP(n, c, want); ok {
			fd.Device, fd.Message = h.Name, fd.Message+corrRP.explain(h.Name, n.Netdev, "NIC")
			out = append(out, fd)
		}
	})
	return out
}

// dcqcnNP: marked RoCE received, no CNP sent.
func dcqcnNP(n *model.NIC, c *model.NICCounters, want int) (Finding, bool) {
	marked, sent := c.ECNMarkedRoCE, c.CNPSent
	if !marked.Known || !sent.Known || marked.V < dcqcnMarksMin || sent.V != 0 {
		return Finding{}, false
	}
	msg := fmt.Sprintf("the NIC received %d CE-marked RoCE packets and sent no CNP: the DCQCN notification point is off on the priority they arrive on", marked.V)
	if np := n.ECNNP.At(want); np.Known && !np.V {
		msg += fmt.Sprintf(" (roce_np/enable/%d is 0)", want)
	}
	return Finding{
		Severity: judge.Error, Interface: n.Netdev,
		Message:  window(c.Delta, c.Interval) + msg,
		Expected: "a CNP for congestion-marked RoCE (np_cnp_sent > 0)",
		Actual: fmt.Sprintf("np_ecn_marked_roce_packets %d%s, np_cnp_sent 0",
			marked.V, rateText(c.Delta, marked.V, c.Interval)),
		Source: marked.Origin.Pos(),
	}, true
}

// dcqcnRP: CNPs received and ignored.
func dcqcnRP(n *model.NIC, c *model.NICCounters, want int) (Finding, bool) {
	ign, handled := c.CNPIgnored, c.CNPHandled
	if !ign.Known || ign.V < cnpIgnoredMin {
		return Finding{}, false
	}
	all := float64(ign.V)
	if handled.Known {
		all += float64(handled.V)
	}
	if float64(ign.V) < cnpIgnoredShareMin*all {
		return Finding{}, false
	}
	msg := fmt.Sprintf("the DCQCN reaction point ignored %d CNPs (%.0f%% of those received): the QPs they were meant for were not slowed; "+
		"the driver documentation does not list why a CNP is ignored, a reaction point that is off for the QPs' priority is the configuration cause", ign.V, 100*float64(ign.V)/all)
	if rp := n.ECNRP.At(want); rp.Known && !rp.V {
		msg += fmt.Sprintf(" (roce_rp/enable/%d is 0)", want)
	}
	actual := fmt.Sprintf("rp_cnp_ignored %d%s", ign.V, rateText(c.Delta, ign.V, c.Interval))
	if handled.Known {
		actual += fmt.Sprintf(", rp_cnp_handled %d", handled.V)
	}
	return Finding{
		Severity: judge.Warning, Interface: n.Netdev,
		Message:  window(c.Delta, c.Interval) + msg,
		Expected: "CNPs handled by the reaction point (rp_cnp_ignored 0)",
		Actual:   actual,
		Source:   ign.Origin.Pos(),
	}, true
}
