package checks

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

var evidencePausePriority = inRun(&Check{
	ID:       "evidence-pause-priority",
	Kind:     KindEvidence,
	Devices:  Hosts,
	Applies:  appliesHostCounters(false),
	Severity: judge.Warning,
	Title:    "NICs send and receive pause frames only on the lossless priority",
	Doc: `Runtime evidence from ethtool-S-<netdev>.txt (` + "`ethtool -S <netdev>`" + `): mlx5 counts PFC frames
per priority as rx_prio<N>_pause (received: the switch paused the NIC) and tx_prio<N>_pause (sent:
the NIC paused the switch), and prints them only for priorities with PFC on (Linux
Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst). A pause counted on any
priority other than the policy's RoCE priority means PFC is on, and used, where no lossless traffic
belongs: it stalls whatever shares that priority and can spread head-of-line blocking across the
fabric. With a lossy policy any pause is unexpected. The finding names the configuration finding on
the same NIC it corroborates (host-pfc usually; host-dscp-map, host-trust or host-tos when traffic
is classified onto the wrong priority). A single sample is cumulative since the driver loaded, so a
pause from before a fix still counts; with two samples (--interval, or the .before files) only the
pause sent or received during the interval counts, with its rate. Pause counts PFC frames, not
RoCE: a NIC whose RDMA counters (tx/rx_vport_rdma_*, counters.rst "vPort Counters") show no RDMA
traffic (or no growth between two samples) is still reported, since PFC is on and used where no
lossless traffic belongs, but its finding says no RoCE was involved and corroborates host-pfc only,
never the classification checks. Silent for NICs whose counters were not collected.`,
	Inputs:   []Input{Ethtool},
	Requires: []*Check{hostPFC, hostDSCPMap, hostTrust, hostToS},
}, runEvidencePausePriority)

func runEvidencePausePriority(r *run) []Finding {
	f := r.f
	var out []Finding
	want := f.Policy.RoCE.Priority
	lossless := f.Policy.RoCE.Lossless()
	corr := r.corroboration(hostPFC, hostDSCPMap, hostTrust, hostToS)
	// Without RDMA traffic no RoCE was misclassified: only PFC explains it.
	corrPFC := r.corroboration(hostPFC)
	countersOf(f, func(h *model.Host, n *model.NIC, c *model.NICCounters) {
		var parts []string
		var first source.Pos
		for p, pc := range c.Prio {
			if lossless && p == want {
				continue
			}
			rx, tx := pc.RxPause, pc.TxPause
			if !(rx.Known && rx.V > 0) && !(tx.Known && tx.V > 0) {
				continue
			}
			parts = append(parts, fmt.Sprintf("priority %d: received %d%s, sent %d%s", p,
				rx.V, rateText(c.Delta, rx.V, c.Interval), tx.V, rateText(c.Delta, tx.V, c.Interval)))
			if first.IsZero() {
				first = rx.Origin.Pos()
				if !(rx.Known && rx.V > 0) {
					first = tx.Origin.Pos()
				}
			}
		}
		if len(parts) == 0 {
			return
		}
		expected := fmt.Sprintf("pause only on priority %d", want)
		msg := "pause frames on a priority other than the RoCE priority"
		if !lossless {
			expected, msg = "no pause (the policy is lossy)", "pause frames although the policy designs the fabric lossy"
		}
		tail := corr.explain(h.Name, n.Netdev, "NIC")
		if c.RDMA.None() {
			tail = "; the NIC carried no RDMA traffic (its vPort RDMA counters are 0), so no RoCE was paused: PFC is on, and used, for other traffic" +
				corrPFC.explain(h.Name, n.Netdev, "NIC")
		}
		out = append(out, Finding{
			Severity: judge.Warning, Device: h.Name, Interface: n.Netdev,
			Message:  window(c.Delta, c.Interval) + msg + tail,
			Expected: expected,
			Actual:   strings.Join(parts, "; "),
			Source:   first,
		})
	})
	return out
}
