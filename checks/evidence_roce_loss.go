package checks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

// lossEventsMin and lossRateMin decide when PSN gaps are more than a
// lossless fabric's background. Even with PFC everywhere, bit errors
// drop frames: a 4 KiB RoCE packet is 32768 bits, so a link at the
// 1e-12 bit error rate Ethernet specifies before FEC loses about three
// packets in a hundred million. One gap per million RDMA packets is thirty
// times that; a hundred gaps keep a link flap or a switch reboot, whose
// losses a single cumulative sample keeps forever, from counting alone.
const (
	lossEventsMin = 100
	lossRateMin   = 1e-6
)

var evidenceRoCELoss = inRun(&Check{
	ID:       "evidence-roce-loss",
	Kind:     KindEvidence,
	Devices:  Hosts,
	Applies:  appliesHostCounters(false),
	Severity: judge.Error,
	Title:    "RoCE loses no packets on a lossless fabric",
	Doc: `Runtime evidence from the RDMA hw_counters of the NIC's RDMA port
(/sys/class/infiniband/<ibdev>/ports/<port>/hw_counters): RoCE's reliable transport numbers every
packet (PSN), and mlx5 counts the gaps: out_of_sequence (packets received past a gap),
packet_seq_err (NAKs from a peer that saw a gap in what this NIC sent) and implied_nak_seq_err
(responses that imply lost packets) (Linux drivers/infiniband/hw/mlx5/counters.c; commit
0ad17a8f7fa0 "IB/mlx5: Add port protocol stats"). On a fabric the policy designs lossless, PFC is
meant to make these zero: each gap is a dropped packet and a go-back-N retransmission, which costs
far more than the packet. The check reports a NIC whose gaps reach 100 and one per million of its
RDMA packets (rx/tx_vport_rdma_*_packets of ethtool -S, when collected); the background from bit
errors on healthy links is some thirty times lower. local_ack_timeout_err (a lost tail, or a peer
that stopped answering) and rnr_nak_retry_err (a receiver without buffers: the application, not
the network) are shown but not counted. When the port also dropped frames with a bad FCS
(rx_crc_errors_phy) at least as often as it saw gaps, the finding is a warning: link corruption,
which PFC cannot prevent, may explain them. The counters are per port, and the NIC's switch port
is not known to qoslint, so the finding names the configuration findings on this NIC that put
RoCE where PFC does not protect it (host-pfc; host-tos, host-trust, host-dscp-map: RoCE on a lossy
priority) and the switch findings anywhere in the fabric that drop RoCE (switch-pfc,
switch-roce-mode, switch-queue-map, switch-dscp-map, switch-trust). Silent for a lossy policy, where DCQCN and retransmission are the
design, and for NICs whose hw_counters were not collected. A single sample is cumulative since the
driver loaded; with two samples (--interval) the counts are the growth during the interval.`,
	Inputs:   []Input{HWCounters, Ethtool, IBDev2Netdev},
	Requires: []*Check{hostPFC, hostToS, hostTrust, hostDSCPMap, switchPFC, switchRoCEMode, switchQueueMap, switchDSCPMap, switchTrust},
}, runEvidenceRoCELoss)

func runEvidenceRoCELoss(r *run) []Finding {
	f := r.f
	if f.Policy.RoCE.Mode != "lossless" {
		return nil
	}
	var out []Finding
	corr := r.corroboration(hostPFC, hostToS, hostTrust, hostDSCPMap)
	var switches string
	countersOf(f, func(h *model.Host, n *model.NIC, c *model.NICCounters) {
		fd, ok := roceLoss(n, c)
		if !ok {
			return
		}
		if switches == "" {
			switches = switchDropFindings(r)
		}
		fd.Device = h.Name
		fd.Message += corr.explain(h.Name, n.Netdev, "NIC") + switches
		out = append(out, fd)
	})
	return out
}

// roceLoss judges one NIC's PSN gaps.
func roceLoss(n *model.NIC, c *model.NICCounters) (Finding, bool) {
	t := c.Transport
	losses, ok := t.Losses()
	if !ok || losses < lossEventsMin || c.RDMA.None() {
		return Finding{}, false
	}
	pkts := model.SatAdd(c.RDMA.RxPackets.V, c.RDMA.TxPackets.V)
	against := ""
	if c.RDMA.RxPackets.Known || c.RDMA.TxPackets.Known {
		if float64(losses) < lossRateMin*float64(pkts) {
			return Finding{}, false
		}
		against = fmt.Sprintf(" in %d RDMA packets (%.1f per million)", pkts, 1e6*float64(losses)/float64(pkts))
	}
	threshold := fmt.Sprintf("the %d and 1 per million threshold", lossEventsMin)
	if against == "" {
		threshold = fmt.Sprintf("the %d threshold (the capture has no RDMA packet counts to weigh them against)", lossEventsMin)
	}
	sev, msg := judge.Error, fmt.Sprintf("RoCE lost packets on a fabric designed lossless: %d PSN gaps%s%s, at or above %s; only a drop makes a gap",
		losses, rateText(c.Delta, losses, c.Interval), against, threshold)
	if crc := c.RxCRCErrors; crc.Known && crc.V >= losses {
		sev = judge.Warning
		msg += fmt.Sprintf("; the port also dropped %d frames with a bad FCS (rx_crc_errors_phy), so link corruption, which PFC cannot prevent, may explain them", crc.V)
	}
	return Finding{
		Severity: sev, Interface: n.Netdev,
		Message:  window(c.Delta, c.Interval) + msg,
		Expected: "no PSN gaps (out_of_sequence, packet_seq_err, implied_nak_seq_err 0)",
		Actual:   transportText(t),
		Source:   worstLoss(t).Origin.Pos(),
	}, true
}

// transportText lists the transport counters the capture has.
func transportText(t model.TransportCounters) string {
	var parts []string
	for _, c := range []struct {
		name string
		v    model.Value[uint64]
	}{{"out_of_sequence", t.OutOfSequence}, {"packet_seq_err", t.PacketSeqErr}, {"implied_nak_seq_err", t.ImpliedNakSeqErr},
		{"local_ack_timeout_err (not counted)", t.LocalAckTimeoutErr}, {"rnr_nak_retry_err (not counted)", t.RnrNakRetryErr}} {
		if c.v.Known {
			parts = append(parts, fmt.Sprintf("%s %d", c.name, c.v.V))
		}
	}
	return strings.Join(parts, ", ")
}

// worstLoss is the gap counter with the largest count, the evidence.
func worstLoss(t model.TransportCounters) model.Value[uint64] {
	w := t.OutOfSequence
	for _, v := range []model.Value[uint64]{t.PacketSeqErr, t.ImpliedNakSeqErr} {
		if v.Known && (!w.Known || v.V > w.V) {
			w = v
		}
	}
	return w
}

// switchDropFindings names the switch configuration findings anywhere in
// the fabric that drop RoCE, as a message tail ("" → "; no switch ...").
func switchDropFindings(r *run) string {
	var parts []string
	for _, ck := range []*Check{switchPFC, switchRoCEMode, switchQueueMap, switchDSCPMap, switchTrust} {
		var devs []string
		for _, fd := range r.findings(ck) {
			if fd.Severity != judge.Info && !slices.Contains(devs, fd.Device) {
				devs = append(devs, fd.Device)
			}
		}
		if len(devs) > 0 {
			slices.Sort(devs)
			parts = append(parts, fmt.Sprintf("%s (%s)", ck.ID, strings.Join(devs, ", ")))
		}
	}
	if len(parts) == 0 {
		return "; no switch finding in the fabric explains it"
	}
	return "; the fabric has switch findings that drop RoCE: " + strings.Join(parts, ", ")
}
