package pcap_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/gopacket/gopacket"
	"github.com/qoslint/qoslint/collectors/pcap"
	"github.com/qoslint/qoslint/collectors/pcap/pcaptest"
	"github.com/qoslint/qoslint/internal/source"
)

func FuzzBTH(f *testing.F) {
	f.Add(pcaptest.Bytes(pcaptest.Packet{Src: "10.0.0.1", Dst: "10.0.0.2"})[42:])
	f.Add([]byte{0x81, 0, 0xff, 0xff, 0x40, 0, 1, 0xa2, 0x80, 0, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		var b pcap.BTH
		err := b.DecodeFromBytes(data, gopacket.NilDecodeFeedback)
		if (err != nil) != (len(data) < 12) {
			t.Fatalf("len %d err %v", len(data), err)
		}
		if err == nil && (b.DestQP > 0xFFFFFF || b.PSN > 0xFFFFFF) {
			t.Fatalf("%+v", b)
		}
	})
}

func FuzzRead(f *testing.F) {
	p := pcaptest.Packet{Src: "10.0.0.1", Dst: "10.0.0.2", DSCP: 26, VLANs: []uint8{3}}
	f.Add(pcaptest.Pcap(p, with(p, "erspan2")))
	f.Add(pcaptest.Pcapng(p, with(p, "erspan3"), with(p, "gre-teb")))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := pcap.Read(bytes.NewReader(data), "x.pcap")
		var se *source.Error
		if err != nil && !errors.As(err, &se) {
			t.Fatalf("error %v is not a source.Error", err)
		}
		if s == nil {
			t.Fatal("nil summary")
		}
		if s.RoCE > s.Frames || s.Undecodable > s.Frames {
			t.Fatalf("%+v", s)
		}
	})
}

func with(p pcaptest.Packet, mirror string) pcaptest.Packet { p.Mirror = mirror; return p }
