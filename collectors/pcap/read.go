package pcap

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"os"
	"sync"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

	"github.com/qoslint/qoslint/internal/source"
)

// Magic numbers: pcap's (microsecond and nanosecond, either byte order;
// https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-03.html, 4) and
// pcapng's Section Header Block type
// (https://www.ietf.org/archive/id/draft-ietf-opsawg-pcapng-01.html, 4.1).
const (
	magicPcapMicro = 0xA1B2C3D4
	magicPcapNano  = 0xA1B23C4D
	magicPcapng    = 0x0A0D0D0A
)

// Limits keep memory independent of the capture: flows beyond maxFlows are
// counted, not tracked, and each flow keeps at most maxPorts source ports.
const (
	maxFlows = 1 << 16
	maxPorts = 64
)

// Mark is where something was first seen: the 1-based packet number in
// the file (as Wireshark numbers frames) and the capture timestamp.
type Mark struct {
	Packet uint64
	Time   time.Time
}

// FlowKey names a RoCEv2 flow: the inner (mirrored) IP addresses and the
// BTH destination QP.
type FlowKey struct {
	Src, Dst netip.Addr
	DestQP   uint32
}

// Flow is what the wire showed of one flow.
type Flow struct {
	FlowKey
	// Packets are the RoCEv2 packets other than CNPs.
	Packets uint64
	// DSCP and ECN are histograms of those packets, with the first packet
	// of each value.
	DSCP      [64]uint64
	FirstDSCP [64]Mark
	ECN       [4]uint64
	FirstECN  [4]Mark
	// CNPs are the BTH opcode 0x81 packets; nil when the flow has none.
	CNP *CNPStats
	// SrcPorts are the distinct UDP source ports seen, in order of first
	// appearance, at most maxPorts; PortsOverflow says there were more.
	SrcPorts      []uint16
	PortsOverflow bool
}

// CNPStats are the CNPs of a flow by DSCP and by 802.1p priority (PCP);
// PCP index 8 counts untagged CNPs.
type CNPStats struct {
	Count     uint64
	DSCP      [64]uint64
	FirstDSCP [64]Mark
	PCP       [9]uint64
	FirstPCP  [9]Mark
}

// Untagged is the PCP index of frames without an 802.1Q tag.
const Untagged = 8

// Summary is one capture file reduced to its flows.
type Summary struct {
	// File is the path reports name (relative to the fabric directory).
	File string
	// Device is the device whose folder held the capture; "" on the command line.
	Device string
	// Format is "pcap" or "pcapng".
	Format string
	Frames uint64
	// RoCE counts the frames that carried a BTH on UDP 4791 (inner frame
	// for ERSPAN and GRE mirrors).
	RoCE uint64
	// Undecodable counts frames gopacket could not decode (truncated
	// headers, a bad length); First and Why describe the first.
	Undecodable      uint64
	FirstUndecodable Mark
	UndecodableWhy   string
	// Untracked counts RoCE frames of flows beyond maxFlows.
	Untracked uint64
	// Flows are sorted by source, destination and QP.
	Flows []*Flow
}

// ReadFile reads the capture at path; name is how reports call it.
func ReadFile(path, name string) (*Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &source.Error{Pos: source.Pos{File: name}, Msg: err.Error()}
	}
	defer f.Close()
	return Read(f, name)
}

// readBuffer is the size of the one buffer a capture is read through.
const readBuffer = 1 << 20

// readers are the buffers captures are read through, one per capture
// being read: a fabric directory holds a capture per host (TestLintScale:
// one per four hosts), and a new megabyte for each was a quarter of all
// a lint allocated.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, readBuffer) }}

// packetSource is what pcapgo's Reader and NgReader share.
type packetSource interface {
	ZeroCopyReadPacketData() ([]byte, gopacket.CaptureInfo, error)
	LinkType() layers.LinkType
}

// Read streams a pcap or pcapng capture. On an error it still returns
// what was read before it; the error names the file and the packet.
func Read(r io.Reader, name string) (*Summary, error) { return read(r, name, true) }

func read(r io.Reader, name string, fast bool) (*Summary, error) {
	s := &Summary{File: name}
	fail := func(format string, a ...any) (*Summary, error) {
		return s, &source.Error{Pos: source.Pos{File: name}, Msg: fmt.Sprintf(format, a...)}
	}
	// A large buffer: fewer read calls per packet on a file, and room for
	// the record reader to hand out every packet up to libpcap's
	// MAXIMUM_SNAPLEN straight from it.
	br := readers.Get().(*bufio.Reader)
	br.Reset(r)
	// What the summary keeps of a packet is copied out of the buffer
	// (ZeroCopyReadPacketData's data lives until the next packet), so
	// the buffer is free once the capture is read.
	defer func() { br.Reset(nil); readers.Put(br) }()
	head, err := br.Peek(4)
	if len(head) == 0 {
		return fail("empty file: not a pcap or pcapng capture")
	}
	if err != nil {
		return fail("%d bytes: too short for a pcap or pcapng capture", len(head))
	}
	var src packetSource
	switch m := binary.BigEndian.Uint32(head); {
	case m == magicPcapng:
		s.Format = "pcapng"
		src, err = pcapgo.NewNgReader(br, pcapgo.DefaultNgReaderOptions)
	case m == magicPcapMicro || m == magicPcapNano || binary.LittleEndian.Uint32(head) == magicPcapMicro || binary.LittleEndian.Uint32(head) == magicPcapNano:
		s.Format = "pcap"
		src, err = newRecordReader(br)
	default:
		return fail("not a pcap or pcapng capture (magic 0x%08X)", m)
	}
	if err != nil {
		return fail("%s header: %v", s.Format, err)
	}
	if lt := src.LinkType(); lt != layers.LinkTypeEthernet {
		return fail("link type %d (%s): only Ethernet captures (LINKTYPE_ETHERNET, 1) are read", uint16(lt), lt)
	}
	agg := newAggregator()
	d := newDecoder()
	d.noFast = !fast
	for {
		data, ci, err := src.ZeroCopyReadPacketData()
		if err == io.EOF {
			break
		}
		if err != nil {
			agg.finish(s)
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return fail("packet %d: file ends inside the packet record: %v", s.Frames+1, err)
			}
			return fail("packet %d: %v", s.Frames+1, err)
		}
		s.Frames++
		agg.add(s, d, data, Mark{Packet: s.Frames, Time: ci.Timestamp})
	}
	agg.finish(s)
	return s, nil
}
