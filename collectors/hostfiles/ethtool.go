package hostfiles

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// EthtoolStats is one `ethtool -S <netdev>` output. ethtool prints
//
//	fprintf(stdout, "NIC statistics:\n");
//	fprintf(stdout, "     %.*s: %llu\n", ETH_GSTRING_LEN, name, value);
//
// (ethtool.c do_gstats), so every counter is an unsigned 64-bit decimal
// under a name of at most 32 bytes (ETH_GSTRING_LEN).
type EthtoolStats struct {
	File string
	// Stats maps each counter name to its value; Lines to its 1-based line.
	Stats map[string]uint64
	Lines map[string]int
}

// Counter is one counter with the line that printed it; Line 0 means the
// output does not have it.
type Counter struct {
	Value uint64
	Line  int
}

// Present reports whether the output printed the counter.
func (c Counter) Present() bool { return c.Line > 0 }

// PrioStats are the mlx5 per-priority physical port counters of one L2
// priority (Linux Documentation/networking/device_drivers/ethernet/mellanox/
// mlx5/counters.rst, "Priority Port Counters"; names from mlx5 en_stats.c
// pport_per_prio_traffic_stats_desc and pport_per_prio_pfc_stats_desc). The
// pause counters exist only for priorities with PFC enabled, so an absent
// pause counter usually means PFC is off there, not zero.
type PrioStats struct {
	Prio               int
	RxBytes, RxPackets Counter // rx_prio<N>_bytes, rx_prio<N>_packets
	TxBytes, TxPackets Counter // tx_prio<N>_bytes, tx_prio<N>_packets
	RxPause, TxPause   Counter // rx_prio<N>_pause, tx_prio<N>_pause
	RxPauseDuration    Counter // rx_prio<N>_pause_duration, microseconds
	TxPauseDuration    Counter // tx_prio<N>_pause_duration, microseconds
}

// prioCounters are the per-priority counter names, with the names the
// first mlx5 kernels printed (cf678570 "net/mlx5e: Add per priority group
// to PPort counters", Linux 4.7: sprintf "prio%d_%s" over rx_octets,
// rx_frames, tx_octets, tx_frames, rx_pause, ...), which later kernels
// renamed to rx_prio%d_bytes and so on.
var prioCounters = []struct{ name, legacy string }{
	{"rx_prio%d_bytes", "prio%d_rx_octets"},
	{"rx_prio%d_packets", "prio%d_rx_frames"},
	{"tx_prio%d_bytes", "prio%d_tx_octets"},
	{"tx_prio%d_packets", "prio%d_tx_frames"},
	{"rx_prio%d_pause", "prio%d_rx_pause"},
	{"tx_prio%d_pause", "prio%d_tx_pause"},
	{"rx_prio%d_pause_duration", "prio%d_rx_pause_duration"},
	{"tx_prio%d_pause_duration", "prio%d_tx_pause_duration"},
}

// Get returns one counter by name.
func (e *EthtoolStats) Get(name string) Counter {
	if e == nil {
		return Counter{}
	}
	line, ok := e.Lines[name]
	if !ok {
		return Counter{}
	}
	return Counter{Value: e.Stats[name], Line: line}
}

// Prio returns the per-priority counters of priority p (0..7), under
// either naming.
func (e *EthtoolStats) Prio(p int) PrioStats {
	var c [8]Counter
	for i, pc := range prioCounters {
		c[i] = e.Get(fmt.Sprintf(pc.name, p))
		if !c[i].Present() {
			c[i] = e.Get(fmt.Sprintf(pc.legacy, p))
		}
	}
	return PrioStats{Prio: p, RxBytes: c[0], RxPackets: c[1], TxBytes: c[2], TxPackets: c[3],
		RxPause: c[4], TxPause: c[5], RxPauseDuration: c[6], TxPauseDuration: c[7]}
}

// CNPSent, CNPHandled and ECNMarkedRoCE are the DCQCN counters np_cnp_sent,
// rp_cnp_handled and np_ecn_marked_roce_packets. mlx5 exports them as RDMA
// hw_counters (/sys/class/infiniband/<ibdev>/ports/<port>/hw_counters,
// `rdma statistic`), not through ethtool -S, so they are read here only
// when a capture carries them; absent is not zero.
func (e *EthtoolStats) CNPSent() Counter       { return e.Get("np_cnp_sent") }
func (e *EthtoolStats) CNPHandled() Counter    { return e.Get("rp_cnp_handled") }
func (e *EthtoolStats) ECNMarkedRoCE() Counter { return e.Get("np_ecn_marked_roce_packets") }

const ethtoolHeader = "NIC statistics:"

// ParseEthtool parses `ethtool -S <netdev>` output. The header is optional
// (a capture may have dropped it) but may appear only before the first
// counter; blank lines are skipped. A counter printed twice keeps its first
// value: ethtool prints what the driver names, and a driver repeating a name
// is not a broken capture.
func ParseEthtool(file string, data []byte) (*EthtoolStats, error) {
	e := &EthtoolStats{File: file, Stats: map[string]uint64{}, Lines: map[string]int{}}
	seenHeader, nonBlank := false, 0
	for i, raw := range splitLines(data) {
		n := i + 1
		s := strings.TrimSpace(raw)
		if s == "" {
			continue
		}
		nonBlank++
		if s == ethtoolHeader {
			if seenHeader || len(e.Lines) > 0 {
				return nil, source.Errorf(file, n, "a second %q header: two ethtool -S outputs in one file?", ethtoolHeader)
			}
			seenHeader = true
			continue
		}
		name, value, msg := parseEthtoolLine(s)
		if msg != "" {
			return nil, source.Errorf(file, n, "%s: %q", msg, clip(s))
		}
		if _, dup := e.Lines[name]; !dup {
			e.Stats[name], e.Lines[name] = value, n
		}
	}
	if nonBlank == 0 {
		return nil, source.Errorf(file, 1, "empty: ethtool -S prints %q and one \"name: value\" line per counter", ethtoolHeader)
	}
	return e, nil
}

// parseEthtoolLine splits "name: value". The value follows the last ": "
// because %.*s prints the driver's name verbatim, and names may contain
// colons (rare, but nothing forbids it).
func parseEthtoolLine(s string) (string, uint64, string) {
	i := strings.LastIndex(s, ": ")
	if i < 0 {
		return "", 0, "not an ethtool -S \"name: value\" line"
	}
	name, val := strings.TrimSpace(s[:i]), s[i+2:]
	if name == "" {
		return "", 0, "counter without a name"
	}
	for _, c := range val {
		if c < '0' || c > '9' {
			return "", 0, "counter value is not an unsigned decimal"
		}
	}
	if len(name) > 32 {
		// ETH_GSTRING_LEN: ethtool cannot print a longer name.
		return "", 0, "counter name longer than 32 bytes"
	}
	v, err := strconv.ParseUint(val, 10, 64)
	if err != nil {
		return "", 0, "counter value is not a 64-bit unsigned decimal"
	}
	return name, v, ""
}
