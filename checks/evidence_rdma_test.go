package checks

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// withRDMA sets the vPort RDMA counters of an mlx5EthtoolS capture: tx
// and rx bytes, 4 KiB packets, as mlx5 prints them (en_stats.c
// vport_stats_desc; Linux Documentation/networking/device_drivers/
// ethernet/mellanox/mlx5/counters.rst, "vPort Counters").
func withRDMA(stats string, rx, tx uint64) string {
	set := func(s, name string, v uint64) string {
		re := regexp.MustCompile(`(?m)^     ` + name + `: \d+$`)
		line := "     " + name + ": " + uitoa(v)
		if re.MatchString(s) {
			return re.ReplaceAllString(s, line)
		}
		return strings.Replace(s, "     rx_discards_phy:", line+"\n     rx_discards_phy:", 1)
	}
	for _, c := range []struct {
		name string
		v    uint64
	}{{"rx_vport_rdma_unicast_packets", rx / 4096}, {"rx_vport_rdma_unicast_bytes", rx},
		{"tx_vport_rdma_unicast_packets", tx / 4096}, {"tx_vport_rdma_unicast_bytes", tx}} {
		stats = set(stats, c.name, c.v)
	}
	return stats
}

// withoutRDMA drops the vPort RDMA counters, as drivers that do not print
// them.
func withoutRDMA(stats string) string {
	return regexp.MustCompile(`(?m)^     [rt]x_vport_rdma_\w+: \d+\n`).ReplaceAllString(stats, "")
}

func uitoa(v uint64) string {
	if v == 0 {
		return "0"
	}
	var b []byte
	for ; v > 0; v /= 10 {
		b = append([]byte{byte('0' + v%10)}, b...)
	}
	return string(b)
}

// hwFile is one RDMA hw_counters file of gpu01's ens1f0np0 (mlx5_0 port 1
// in the clean pod's ibdev2netdev), one "%llu\n" value as the RDMA core
// prints it (drivers/infiniband/core/sysfs.c print_hw_stat).
func hwFile(name string) string {
	return dev("gpu01", "sysfs/class/infiniband/mlx5_0/ports/1/hw_counters/"+name)
}

func hw(vals map[string]uint64) []edit {
	var out []edit
	for name, v := range vals {
		out = append(out, write(hwFile(name), uitoa(v)+"\n"))
	}
	return out
}

func hwBefore(vals map[string]uint64) []edit {
	var out []edit
	for name, v := range vals {
		out = append(out, write(strings.Replace(hwFile(name), "/sysfs/", "/sysfs.before/", 1), uitoa(v)+"\n"))
	}
	return out
}

func cat(groups ...[]edit) []edit {
	var out []edit
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// The RDMA counters decide whether traffic on a wrong priority is RoCE.
var _ = register(evidenceRoCEPriority, func(testing.TB) []checkCase {
	// Only TCP on this NIC: 655 GiB on priority 0, RDMA counters 0.
	tcpOnly := withRDMA(prio0Stats, 0, 0)
	// RoCE on 3 (790 GiB of RDMA, all of it fits priority 3), a large
	// TCP backup on 0 that outgrew it.
	tcpBeside := withRDMA(mlx5EthtoolS(map[int]traffic{
		0: {rxBytes: 3 * gib, txBytes: 1200 * gib},
		3: {rxBytes: 812 * gib, txBytes: 790 * gib},
	}, []int{3}), 812*gib, 790*gib)
	return []checkCase{
		{name: "a NIC that carried only TCP is not accused", edits: []edit{write(gpu01E0, tcpOnly)}},
		{name: "TCP outgrowing RoCE on its own priority is not RoCE", edits: []edit{write(gpu01E0, tcpBeside)}},
		{name: "no RDMA counters: a weaker verdict", edits: []edit{write(gpu01E0, withoutRDMA(prio0Stats))},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "the capture has no RDMA counters (tx_vport_rdma_unicast_bytes), so this traffic may be TCP rather than RoCE: a weaker verdict"},
		{name: "RDMA partly elsewhere", edits: []edit{write(gpu01E0, withRDMA(prio0Stats, 0, 300*gib))},
			want: []string{"error gpu01 ens1f0np0"}, msg: "the NIC sent 300.0 GiB of RDMA, so at least 300.0 GiB of it left outside priority 3"},
		{name: "RDMA elsewhere below the threshold", edits: []edit{write(gpu01E0, withRDMA(prio0Stats, 0, 900<<20))}},
		// Two samples: priority 0 grew by 655 GiB, RDMA did not grow at all.
		{name: "bytes on 0 in the interval, no RDMA growth", edits: []edit{write(gpu01E0, withRDMA(prio0Stats, 5*gib, 5*gib)),
			write(gpu01E0Before, withRDMA(cleanStats, 5*gib, 5*gib)), write(gpu01Interval, "1m")}},
		{name: "bytes and RDMA on 0 in the interval", edits: []edit{write(gpu01E0, withRDMA(prio0Stats, 5*gib, 600*gib)),
			write(gpu01E0Before, withRDMA(cleanStats, 5*gib, 5*gib)), write(gpu01Interval, "1m")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "in the last 1m0s: RoCE-sized traffic left on priority 0"},
	}
})

// Pause is PFC, not RoCE: without RDMA traffic the finding stays, but
// names only host-pfc.
var _ = register(evidencePausePriority, func(testing.TB) []checkCase {
	pcp := replace(gpu01Q0, "Priority trust state: dscp", "Priority trust state: pcp")
	pfc34 := replace(gpu01Q0, "enabled     0   0   0   1   0", "enabled     0   0   0   1   1")
	return []checkCase{
		{name: "RDMA present: the classification findings count", edits: []edit{write(gpu01E0, pause4Stats), pcp},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "; corroborates host-trust on this NIC"},
		{name: "no RDMA: trust pcp explains nothing", edits: []edit{write(gpu01E0, withRDMA(pause4Stats, 0, 0)), pcp},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "the NIC carried no RDMA traffic (its vPort RDMA counters are 0), so no RoCE was paused: PFC is on, and used, for other traffic; no configuration finding on this NIC explains it"},
		{name: "no RDMA: PFC on 4 explains it", edits: []edit{write(gpu01E0, withRDMA(pause4Stats, 0, 0)), pcp, pfc34},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "for other traffic; corroborates host-pfc on this NIC"},
	}
})

var _ = register(evidenceDCQCN, func(testing.TB) []checkCase {
	npOff := replace(dev("gpu01", "sysfs/class/net/ens1f0np0/ecn/roce_np/enable/3"), "1", "0")
	noCNP := hw(map[string]uint64{"np_ecn_marked_roce_packets": 52118, "np_cnp_sent": 0, "rp_cnp_handled": 9000, "rp_cnp_ignored": 0})
	return []checkCase{
		{name: "not collected is silent", edits: []edit{write(gpu01E0, cleanStats)}},
		{name: "marks answered", edits: hw(map[string]uint64{"np_ecn_marked_roce_packets": 52118903, "np_cnp_sent": 2261950, "rp_cnp_handled": 1804477, "rp_cnp_ignored": 0})},
		{name: "marks, no CNP", edits: noCNP, want: []string{"error gpu01 ens1f0np0"},
			msg: "the NIC received 52118 CE-marked RoCE packets and sent no CNP: the DCQCN notification point is off on the priority they arrive on; no configuration finding"},
		{name: "marks, no CNP, NP off in the configuration", edits: cat(noCNP, []edit{npOff}), want: []string{"error gpu01 ens1f0np0"},
			msg: "(roce_np/enable/3 is 0); corroborates host-ecn on this NIC"},
		{name: "a few marks may be a race", edits: hw(map[string]uint64{"np_ecn_marked_roce_packets": 99, "np_cnp_sent": 0})},
		{name: "congestion counters absent (no cc_query_allowed)", edits: hw(map[string]uint64{"out_of_sequence": 0})},
		{name: "CNPs ignored", edits: hw(map[string]uint64{"rp_cnp_handled": 100, "rp_cnp_ignored": 900}), want: []string{"warning gpu01 ens1f0np0"},
			msg: "the DCQCN reaction point ignored 900 CNPs (90% of those received)"},
		{name: "a few ignored next to many handled", edits: hw(map[string]uint64{"rp_cnp_handled": 100000, "rp_cnp_ignored": 500})},
		{name: "marks long ago, none in the interval", edits: cat(noCNP, hwBefore(map[string]uint64{"np_ecn_marked_roce_packets": 52118, "np_cnp_sent": 0}),
			[]edit{write(gpu01Interval, "30s\n")})},
		{name: "marks in the interval", edits: cat(noCNP, hwBefore(map[string]uint64{"np_ecn_marked_roce_packets": 118, "np_cnp_sent": 0}),
			[]edit{write(gpu01Interval, "30s\n")}), want: []string{"error gpu01 ens1f0np0"}, msg: "in the last 30s: the NIC received 52000 CE-marked"},
	}
})

// dcqcnNoCNP: 52118 marked packets answered by no CNP.
var dcqcnNoCNP = hw(map[string]uint64{"np_ecn_marked_roce_packets": 52118, "np_cnp_sent": 0, "rp_cnp_handled": 9000, "rp_cnp_ignored": 0})

func TestEvidenceDCQCN(t *testing.T) {
	fs := evidenceDCQCN.Run(fabric(t, dcqcnNoCNP...))
	if len(fs) != 1 || fs[0].Actual != "np_ecn_marked_roce_packets 52118, np_cnp_sent 0" || fs[0].Source.String() != hwFile("np_ecn_marked_roce_packets")+":1" {
		t.Errorf("%+v", fs)
	}
}

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

// A real-format capture of a port that carried only TCP (hostfiles
// testdata, every vPort RDMA counter 0, 700 GiB on priority 0): not
// accused of RoCE on the wrong priority; without its RDMA lines the same
// bytes give only a warning that says they may be TCP.
var _ = register(evidenceRoCEPriority, func(t testing.TB) []checkCase {
	data, err := os.ReadFile("../collectors/hostfiles/testdata/ethtool/constructed_tcp_only_vport_rdma.txt")
	if err != nil {
		t.Fatal(err)
	}
	return []checkCase{
		{name: "TCP only", edits: []edit{write(gpu01E0, string(data))}},
		{name: "TCP only, RDMA counters cut", edits: []edit{write(gpu01E0, withoutRDMA(string(data)))},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "may be TCP rather than RoCE"},
	}
})
