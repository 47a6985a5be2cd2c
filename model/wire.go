package model

import (
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
// timestamp.
type WireMark struct {
	Packet uint64
	Time   time.Time
}

// WireFlow is what a capture showed of one RoCEv2 flow: the inner
// (mirrored) IP addresses and the BTH destination QP, and the marks its
// packets carried.
type WireFlow struct {
	Src, Dst netip.Addr
	DestQP   uint32
	// Packets are the RoCEv2 packets other than CNPs.
	Packets uint64
	// DSCP and ECN are histograms of those packets, with the first packet
	// of each value.
	DSCP      [64]uint64
	FirstDSCP [64]WireMark
	ECN       [4]uint64
	FirstECN  [4]WireMark
	// CNP are the flow's Congestion Notification Packets (BTH opcode
	// 0x81); nil when the flow has none.
	CNP *WireCNP
	// SrcPorts are the distinct UDP source ports seen, in order of first
	// appearance, up to the reader's limit; PortsOverflow says there were
	// more.
	SrcPorts      []uint16
	PortsOverflow bool
}

// WireCNP are the CNPs of a flow by DSCP and by 802.1p priority (PCP); PCP
// index WireUntagged counts untagged CNPs.
type WireCNP struct {
	Count     uint64
	DSCP      [64]uint64
	FirstDSCP [64]WireMark
	PCP       [9]uint64
	FirstPCP  [9]WireMark
}

// WireUntagged is the PCP index of frames without an 802.1Q tag.
const WireUntagged = 8

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
