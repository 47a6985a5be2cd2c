package checks

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

// roceBytesMin and roceShareMin decide when a priority carried RoCE-sized
// traffic. The counters are cumulative since the driver loaded; ssh,
// monitoring and LLDP on priority 0 add up to megabytes a day, while one
// NCCL job moves gigabytes per second, so a job that ran on the wrong
// priority leaves far more than 1 GiB and a tenth of the NIC's bytes.
const (
	roceBytesMin = 1 << 30
	roceShareMin = 0.10
)

var evidenceRoCEPriority = inRun(&Check{
	ID:       "evidence-roce-priority",
	Kind:     KindEvidence,
	Devices:  Hosts,
	Applies:  appliesHostCounters(false),
	Severity: judge.Error,
	Title:    "RoCE traffic leaves each NIC on the lossless priority",
	Doc: `Runtime evidence from ethtool-S-<netdev>.txt (` + "`ethtool -S <netdev>`" + `): mlx5 counts the bytes sent
per priority as tx_prio<N>_bytes (Linux
Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst). On a RoCE NIC nearly
everything should leave on the policy's RoCE priority. The check reports a priority N other than
that one which sent RoCE-sized traffic: at least 1 GiB and at least 10% of the NIC's bytes over all
priorities, while the RoCE priority sent less than N. The thresholds keep management and storage
TCP on priority 0 quiet (it stays small next to RoCE) while any job that ran mostly on the wrong
priority, without PFC and without its buffers, is caught: the usual causes are a ToS that is not
the RoCE DSCP (host-tos), a NIC that trusts pcp (host-trust) or a dscp2prio entry that points
elsewhere (host-dscp-map), and the finding names the one it corroborates on the same NIC.

Per-priority bytes count TCP as well as RoCE, so the check then asks the NIC's RDMA engine: mlx5
counts RDMA traffic (RoCE, UD, RC) apart from Ethernet traffic as tx_vport_rdma_unicast_bytes and
tx_vport_rdma_multicast_bytes (counters.rst, "vPort Counters"). At most the RoCE priority's bytes
of that RDMA can have left on the RoCE priority, so RDMA bytes minus the RoCE priority's bytes is
RoCE that certainly left elsewhere; only when that is itself above both thresholds is the NIC
accused. A NIC that carried only TCP (RDMA counters 0, or no growth between two samples) is never
accused, however much TCP it sent on priority 0. The documentation does not say whether the vPort
and the port count the same header bytes; the thresholds dwarf any such difference. When the
capture has no RDMA counters (older drivers do not print them) the finding is a warning that says
the traffic may be TCP. A single sample is cumulative since the driver loaded; with two samples
(--interval, or the .before files) the thresholds apply to the bytes sent during the interval, and
the rate is given. Silent for NICs whose counters were not collected.`,
	Inputs:   []Input{Ethtool},
	Requires: []*Check{hostToS, hostTrust, hostDSCPMap},
}, runEvidenceRoCEPriority)

func runEvidenceRoCEPriority(r *run) []Finding {
	f := r.f
	var out []Finding
	want := f.Policy.RoCE.Priority
	corr := r.corroboration(hostToS, hostTrust, hostDSCPMap)
	countersOf(f, func(h *model.Host, n *model.NIC, c *model.NICCounters) {
		var total float64
		for _, pc := range c.Prio {
			total += float64(pc.TxBytes.V) // unknown counters are 0
		}
		roce := c.Prio[want].TxBytes.V
		var parts []string
		worst := -1
		for p, pc := range c.Prio {
			v := pc.TxBytes
			if p == want || !v.Known || v.V < roceBytesMin || float64(v.V) < roceShareMin*total || v.V <= roce {
				continue
			}
			rate := ""
			if c.Delta && c.Interval > 0 {
				rate = ", " + bytesText(uint64(perSecond(v.V, c.Interval))) + "/s"
			}
			parts = append(parts, fmt.Sprintf("priority %d sent %s (%.0f%%%s)", p, bytesText(v.V), 100*float64(v.V)/total, rate))
			if worst < 0 || v.V > c.Prio[worst].TxBytes.V {
				worst = p
			}
		}
		if worst < 0 {
			return
		}
		sev, rdma, ok := rdmaVerdict(c, roce, total, want)
		if !ok {
			return // the bytes elsewhere are not RDMA: TCP, storage, ...
		}
		out = append(out, Finding{
			Severity: sev, Device: h.Name, Interface: n.Netdev,
			Message: window(c.Delta, c.Interval) + fmt.Sprintf("RoCE-sized traffic left on priority %d, above the %s and %.0f%% threshold, while the RoCE priority %d sent %s",
				worst, bytesText(roceBytesMin), 100*roceShareMin, want, bytesText(roce)) + rdma + corr.explain(h.Name, n.Netdev, "NIC"),
			Expected: fmt.Sprintf("RoCE on priority %d", want),
			Actual:   strings.Join(parts, "; "),
			Source:   c.Prio[worst].TxBytes.Origin.Pos(),
		})
	})
	return out
}

// rdmaVerdict weighs the per-priority bytes against the RDMA counters.
// RDMA bytes beyond what the RoCE priority sent left on other priorities;
// ok is false when that is below the thresholds, i.e. the traffic
// elsewhere was not RoCE. Without RDMA counters the verdict is a warning
// that says it may be TCP.
func rdmaVerdict(c *model.NICCounters, roce uint64, total float64, want int) (judge.Severity, string, bool) {
	tx := c.RDMA.TxBytes
	if !tx.Known {
		return judge.Warning, "; the capture has no RDMA counters (tx_vport_rdma_unicast_bytes), so this traffic may be TCP rather than RoCE: a weaker verdict", true
	}
	var elsewhere uint64
	if tx.V > roce {
		elsewhere = tx.V - roce
	}
	if elsewhere < roceBytesMin || float64(elsewhere) < roceShareMin*total {
		return judge.Error, "", false
	}
	return judge.Error, fmt.Sprintf("; the RDMA counters confirm it is RoCE: the NIC sent %s of RDMA, so at least %s of it left outside priority %d",
		bytesText(tx.V), bytesText(elsewhere), want), true
}
