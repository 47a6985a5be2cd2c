package pcap_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/qoslint/qoslint/collectors/pcap"
	"github.com/qoslint/qoslint/collectors/pcap/pcaptest"
)

// recordCaptures are classic pcap files of every kind pcaptest writes:
// each framing, both byte orders and timestamp resolutions, a record above
// libpcap's MAXIMUM_SNAPLEN under a snap length that allows it and one that
// does not, and an empty capture.
func recordCaptures() map[string][]byte {
	p := pcaptest.Packet{Src: "10.0.0.1", Dst: "10.0.0.2", DSCP: 26, ECN: 2, DestQP: 0x1A2}
	v6 := p
	v6.Src, v6.Dst, v6.VLANs = "fd00::1", "fd00::2", []uint8{1, 3}
	cnp := p
	cnp.Opcode, cnp.DSCP = pcap.OpcodeCNP, 48
	frames := [][]byte{pcaptest.Bytes(p), pcaptest.Bytes(v6), pcaptest.Bytes(cnp), pcaptest.Bytes(with(p, "erspan2")),
		pcaptest.Bytes(with(p, "erspan3")), pcaptest.Bytes(with(p, "gre-teb")), pcaptest.Bytes(pcaptest.Packet{Src: "10.0.0.3", Dst: "10.0.0.4", TCP: true})}
	out := map[string][]byte{
		"pcaptest.Pcap":  pcaptest.Pcap(p, v6, cnp),
		"pcaptest.Empty": pcaptest.PcapRaw(),
		"truncated":      pcaptest.PcapRaw(pcaptest.Bytes(p)[:30], pcaptest.Bytes(p)),
		"jumbo-allowed":  pcaptest.PcapWith(pcaptest.Options{Snaplen: 400000}, frames[0], pcaptest.Jumbo(300000), frames[1]),
		"jumbo-refused":  pcaptest.PcapWith(pcaptest.Options{}, frames[0], pcaptest.Jumbo(300000)),
	}
	for _, nanos := range []bool{false, true} {
		for _, big := range []bool{false, true} {
			out[fmt.Sprintf("nanos=%v,big=%v", nanos, big)] = pcaptest.PcapWith(pcaptest.Options{Nanos: nanos, BigEndian: big}, frames...)
		}
	}
	return out
}

// TestRecordReaderMatchesPcapgo holds our record reader to pcapgo's: the
// same packets (bytes, lengths, timestamps) and the same error, on each
// capture cut at every length (the jumbo ones at every 997th and around
// each record boundary).
func TestRecordReaderMatchesPcapgo(t *testing.T) {
	for name, file := range recordCaptures() {
		t.Run(name, func(t *testing.T) {
			step := 1
			if len(file) > 10000 {
				step = 997
			}
			for n := 0; n <= len(file); n++ {
				if n%step != 0 && n != len(file) && !nearBoundary(n) {
					continue
				}
				sameRecords(t, file[:n])
			}
		})
	}
}

// nearBoundary is true within 20 bytes of the jumbo captures' record
// boundaries (24-byte header, 16-byte record headers, 300,000-byte jumbo).
func nearBoundary(n int) bool {
	for _, b := range []int{24, 24 + 16 + 90, 24 + 16 + 90 + 16, 24 + 16 + 90 + 16 + 300000} {
		if n >= b-20 && n <= b+20 {
			return true
		}
	}
	return false
}

func sameRecords(t *testing.T, file []byte) {
	t.Helper()
	if len(file) >= 2 && file[0] == 0x1f && file[1] == 0x8b {
		return // pcapgo would gunzip it; read refuses it by its magic before either reader
	}
	ours, oerr := pcap.ReadRecords(file, true)
	ref, rerr := pcap.ReadRecords(file, false)
	if fmt.Sprint(oerr) != fmt.Sprint(rerr) {
		t.Fatalf("%d bytes: error %v, pcapgo %v", len(file), oerr, rerr)
	}
	if len(ours) != len(ref) {
		t.Fatalf("%d bytes: %d records, pcapgo %d", len(file), len(ours), len(ref))
	}
	for i := range ours {
		o, r := ours[i], ref[i]
		if !o.CI.Timestamp.Equal(r.CI.Timestamp) || o.CI.Timestamp.Location() != r.CI.Timestamp.Location() ||
			o.CI.CaptureLength != r.CI.CaptureLength || o.CI.Length != r.CI.Length || !reflect.DeepEqual(append([]byte{}, o.Data...), append([]byte{}, r.Data...)) {
			t.Fatalf("%d bytes: record %d differs: %+v / pcapgo %+v", len(file), i, o.CI, r.CI)
		}
	}
}

// FuzzRecordReader holds the record reader to pcapgo's on any input.
func FuzzRecordReader(f *testing.F) {
	for _, file := range recordCaptures() {
		if len(file) < 10000 {
			f.Add(file)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) { sameRecords(t, data) })
}
