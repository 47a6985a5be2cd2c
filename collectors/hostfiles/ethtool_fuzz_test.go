package hostfiles

import (
	"reflect"
	"testing"
)

func FuzzParseEthtool(f *testing.F) {
	addTestdataSeeds(f, "ethtool")
	for _, s := range []string{
		"", "NIC statistics:\n", "NIC statistics:\n     rx_prio3_pause: 12\n     tx_prio3_bytes: 18446744073709551615\n",
		"     prio0_tx_octets: 5\n", "NIC statistics:\n     a: b: 1\n", "no stats available\n",
		"NIC statistics:\n     tx_vport_rdma_unicast_bytes: 0\n     rx_vport_rdma_multicast_packets: 3\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := ParseEthtool(fuzzFile, data)
		if err != nil {
			checkParseErr(t, err)
			return
		}
		if e.File != fuzzFile || len(e.Stats) != len(e.Lines) {
			t.Fatalf("bad %+v", e)
		}
		nLines := len(splitLines(data))
		for name, line := range e.Lines {
			if _, ok := e.Stats[name]; !ok || line < 1 || line > nLines || name == "" || len(name) > 32 {
				t.Fatalf("counter %q at line %d of %d", name, line, nLines)
			}
		}
		for p := 0; p < 8; p++ {
			ps := e.Prio(p)
			for _, c := range []Counter{ps.RxBytes, ps.RxPackets, ps.TxBytes, ps.TxPackets, ps.RxPause, ps.TxPause, ps.RxPauseDuration, ps.TxPauseDuration} {
				if !c.Present() && c.Value != 0 {
					t.Fatalf("absent counter with a value: %+v", c)
				}
			}
		}
		r := e.RDMA()
		for _, c := range []Counter{r.RxPackets, r.RxBytes, r.TxPackets, r.TxBytes, r.RxMcastPackets, r.RxMcastBytes, r.TxMcastPackets, r.TxMcastBytes, e.RxCRCErrors()} {
			if c.Present() != (c.Line >= 1 && c.Line <= nLines) || !c.Present() && c.Value != 0 {
				t.Fatalf("RDMA or CRC counter out of the output: %+v", c)
			}
		}
		again, err := ParseEthtool(fuzzFile, data)
		if err != nil || !reflect.DeepEqual(e, again) {
			t.Fatalf("not deterministic: %+v vs %+v (%v)", e, again, err)
		}
	})
}
