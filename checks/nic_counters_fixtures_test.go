package checks

// The NIC counters (ethtool -S, RDMA hw_counters, two samples for deltas)
// the check tests of the host evidence checks build.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
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

// Two samples (the .before files and counters-interval.txt): the evidence
// checks judge the growth during the interval, not the totals.
var (
	gpu01E0Before = dev("gpu01", "ethtool-S-ens1f0np0.before.txt")
	gpu01Interval = dev("gpu01", "counters-interval.txt")
	spine01Before = dev("spine01", "gnmi-counters.before.json")
	spine01Iv     = dev("spine01", "counters-interval.txt")
)

// pause4Before is pause4Stats 30s earlier: 20 pause frames on priority 4
// before, 120 after: 100 in 30s.
var pause4Before = strings.Replace(pause4Stats, "rx_prio4_pause: 120\n", "rx_prio4_pause: 20\n", 1)

// withRDMA sets the vPort RDMA counters of an mlx5EthtoolS capture: tx
// and rx bytes, 4 KiB packets, as mlx5 prints them (en_stats.c
// vport_stats_desc; Linux Documentation/networking/device_drivers/
// ethernet/mellanox/mlx5/counters.rst, "vPort Counters").
func withRDMA(stats string, rx, tx uint64) string {
	set := func(s, name string, v uint64) string {
		re := regexp.MustCompile(`(?m)^     ` + name + `: \d+$`)
		line := "     " + name + ": " + strconv.FormatUint(v, 10)
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

// hwFile is one RDMA hw_counters file of gpu01's ens1f0np0 (mlx5_0 port 1
// in the clean pod's ibdev2netdev), one "%llu\n" value as the RDMA core
// prints it (drivers/infiniband/core/sysfs.c print_hw_stat).
func hwFile(name string) string {
	return dev("gpu01", "sysfs/class/infiniband/mlx5_0/ports/1/hw_counters/"+name)
}

func hw(vals map[string]uint64) []edit {
	var out []edit
	for name, v := range vals {
		out = append(out, write(hwFile(name), strconv.FormatUint(v, 10)+"\n"))
	}
	return out
}

func hwBefore(vals map[string]uint64) []edit {
	var out []edit
	for name, v := range vals {
		out = append(out, write(strings.Replace(hwFile(name), "/sysfs/", "/sysfs.before/", 1), strconv.FormatUint(v, 10)+"\n"))
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
