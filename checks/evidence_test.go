package checks

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

var gpu01E0 = dev("gpu01", "ethtool-S-ens1f0np0.txt")

// traffic is one priority's counters in an mlx5 `ethtool -S` capture.
type traffic struct{ rxBytes, txBytes, rxPause, txPause uint64 }

// mlx5EthtoolS prints counters in mlx5's order and format (ethtool.c
// do_gstats "     %.*s: %llu"; en_stats.c prints the per-priority traffic
// group for every priority, then the PFC group only for priorities with
// PFC on, which are the keys of pfc).
func mlx5EthtoolS(prio map[int]traffic, pfc []int) string {
	var b strings.Builder
	var rx, tx uint64
	for _, t := range prio {
		rx, tx = rx+t.rxBytes, tx+t.txBytes
	}
	b.WriteString("NIC statistics:\n")
	for _, l := range []struct {
		n string
		v uint64
	}{{"rx_packets", rx / 4096}, {"rx_bytes", rx}, {"tx_packets", tx / 4096}, {"tx_bytes", tx},
		{"rx_vport_rdma_unicast_packets", rx / 4096}, {"rx_vport_rdma_unicast_bytes", rx},
		{"tx_vport_rdma_unicast_packets", tx / 4096}, {"tx_vport_rdma_unicast_bytes", tx},
		{"rx_discards_phy", 0}, {"tx_discards_phy", 0}, {"rx_pause_ctrl_phy", 0}, {"link_down_events_phy", 1}} {
		fmt.Fprintf(&b, "     %s: %d\n", l.n, l.v)
	}
	for p := 0; p < 8; p++ {
		t := prio[p]
		fmt.Fprintf(&b, "     rx_prio%d_bytes: %d\n     rx_prio%d_packets: %d\n     rx_prio%d_discards: 0\n", p, t.rxBytes, p, t.rxBytes/4096, p)
		fmt.Fprintf(&b, "     tx_prio%d_bytes: %d\n     tx_prio%d_packets: %d\n", p, t.txBytes, p, t.txBytes/4096)
	}
	for _, p := range pfc {
		t := prio[p]
		fmt.Fprintf(&b, "     rx_prio%d_pause: %d\n     rx_prio%d_pause_duration: %d\n", p, t.rxPause, p, t.rxPause*3)
		fmt.Fprintf(&b, "     tx_prio%d_pause: %d\n     tx_prio%d_pause_duration: %d\n", p, t.txPause, p, t.txPause*3)
		fmt.Fprintf(&b, "     rx_prio%d_pause_transition: %d\n", p, t.rxPause/2)
	}
	b.WriteString("     tx_pause_storm_warning_events: 0\n     tx_pause_storm_error_events: 0\n")
	return b.String()
}

const gib = 1 << 30

var (
	// A healthy RoCE NIC: a little TCP on 0, everything else and every
	// pause on 3.
	cleanStats = mlx5EthtoolS(map[int]traffic{
		0: {rxBytes: 3 << 20, txBytes: 2 << 20},
		3: {rxBytes: 812 * gib, txBytes: 790 * gib, rxPause: 18211, txPause: 9120},
	}, []int{3})
	// RoCE left on priority 0 (the ToS was not the RoCE DSCP).
	prio0Stats = mlx5EthtoolS(map[int]traffic{
		0: {rxBytes: 640 * gib, txBytes: 655 * gib},
		3: {rxBytes: 1 << 20, txBytes: 1 << 20},
	}, []int{3})
	// PFC also on 4 and used there.
	pause4Stats = mlx5EthtoolS(map[int]traffic{
		0: {rxBytes: 3 << 20, txBytes: 2 << 20},
		3: {rxBytes: 812 * gib, txBytes: 790 * gib, rxPause: 18211, txPause: 9120},
		4: {rxBytes: 40 << 20, txBytes: 30 << 20, rxPause: 120},
	}, []int{3, 4})
	// A storage share on 0 next to RoCE on 3: not an error.
	storageStats = mlx5EthtoolS(map[int]traffic{
		0: {rxBytes: 150 * gib, txBytes: 140 * gib},
		3: {rxBytes: 812 * gib, txBytes: 790 * gib},
	}, []int{3})
)

var _ = register(evidencePausePriority, func(testing.TB) []checkCase {
	pfc34 := replace(gpu01Q0, "enabled     0   0   0   1   0", "enabled     0   0   0   1   1")
	return []checkCase{
		{name: "not collected is silent"},
		{name: "clean", edits: []edit{write(gpu01E0, cleanStats), write(dev("gpu02", "ethtool-S-ens1f1np1.txt"), storageStats)}},
		{name: "pause on 4", edits: []edit{write(gpu01E0, pause4Stats)},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "no configuration finding on this NIC explains it"},
		{name: "pause on 4 with PFC on 4", edits: []edit{write(gpu01E0, pause4Stats), pfc34},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "pause frames on a priority other than the RoCE priority; corroborates host-pfc on this NIC"},
		{name: "the other NIC's PFC finding corroborates nothing here", edits: []edit{write(gpu01E0, pause4Stats),
			replace(dev("gpu01", "mlnx_qos-ens1f1np1.txt"), "enabled     0   0   0   1   0", "enabled     0   0   0   1   1")},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "no configuration finding"},
		{name: "lossy policy: any pause", edits: []edit{write(gpu01E0, cleanStats), replace("inventory.hcl", `preset = "cumulus-default"`, "preset = \"cumulus-default\"\n  roce {\n    mode = \"lossy\"\n  }")},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "although the policy designs the fabric lossy"},
	}
})

func TestEvidencePausePriority(t *testing.T) {
	fs := evidencePausePriority.Run(fabric(t, write(gpu01E0, pause4Stats)))
	if len(fs) != 1 || fs[0].Actual != "priority 4: received 120, sent 0" || !strings.HasSuffix(fs[0].Source.String(), "ethtool-S-ens1f0np0.txt:"+strconv.Itoa(lineOf(pause4Stats, "rx_prio4_pause:"))) {
		t.Errorf("%+v", fs)
	}
}

var _ = register(evidenceRoCEPriority, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "not collected is silent"},
		{name: "clean", edits: []edit{write(gpu01E0, cleanStats)}},
		{name: "a storage share on 0 is not RoCE", edits: []edit{write(gpu01E0, storageStats)}},
		{name: "bytes on 0", edits: []edit{write(gpu01E0, prio0Stats)},
			want: []string{"error gpu01 ens1f0np0"}, msg: "RoCE-sized traffic left on priority 0, above the 1.0 GiB and 10% threshold, while the RoCE priority 3 sent 1.0 MiB; " +
				"the RDMA counters confirm it is RoCE: the NIC sent 655.0 GiB of RDMA, so at least 655.0 GiB of it left outside priority 3; no configuration finding"},
		{name: "bytes on 0 with NCCL_IB_TC unset", edits: []edit{write(gpu01E0, prio0Stats), replace(gpu01N, "NCCL_IB_TC=106", "")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "corroborates host-tos on this NIC"},
		{name: "bytes on 0 with trust pcp", edits: []edit{write(gpu01E0, prio0Stats), replace(gpu01Q0, "Priority trust state: dscp", "Priority trust state: pcp")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "corroborates host-trust on this NIC"},
		{name: "small traffic on 0 is below the threshold", edits: []edit{write(gpu01E0, mlx5EthtoolS(map[int]traffic{0: {txBytes: 900 << 20}}, nil))}},
	}
})

func TestEvidenceRoCEPriority(t *testing.T) {
	fs := evidenceRoCEPriority.Run(fabric(t, write(gpu01E0, prio0Stats)))
	if len(fs) != 1 || fs[0].Actual != "priority 0 sent 655.0 GiB (100%)" {
		t.Errorf("%+v", fs)
	}
}

// lineOf is the 1-based line of the first line of s containing sub.
func lineOf(s, sub string) int {
	for i, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return i + 1
		}
	}
	return 0
}

// The switch evidence checks have no counters to read until the gNMI
// collector lands; their logic is tested on counters built by hand.
func TestEvidenceSwitchSilent(t *testing.T) {
	f := fabric(t, write(gpu01E0, prio0Stats))
	if fs := append(evidenceLosslessDrops.Run(f), evidenceECNQueue.Run(f)...); len(fs) != 0 {
		t.Errorf("switch evidence without switch counters: %+v", fs)
	}
}

func TestEvidenceSwitchLogic(t *testing.T) {
	counters := func(drops3, ecn0 uint64) *model.SwitchCounters {
		pos := source.Pos{File: "devices/leaf01/gnmi-counters.json", Line: 7}
		pc := &model.SwitchPortCounters{}
		pc.Drops[3] = model.Explicit(drops3, pos)
		pc.ECNMarked[0] = model.Explicit(ecn0, pos)
		pc.ECNMarked[3] = model.Explicit(uint64(5000), pos)
		return &model.SwitchCounters{File: pos.File, Ports: map[string]*model.SwitchPortCounters{"swp1": pc}}
	}
	f := fabric(t)
	sw := f.SwitchByName("leaf01")
	if fs := append(losslessDrops(newRun(f), sw, counters(0, 0)), ecnQueue(newRun(f), sw, counters(0, 0))...); len(fs) != 0 {
		t.Errorf("clean counters: %+v", fs)
	}
	fs := losslessDrops(newRun(f), sw, counters(12, 0))
	if len(fs) != 1 || fs[0].Interface != "swp1" || !strings.Contains(fs[0].Message, "the lossless queue 3 (switch-priority 3) dropped 12 packets; no configuration finding") {
		t.Errorf("drops: %+v", fs)
	}
	fs = ecnQueue(newRun(f), sw, counters(0, 40))
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "queue 0 ECN-marked 40 packets, but RoCE (switch-priority 3) uses queue 3") {
		t.Errorf("ecn: %+v", fs)
	}
	// A broken queue map on the switch is what the drops corroborate.
	f = fabric(t, appendTo(spine02C, "nv set qos egress-queue-mapping default-global switch-priority 3 traffic-class 0\n"))
	sw = f.SwitchByName("spine02")
	c := counters(0, 0)
	c.Ports["swp1"].Drops[0] = model.Explicit(uint64(9), source.Pos{File: "g", Line: 1})
	fs = losslessDrops(newRun(f), sw, c)
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "corroborates switch-queue-map on this port") {
		t.Errorf("corroborated drops: %+v", fs)
	}
}
