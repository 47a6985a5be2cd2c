package pcap_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/pcap"
	"github.com/qoslint/qoslint/collectors/pcap/pcaptest"
	"github.com/qoslint/qoslint/internal/source"
)

// Every capture here is written by gopacket (pcaptest), in the layouts
// tcpdump writes on a ConnectX netdev (Ethernet, DLT_EN10MB) and a switch
// sends as ERSPAN (draft-foschiano-erspan-03).
func read(t *testing.T, data []byte) *pcap.Summary {
	t.Helper()
	s, err := pcap.Read(bytes.NewReader(data), "devices/gpu04/captures/x.pcap")
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return s
}

func TestReadFramings(t *testing.T) {
	base := pcaptest.Packet{Src: "10.0.0.4", Dst: "10.0.0.5", DSCP: 26, ECN: 2, DestQP: 0x1A2, SrcPort: 53462}
	tests := []struct {
		name string
		mod  func(*pcaptest.Packet)
		pcp  int
	}{
		{"untagged", func(*pcaptest.Packet) {}, pcap.Untagged},
		{"802.1Q", func(p *pcaptest.Packet) { p.VLANs = []uint8{3} }, 3},
		{"QinQ", func(p *pcaptest.Packet) { p.VLANs = []uint8{1, 3} }, 3},
		{"IPv6", func(p *pcaptest.Packet) { p.Src, p.Dst = "fd00::4", "fd00::5" }, pcap.Untagged},
		{"ERSPAN II", func(p *pcaptest.Packet) { p.Mirror = "erspan2" }, pcap.Untagged},
		{"ERSPAN III tagged", func(p *pcaptest.Packet) { p.Mirror, p.VLANs = "erspan3", []uint8{3} }, 3},
		{"GRE TEB", func(p *pcaptest.Packet) { p.Mirror = "gre-teb" }, pcap.Untagged},
	}
	for _, tt := range tests {
		for _, format := range []string{"pcap", "pcapng"} {
			t.Run(tt.name+"/"+format, func(t *testing.T) {
				data := base
				tt.mod(&data)
				cnp := data
				cnp.Opcode, cnp.DSCP, cnp.ECN, cnp.Src, cnp.Dst = pcap.OpcodeCNP, 48, 0, data.Dst, data.Src
				ps := []pcaptest.Packet{data, data, cnp}
				file := pcaptest.Pcap(ps...)
				if format == "pcapng" {
					file = pcaptest.Pcapng(ps...)
				}
				s := read(t, file)
				if s.Format != format || s.Frames != 3 || s.RoCE != 3 || s.Undecodable != 0 {
					t.Fatalf("summary %+v", s)
				}
				if len(s.Flows) != 2 {
					t.Fatalf("flows %d, want 2", len(s.Flows))
				}
				var df, cf *pcap.Flow
				for _, f := range s.Flows {
					if f.Src.String() == data.Src {
						df = f
					} else {
						cf = f
					}
				}
				if df == nil || cf == nil || df.Packets != 2 || df.DSCP[26] != 2 || df.ECN[2] != 2 || df.DestQP != 0x1A2 {
					t.Fatalf("data flow %+v", df)
				}
				if df.FirstDSCP[26].Packet != 1 || !df.FirstDSCP[26].Time.Equal(pcaptest.Base) {
					t.Errorf("first DSCP 26 mark %+v", df.FirstDSCP[26])
				}
				if len(df.SrcPorts) != 1 || df.SrcPorts[0] != 53462 {
					t.Errorf("source ports %v", df.SrcPorts)
				}
				if cf.CNP == nil || cf.CNP.Count != 1 || cf.CNP.DSCP[48] != 1 || cf.CNP.PCP[tt.pcp] != 1 || cf.CNP.FirstDSCP[48].Packet != 3 {
					t.Fatalf("CNP flow %+v / %+v", cf, cf.CNP)
				}
			})
		}
	}
}

func TestReadNotRoCE(t *testing.T) {
	s := read(t, pcaptest.Pcap(pcaptest.Packet{Src: "10.0.0.4", Dst: "10.0.0.5", TCP: true},
		pcaptest.Packet{Src: "10.0.0.4", Dst: "10.0.0.5", DstPort: 53}))
	if s.Frames != 2 || s.RoCE != 0 || len(s.Flows) != 0 || s.Undecodable != 0 {
		t.Fatalf("%+v", s)
	}
}

func TestReadTruncatedBTH(t *testing.T) {
	ok := pcaptest.Bytes(pcaptest.Packet{Src: "10.0.0.4", Dst: "10.0.0.5", DSCP: 26})
	// The frame cut inside the BTH: 14 Ethernet + 20 IPv4 + 8 UDP + 5.
	cut := pcaptest.Packet{Src: "10.0.0.4", Dst: "10.0.0.5", DSCP: 26}
	file := pcaptest.PcapRaw(ok, pcaptest.Bytes(cut)[:47], ok)
	s := read(t, file)
	if s.Frames != 3 || s.RoCE != 2 || s.Undecodable != 1 || s.FirstUndecodable.Packet != 2 ||
		!strings.Contains(s.UndecodableWhy, "BTH truncated") {
		t.Fatalf("%+v", s)
	}
}

func TestReadErrors(t *testing.T) {
	good := pcaptest.Pcapng(pcaptest.Packet{Src: "10.0.0.4", Dst: "10.0.0.5", DSCP: 26},
		pcaptest.Packet{Src: "10.0.0.4", Dst: "10.0.0.5", DSCP: 26})
	// A corrupt block: the second Enhanced Packet Block's total length
	// (bytes 4-7 of the block) made huge. Located from the file's own
	// structure, not by a hand-written offset.
	corrupt := append([]byte(nil), good...)
	second := pcaptest.NgBlockOffsets(corrupt)
	if len(second) < 4 {
		t.Fatalf("blocks %v", second)
	}
	last := second[len(second)-1]
	copy(corrupt[last+4:last+8], []byte{0x7f, 0xff, 0xff, 0xf0})
	pcapCut := pcaptest.Pcap(pcaptest.Packet{Src: "10.0.0.4", Dst: "10.0.0.5"}, pcaptest.Packet{Src: "10.0.0.4", Dst: "10.0.0.5"})
	pcapCut = pcapCut[:len(pcapCut)-10]
	tests := []struct {
		name, data, want string
		frames           uint64
	}{
		{"empty", "", "empty file", 0},
		{"short", "ab", "too short", 0},
		{"text", "hello world\n", "not a pcap or pcapng capture", 0},
		{"corrupt pcapng block", string(corrupt), "packet 2:", 1},
		{"pcap cut inside a record", string(pcapCut), "packet 2: file ends inside the packet record", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := pcap.Read(strings.NewReader(tt.data), "devices/gpu04/captures/x.pcapng")
			var se *source.Error
			if !errors.As(err, &se) || se.File != "devices/gpu04/captures/x.pcapng" || !strings.Contains(se.Msg, tt.want) {
				t.Fatalf("err %v, want a source.Error naming the file with %q", err, tt.want)
			}
			if s == nil || s.Frames != tt.frames {
				t.Fatalf("summary %+v, want %d frames read before the error", s, tt.frames)
			}
		})
	}
}

func TestReadLinkType(t *testing.T) {
	_, err := pcap.Read(bytes.NewReader(pcaptest.PcapLink(113)), "x.pcap")
	if err == nil || !strings.Contains(err.Error(), "link type 113") {
		t.Fatalf("err %v", err)
	}
}

func TestFlowsBounded(t *testing.T) {
	// Many packets of one flow keep one flow and a bounded port list.
	var ps []pcaptest.Packet
	for i := range 200 {
		ps = append(ps, pcaptest.Packet{Src: "10.0.0.4", Dst: "10.0.0.5", SrcPort: uint16(49152 + i), DSCP: 26})
	}
	s := read(t, pcaptest.Pcap(ps...))
	if len(s.Flows) != 1 || s.Flows[0].Packets != 200 || len(s.Flows[0].SrcPorts) != 64 || !s.Flows[0].PortsOverflow {
		t.Fatalf("%+v", s.Flows[0])
	}
}
