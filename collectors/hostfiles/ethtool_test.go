package hostfiles

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

func readEthtool(t *testing.T, name string) *EthtoolStats {
	t.Helper()
	data, err := os.ReadFile("testdata/ethtool/" + name)
	if err != nil {
		t.Fatal(err)
	}
	e, err := ParseEthtool("ethtool-S-ens1f0np0.txt", data)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestParseEthtoolPrio(t *testing.T) {
	for _, file := range []string{"constructed_cx6_prio3.txt", "constructed_legacy_prio_names.txt"} {
		t.Run(file, func(t *testing.T) {
			e := readEthtool(t, file)
			p3 := e.Prio(3)
			if p3.TxBytes.Value != 7598761219937 || p3.TxPackets.Value != 934563490 || p3.RxBytes.Value != 7412341415331 ||
				p3.RxPackets.Value != 912341166 || p3.RxPause.Value != 18211 || p3.TxPause.Value != 9120 ||
				p3.RxPauseDuration.Value != 40960 || p3.TxPauseDuration.Value != 20480 {
				t.Errorf("prio 3: %+v", p3)
			}
			if !p3.TxBytes.Present() || p3.TxBytes.Line < 2 {
				t.Errorf("prio 3 tx bytes has no line: %+v", p3.TxBytes)
			}
			// PFC is off on 4: mlx5 prints no pause counters for it, which
			// is "absent", not zero.
			p4 := e.Prio(4)
			if p4.RxPause.Present() || p4.TxPause.Present() || !p4.TxBytes.Present() || p4.TxBytes.Value != 0 {
				t.Errorf("prio 4: %+v", p4)
			}
			if e.CNPSent().Present() || e.CNPHandled().Present() || e.ECNMarkedRoCE().Present() {
				t.Error("DCQCN hw_counters are not ethtool -S counters")
			}
		})
	}
}

func TestParseEthtoolLines(t *testing.T) {
	in := "NIC statistics:\r\n     rx_packets: 10\r\n\n     weird: name: 7\n     np_cnp_sent: 5\n     rx_packets: 99\n"
	e, err := ParseEthtool("f", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if e.Stats["rx_packets"] != 10 || e.Lines["rx_packets"] != 2 {
		t.Errorf("first value and line must win: %d at %d", e.Stats["rx_packets"], e.Lines["rx_packets"])
	}
	if e.Stats["weird: name"] != 7 {
		t.Errorf("a name may hold a colon: %v", e.Stats)
	}
	if c := e.CNPSent(); c.Value != 5 || c.Line != 5 {
		t.Errorf("np_cnp_sent = %+v", c)
	}
	if e, err := ParseEthtool("f", []byte("NIC statistics:\n")); err != nil || len(e.Stats) != 0 {
		t.Errorf("header only: %v %v", e, err)
	}
	var nilStats *EthtoolStats
	if nilStats.Prio(3).TxBytes.Present() {
		t.Error("nil stats have counters")
	}
}

func TestParseEthtoolErrors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		line int
		msg  string
	}{
		{"", 1, "empty"},
		{"\n\n", 1, "empty"},
		{"Cannot get stats strings information: Operation not supported\n", 1, "unsigned decimal"},
		{"NIC statistics:\n     rx_packets: -1\n", 2, "unsigned decimal"},
		{"NIC statistics:\n     rx_packets: 0x10\n", 2, "unsigned decimal"},
		{"NIC statistics:\n     rx_packets: 18446744073709551616\n", 2, "64-bit"},
		{"NIC statistics:\n     rx_packets:\n", 2, "not an ethtool -S"},
		{"NIC statistics:\n     : 5\n", 2, "without a name"},
		{"NIC statistics:\n     " + strings.Repeat("x", 33) + ": 5\n", 2, "longer than 32"},
		{"NIC statistics:\n     rx_packets: 1\nNIC statistics:\n", 3, "second"},
		{"no stats available\n", 1, "not an ethtool -S"},
	} {
		_, err := ParseEthtool("hosts/gpu1/ethtool-S-e.txt", []byte(tc.in))
		var se *source.Error
		if !errors.As(err, &se) || se.File != "hosts/gpu1/ethtool-S-e.txt" || se.Line != tc.line || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("%q: got %v, want line %d %q", tc.in, err, tc.line, tc.msg)
		}
	}
}
