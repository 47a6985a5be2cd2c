package checks

import (
	"testing"
)

var _ = register(evidenceRoCELoss, func(testing.TB) []checkCase {
	lossy := hw(map[string]uint64{"out_of_sequence": 1700, "packet_seq_err": 420, "implied_nak_seq_err": 0, "local_ack_timeout_err": 3, "rnr_nak_retry_err": 0})
	rdma := write(gpu01E0, cleanStats) // 1602 GiB of RDMA: ~420 million packets
	spinePFC4 := appendTo(spine02C, "nv set qos pfc default-global switch-priority 4\n")
	return []checkCase{
		{name: "not collected is silent", edits: []edit{rdma}},
		{name: "no gaps", edits: cat(hw(map[string]uint64{"out_of_sequence": 0, "packet_seq_err": 0}), []edit{rdma})},
		{name: "gaps", edits: cat(lossy, []edit{rdma}), want: []string{"error gpu01 ens1f0np0"},
			msg: "RoCE lost packets on a fabric designed lossless: 2120 PSN gaps in 419955968 RDMA packets (5.0 per million), at or above the 100 and 1 per million threshold; only a drop makes a gap; no configuration finding on this NIC explains it; no switch finding in the fabric explains it"},
		{name: "gaps, no ethtool", edits: lossy, want: []string{"error gpu01 ens1f0np0"}, msg: "the capture has no RDMA packet counts"},
		{name: "gaps below one per million", edits: cat(hw(map[string]uint64{"out_of_sequence": 300}), []edit{rdma})},
		{name: "a few gaps", edits: hw(map[string]uint64{"out_of_sequence": 99})},
		{name: "gaps on a NIC without RDMA traffic", edits: cat(lossy, []edit{write(gpu01E0, withRDMA(cleanStats, 0, 0))})},
		{name: "gaps with CRC errors: maybe the link", edits: cat(lossy, []edit{write(gpu01E0, cleanStats+"     rx_crc_errors_phy: 5000\n")}),
			want: []string{"warning gpu01 ens1f0np0"}, msg: "the port also dropped 5000 frames with a bad FCS (rx_crc_errors_phy)"},
		{name: "lossy policy is silent", edits: cat(lossy, []edit{rdma, replace("inventory.hcl", `preset = "cumulus-default"`, "preset = \"cumulus-default\"\n  roce {\n    mode = \"lossy\"\n  }")})},
		{name: "gaps and a switch without PFC on 3", edits: cat(lossy, []edit{rdma, spinePFC4}), want: []string{"error gpu01 ens1f0np0"},
			msg: "; the fabric has switch findings that drop RoCE: switch-pfc (spine02)"},
		{name: "gaps from RoCE sent on priority 0 (ToS unset)", edits: cat(lossy, []edit{rdma, replace(gpu01N, "NCCL_IB_TC=106", "")}),
			want: []string{"error gpu01 ens1f0np0"}, msg: "only a drop makes a gap; corroborates host-tos on this NIC; no switch finding"},
		{name: "gaps long ago", edits: cat(lossy, hwBefore(map[string]uint64{"out_of_sequence": 1700, "packet_seq_err": 420}), []edit{write(gpu01Interval, "30s")})},
	}
})

func TestEvidenceRoCELoss(t *testing.T) {
	lossy := hw(map[string]uint64{"out_of_sequence": 1700, "packet_seq_err": 420, "implied_nak_seq_err": 0, "local_ack_timeout_err": 3, "rnr_nak_retry_err": 0})
	rdma := write(gpu01E0, cleanStats)
	fs := evidenceRoCELoss.Run(fabric(t, cat(lossy, []edit{rdma})...))
	if len(fs) != 1 || fs[0].Actual != "out_of_sequence 1700, packet_seq_err 420, implied_nak_seq_err 0, local_ack_timeout_err (not counted) 3, rnr_nak_retry_err (not counted) 0" ||
		fs[0].Source.String() != hwFile("out_of_sequence")+":1" {
		t.Errorf("%+v", fs)
	}
}
