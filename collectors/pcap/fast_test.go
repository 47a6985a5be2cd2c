package pcap_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/qoslint/qoslint/collectors/pcap"
	"github.com/qoslint/qoslint/collectors/pcap/pcaptest"
)

// framings are the pcaptest packets of every framing, mirror, opcode and
// non-RoCE case the package reads.
func framings() []pcaptest.Packet {
	base := pcaptest.Packet{Src: "10.0.0.4", Dst: "10.0.0.5", DSCP: 26, ECN: 2, DestQP: 0x1A2, SrcPort: 53462}
	var out []pcaptest.Packet
	for _, v6 := range []bool{false, true} {
		for _, vlans := range [][]uint8{nil, {3}, {1, 5}} {
			for _, mirror := range []string{"", "erspan2", "erspan3", "gre-teb"} {
				for _, kind := range []string{"data", "cnp", "tcp", "dns", "from-4791", "ce"} {
					p := base
					if v6 {
						p.Src, p.Dst = "fd00::4", "fd00::5"
					}
					p.VLANs, p.Mirror = vlans, mirror
					switch kind {
					case "cnp":
						p.Opcode, p.DSCP, p.ECN, p.Src, p.Dst = pcap.OpcodeCNP, 48, 0, p.Dst, p.Src
					case "tcp":
						p.TCP = true
					case "dns":
						p.DstPort = 53
					case "from-4791":
						p.SrcPort, p.DstPort = pcap.RoCEv2Port, 50000
					case "ce":
						p.ECN, p.DestQP = 3, 0xFFFFFF
					}
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// TestFastPathAgrees: the fast path and the gopacket path give the same
// summary for every pcaptest capture, whole and cut at every length (the
// truncations the fast path must leave to gopacket).
func TestFastPathAgrees(t *testing.T) {
	ps := framings()
	var frames [][]byte
	for _, p := range ps {
		b := pcaptest.Bytes(p)
		for n := 0; n <= len(b); n++ {
			frames = append(frames, b[:n])
		}
	}
	for name, file := range map[string][]byte{
		"pcap":      pcaptest.Pcap(ps...),
		"pcapng":    pcaptest.Pcapng(ps...),
		"truncated": pcaptest.PcapRaw(frames...),
	} {
		agree(t, name, file)
	}
	// The common framings (TCP included: not RoCE, decided at once) take
	// the fast path; mirrors and UDP ports gopacket decodes further do not.
	for _, p := range ps {
		want := p.Mirror == "" && p.DstPort == 0
		if got := pcap.FastPath(pcaptest.Bytes(p)); got != want {
			t.Errorf("%+v: fast path %t, want %t", p, got, want)
		}
	}
}

func agree(t *testing.T, name string, file []byte) {
	t.Helper()
	fast, ferr := pcap.Read(bytes.NewReader(file), name)
	slow, serr := pcap.ReadGopacket(bytes.NewReader(file), name)
	if (ferr == nil) != (serr == nil) || ferr != nil && ferr.Error() != serr.Error() {
		t.Fatalf("%s: errors differ: fast %v, gopacket %v", name, ferr, serr)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%s: summaries differ:\nfast     %+v\ngopacket %+v", name, fast, slow)
	}
}

// FuzzFastPath: on any bytes, as one frame of a capture, the fast path
// and the gopacket path agree.
func FuzzFastPath(f *testing.F) {
	for _, p := range framings() {
		f.Add(pcaptest.Bytes(p))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		agree(t, "fuzz.pcap", pcaptest.PcapRaw(frame))
	})
}
