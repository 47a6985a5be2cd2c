package offline_test

import (
	"github.com/qoslint/qoslint/collectors/fabric"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
)

// ethtoolS is an mlx5 `ethtool -S` capture in ethtool's layout (ethtool.c
// do_gstats: "NIC statistics:" then "     %s: %llu").
func ethtoolS(rxPause3, txBytes3, rxPause4 uint64) string {
	return "NIC statistics:\n" +
		"     tx_prio3_bytes: " + strconv.FormatUint(txBytes3, 10) + "\n" +
		"     rx_prio3_pause: " + strconv.FormatUint(rxPause3, 10) + "\n" +
		"     rx_prio4_pause: " + strconv.FormatUint(rxPause4, 10) + "\n"
}

// TestCountersDelta: an earlier ethtool sample and the interval turn the
// NIC's counters into growth (after − before; after alone when a counter
// went down, i.e. was reset).
func TestCountersDelta(t *testing.T) {
	inv, err := inventory.Parse("inventory.yaml", []byte("fabric: t\nhosts:\n  - {name: gpu01, address: 198.51.100.1, nics: [ens1f0np0]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	const after, before, iv = "devices/gpu01/ethtool-S-ens1f0np0.txt", "devices/gpu01/ethtool-S-ens1f0np0.before.txt", "devices/gpu01/counters-interval.txt"
	cases := []struct {
		name  string
		files map[string]string
		// want: prio 3 rx pause, prio 3 tx bytes, prio 4 rx pause
		want     [3]uint64
		delta    bool
		interval time.Duration
		err      string
	}{
		{name: "single sample: cumulative", files: map[string]string{after: ethtoolS(100, 5000, 7)}, want: [3]uint64{100, 5000, 7}},
		{name: "growth", files: map[string]string{after: ethtoolS(100, 5000, 7), before: ethtoolS(40, 1000, 7), iv: "30s\n"},
			want: [3]uint64{60, 4000, 0}, delta: true, interval: 30 * time.Second},
		{name: "reset during the interval", files: map[string]string{after: ethtoolS(10, 5000, 3), before: ethtoolS(40, 1000, 7), iv: "1m30s"},
			want: [3]uint64{10, 4000, 3}, delta: true, interval: 90 * time.Second},
		{name: "before without interval: cumulative", files: map[string]string{after: ethtoolS(100, 5000, 7), before: ethtoolS(40, 1000, 7)},
			want: [3]uint64{100, 5000, 7}},
		{name: "interval without before: cumulative", files: map[string]string{after: ethtoolS(100, 5000, 7), iv: "30s"},
			want: [3]uint64{100, 5000, 7}},
		{name: "bad interval", files: map[string]string{after: ethtoolS(100, 5000, 7), before: ethtoolS(40, 1000, 7), iv: "30 seconds"},
			want: [3]uint64{100, 5000, 7}, err: "devices/gpu01/counters-interval.txt:1: "},
		{name: "bad before", files: map[string]string{after: ethtoolS(100, 5000, 7), before: "NIC statistics:\n     rx_prio3_pause: x\n", iv: "30s"},
			want: [3]uint64{100, 5000, 7}, err: "devices/gpu01/ethtool-S-ens1f0np0.before.txt:2: "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{"devices/gpu01/mlnx_qos-ens1f0np0.txt": {Data: []byte("Priority trust state: dscp\n")}}
			for k, v := range tc.files {
				fsys[k] = &fstest.MapFile{Data: []byte(v)}
			}
			c := offline.CollectFS(fsys, inv)
			var errs []string
			for _, e := range c.Errors {
				errs = append(errs, e.Error())
			}
			if tc.err == "" && len(errs) > 0 || tc.err != "" && (len(errs) != 1 || !strings.Contains(errs[0], tc.err)) {
				t.Fatalf("errors %q, want %q", errs, tc.err)
			}
			nc := fabric.Build(inv, c).Hosts[0].NICs[0].Counters
			got := [3]uint64{nc.Prio[3].RxPause.V, nc.Prio[3].TxBytes.V, nc.Prio[4].RxPause.V}
			if got != tc.want || nc.Delta != tc.delta || nc.Interval != tc.interval || nc.File != after {
				t.Errorf("got %v delta %t interval %s file %s, want %v %t %s", got, nc.Delta, nc.Interval, nc.File, tc.want, tc.delta, tc.interval)
			}
			if l := nc.Prio[3].RxPause.Origin.Pos(); l.File != after || l.Line != 3 {
				t.Errorf("evidence points at %s, want the later sample's line", l)
			}
		})
	}
}
