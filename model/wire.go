package model

import (
	"fmt"
	"net/netip"
	"time"
)

// RoCEv2Port is the IANA UDP port of RoCEv2 (InfiniBand Architecture
// Specification Vol. 1, Annex A17 "RoCEv2"; Wireshark's
// epan/dissectors/packet-infiniband.c, DEFAULT_RROCE_UDP_PORT 4791): every
// RoCEv2 packet goes to it, so the UDP source port is a flow's only entropy.
const RoCEv2Port = 4791

// WireMark is where something was first seen in a capture: the 1-based
// packet number in the file (as Wireshark numbers frames) and the capture
// timestamp. Flows do not store it: it is what WireCount.First gives.
type WireMark struct {
	Packet uint64
	Time   time.Time
}

// WireFlow is what a capture showed of one RoCEv2 flow: the inner
// (mirrored) IP addresses and the BTH destination QP, and the marks its
// packets carried.
//
// A fabric holds a capture per host, and the flows of all of them live
// until the report is written, so the histograms are sparse: a RoCE flow
// shows one or two DSCP values and one ECN codepoint, and dense arrays of
// the 64 DSCPs with a first mark each made a flow 3.1 kB of live heap
// where it is now 220 bytes (collectors/pcap/wiremodel TestFlowBytes).
type WireFlow struct {
	Src, Dst netip.Addr
	DestQP   uint32
	// PortsOverflow says the flow had more source ports than SrcPorts
	// holds.
	PortsOverflow bool
	// ends[h] is where histogram h ends in hist, the last one at
	// len(hist); a byte is enough, as the four hold at most
	// 64+4+64+9 values. They sit in what would be padding after DestQP.
	ends [wireHists - 1]uint8
	// Packets are the RoCEv2 packets other than CNPs; CNPs the flow's
	// Congestion Notification Packets (BTH opcode 0x81).
	Packets, CNPs uint64
	// SrcPorts are the distinct UDP source ports seen, in order of first
	// appearance, up to the reader's limit.
	SrcPorts []uint16
	// hist holds the four histograms one after the other (wireDSCP,
	// wireECN, wireCNPDSCP, wireCNPPCP), each in ascending value order:
	// one allocation per flow.
	hist []WireCount
}

// The histograms of a flow, in the order hist holds them, and how many
// values each can take: the 6-bit DSCP and 2-bit ECN fields (RFC 2474, 3;
// RFC 3168, 5) and the 3-bit 802.1p priority plus WireUntagged.
const (
	wireDSCP = iota
	wireECN
	wireCNPDSCP
	wireCNPPCP
	wireHists
)

var wireValues = [wireHists]int{64, 4, 64, WireUntagged + 1}

// WireUntagged is the PCP value that counts frames without an 802.1Q tag.
const WireUntagged = 8

// DSCP and ECN are the histograms of the flow's data packets (every BTH
// opcode but CNP).
func (f *WireFlow) DSCP() WireHist { return f.histogram(wireDSCP) }
func (f *WireFlow) ECN() WireHist  { return f.histogram(wireECN) }

// CNPDSCP and CNPPCP are the histograms of the flow's CNPs by DSCP and by
// 802.1p priority (PCP); PCP WireUntagged counts untagged CNPs.
func (f *WireFlow) CNPDSCP() WireHist { return f.histogram(wireCNPDSCP) }
func (f *WireFlow) CNPPCP() WireHist  { return f.histogram(wireCNPPCP) }

func (f *WireFlow) histogram(h int) WireHist {
	start, end := 0, len(f.hist)
	if h > 0 {
		start = int(f.ends[h-1])
	}
	if h < wireHists-1 {
		end = int(f.ends[h])
	}
	return WireHist(f.hist[start:end:end])
}

// SetHistograms gives the flow its histograms (as DSCP, ECN, CNPDSCP and
// CNPPCP return them), copied into one array. Each must list its values
// in ascending order, each once and within the field's range; it panics
// otherwise, as the readers rely on both.
func (f *WireFlow) SetHistograms(dscp, ecn, cnpDSCP, cnpPCP []WireCount) {
	hs := [wireHists][]WireCount{dscp, ecn, cnpDSCP, cnpPCP}
	n := 0
	for h, cs := range hs {
		for i, c := range cs {
			if int(c.value) >= wireValues[h] || i > 0 && c.value <= cs[i-1].value {
				panic(fmt.Sprintf("model: histogram %d of a wire flow: value %d out of order or range", h, c.value))
			}
		}
		n += len(cs)
	}
	f.hist = make([]WireCount, 0, n)
	for h, cs := range hs {
		f.hist = append(f.hist, cs...)
		if h < wireHists-1 {
			f.ends[h] = uint8(len(f.hist))
		}
	}
}

// WireHist is a histogram of one field of a flow's packets: the values
// that occurred, in ascending order, each with its count and first packet.
type WireHist []WireCount

// Count is how many packets carried v.
func (h WireHist) Count(v int) uint64 {
	for _, c := range h {
		if int(c.value) == v {
			return c.count
		}
	}
	return 0
}

// First is the first packet that carried v; zero when none did.
func (h WireHist) First(v int) WireMark {
	for _, c := range h {
		if int(c.value) == v {
			return c.First()
		}
	}
	return WireMark{}
}

// WireCount is one value of a histogram: its count and its first packet.
// The timestamp is kept as Unix seconds and nanoseconds rather than a
// time.Time, whose location pointer a capture's timestamps never need (the
// reports print them in UTC): 32 bytes a value rather than 48.
type WireCount struct {
	count, packet uint64
	sec           int64
	nsec          int32
	value         uint8
}

// NewWireCount is value seen count times, first at first.
func NewWireCount(value uint8, count uint64, first WireMark) WireCount {
	return WireCount{count: count, packet: first.Packet, sec: first.Time.Unix(), nsec: int32(first.Time.Nanosecond()), value: value}
}

// Value is the field's value (a DSCP, an ECN codepoint, a PCP).
func (c WireCount) Value() int { return int(c.value) }

// Count is how many packets carried the value.
func (c WireCount) Count() uint64 { return c.count }

// Packet is the number of the first packet that carried the value.
func (c WireCount) Packet() uint64 { return c.packet }

// First is the first packet that carried the value, its time in UTC: the
// instant the capture recorded, as time.Unix inverts Time.Unix and
// Time.Nanosecond (seconds and nanoseconds, not UnixNano, whose int64
// cannot hold a pcapng timestamp past 2262).
func (c WireCount) First() WireMark {
	return WireMark{Packet: c.packet, Time: time.Unix(c.sec, int64(c.nsec)).UTC()}
}

// WireCapture is one capture file reduced to its RoCEv2 flows.
type WireCapture struct {
	// File is the path reports name (relative to the fabric directory).
	File string
	// Device is the device whose folder held the capture; "" on the
	// command line.
	Device string
	// Format is the file format ("pcap" or "pcapng").
	Format string
	Frames uint64
	// RoCE counts the frames that carried a BTH on UDP 4791 (inner frame
	// for ERSPAN and GRE mirrors).
	RoCE uint64
	// Undecodable counts frames that could not be decoded; Untracked the
	// RoCE frames of flows beyond the reader's flow limit. Neither is
	// judged.
	Undecodable, Untracked uint64
	// Flows are sorted by source, destination and QP.
	Flows []*WireFlow
}
