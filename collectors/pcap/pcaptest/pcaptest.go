// Package pcaptest builds RoCEv2 captures for tests with gopacket's
// serialisation, so no test carries hand-edited bytes.
package pcaptest

import (
	"bytes"
	"encoding/binary"
	"net"
	"slices"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

	"github.com/qoslint/qoslint/collectors/pcap"
)

// Packet describes one frame. Zero values give an untagged IPv4 RoCEv2
// RC RDMA WRITE Only (opcode 0x0A) from Src to Dst.
type Packet struct {
	Src, Dst string // IP addresses; IPv6 when they contain ':'
	DSCP     uint8
	ECN      uint8
	VLANs    []uint8 // PCP of each 802.1Q tag, outermost first (two: QinQ)
	SrcPort  uint16  // UDP source port; 0 means 49152
	DstPort  uint16  // 0 means 4791
	Opcode   uint8   // BTH opcode; 0x81 is a CNP
	DestQP   uint32
	PSN      uint32
	FECN     bool
	TCP      bool   // a TCP segment instead of RoCEv2
	Mirror   string // "", "erspan2", "erspan3" or "gre-teb": wrapped as a switch mirror
	Payload  int    // bytes after the BTH; 0 means 16 (a CNP's reserved bytes)
}

var (
	macA = net.HardwareAddr{0x02, 0, 0, 0, 0, 1}
	macB = net.HardwareAddr{0x02, 0, 0, 0, 0, 2}
)

// Bytes serialises p.
func Bytes(p Packet) []byte {
	ls := frame(p)
	switch p.Mirror {
	case "erspan2", "erspan3", "gre-teb":
		ls = append(mirror(p.Mirror), ls...)
	}
	buf := gopacket.NewSerializeBuffer()
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	if err := gopacket.SerializeLayers(buf, opts, ls...); err != nil {
		panic(err) // a test's own packet description is wrong
	}
	return append([]byte(nil), buf.Bytes()...)
}

// frame is the mirrored (or only) frame.
func frame(p Packet) []gopacket.SerializableLayer {
	v6 := bytes.ContainsRune([]byte(p.Src), ':')
	eth := &layers.Ethernet{SrcMAC: macA, DstMAC: macB, EthernetType: layers.EthernetTypeIPv4}
	if v6 {
		eth.EthernetType = layers.EthernetTypeIPv6
	}
	ls := []gopacket.SerializableLayer{eth}
	inner := eth.EthernetType
	for i, pcp := range p.VLANs {
		next := inner
		if i+1 < len(p.VLANs) {
			next = layers.EthernetTypeDot1Q
		}
		ls = append(ls, &layers.Dot1Q{Priority: pcp, VLANIdentifier: uint16(100 + i), Type: next})
	}
	switch {
	case len(p.VLANs) == 1:
		eth.EthernetType = layers.EthernetTypeDot1Q
	case len(p.VLANs) > 1:
		eth.EthernetType = layers.EthernetTypeQinQ // 802.1ad outer tag
	}
	proto := layers.IPProtocolUDP
	if p.TCP {
		proto = layers.IPProtocolTCP
	}
	tc := p.DSCP<<2 | p.ECN&3
	var ip gopacket.NetworkLayer
	if v6 {
		ip6 := &layers.IPv6{Version: 6, TrafficClass: tc, NextHeader: proto, HopLimit: 64,
			SrcIP: net.ParseIP(p.Src), DstIP: net.ParseIP(p.Dst)}
		ls, ip = append(ls, ip6), ip6
	} else {
		ip4 := &layers.IPv4{Version: 4, IHL: 5, TOS: tc, TTL: 64, Protocol: proto, Flags: layers.IPv4DontFragment,
			SrcIP: net.ParseIP(p.Src).To4(), DstIP: net.ParseIP(p.Dst).To4()}
		ls, ip = append(ls, ip4), ip4
	}
	if p.TCP {
		tcp := &layers.TCP{SrcPort: 40000, DstPort: 22, Seq: 1, ACK: true, Window: 512}
		_ = tcp.SetNetworkLayerForChecksum(ip)
		return append(ls, tcp, gopacket.Payload(make([]byte, 32)))
	}
	udp := &layers.UDP{SrcPort: layers.UDPPort(or16(p.SrcPort, 49152)), DstPort: layers.UDPPort(or16(p.DstPort, pcap.RoCEv2Port))}
	_ = udp.SetNetworkLayerForChecksum(ip)
	n := p.Payload
	if n == 0 {
		n = 16
	}
	op := p.Opcode
	if op == 0 {
		op = 0x0A
	}
	bth := &pcap.BTH{Opcode: op, PKey: 0xFFFF, DestQP: p.DestQP, PSN: p.PSN, FECN: p.FECN, AckReq: true}
	return append(ls, udp, bth, gopacket.Payload(make([]byte, n)))
}

// mirror is the outer Ethernet/IPv4/GRE (and ERSPAN) a switch adds.
func mirror(kind string) []gopacket.SerializableLayer {
	eth := &layers.Ethernet{SrcMAC: macB, DstMAC: macA, EthernetType: layers.EthernetTypeIPv4}
	ip := &layers.IPv4{Version: 4, IHL: 5, TTL: 64, Protocol: layers.IPProtocolGRE,
		SrcIP: net.IP{192, 0, 2, 1}, DstIP: net.IP{192, 0, 2, 2}}
	switch kind {
	case "erspan2":
		gre := &layers.GRE{Protocol: layers.EthernetTypeERSPAN, SeqPresent: true, Seq: 7}
		return []gopacket.SerializableLayer{eth, ip, gre, &layers.ERSPANII{Version: 1, SessionID: 5}}
	case "erspan3":
		gre := &layers.GRE{Protocol: 0x22EB, SeqPresent: true, Seq: 7}
		return []gopacket.SerializableLayer{eth, ip, gre, &pcap.ERSPANIII{SessionID: 5}}
	}
	return []gopacket.SerializableLayer{eth, ip, &layers.GRE{Protocol: layers.EthernetTypeTransparentEthernetBridging}}
}

func or16(v, d uint16) uint16 {
	if v == 0 {
		return d
	}
	return v
}

// Base is the timestamp of the first packet; each next one is 1 µs later.
var Base = time.Date(2025, 6, 2, 9, 14, 3, 0, time.UTC)

// Pcap writes the packets as a pcap file (microsecond timestamps).
func Pcap(ps ...Packet) []byte {
	var b bytes.Buffer
	w := pcapgo.NewWriter(&b)
	if err := w.WriteFileHeader(65535, layers.LinkTypeEthernet); err != nil {
		panic(err)
	}
	for i, p := range ps {
		data := Bytes(p)
		ci := gopacket.CaptureInfo{Timestamp: Base.Add(time.Duration(i) * time.Microsecond), CaptureLength: len(data), Length: len(data)}
		if err := w.WritePacket(ci, data); err != nil {
			panic(err)
		}
	}
	return b.Bytes()
}

// Pcapng writes the packets as a pcapng file.
func Pcapng(ps ...Packet) []byte {
	var b bytes.Buffer
	w, err := pcapgo.NewNgWriter(&b, layers.LinkTypeEthernet)
	if err != nil {
		panic(err)
	}
	for i, p := range ps {
		data := Bytes(p)
		ci := gopacket.CaptureInfo{Timestamp: Base.Add(time.Duration(i) * time.Microsecond), CaptureLength: len(data), Length: len(data)}
		if err := w.WritePacket(ci, data); err != nil {
			panic(err)
		}
	}
	if err := w.Flush(); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// PcapRaw writes frames as they are (for truncated ones).
func PcapRaw(frames ...[]byte) []byte {
	var b bytes.Buffer
	w := pcapgo.NewWriter(&b)
	if err := w.WriteFileHeader(65535, layers.LinkTypeEthernet); err != nil {
		panic(err)
	}
	for i, data := range frames {
		ci := gopacket.CaptureInfo{Timestamp: Base.Add(time.Duration(i) * time.Microsecond), CaptureLength: len(data), Length: len(data)}
		if err := w.WritePacket(ci, data); err != nil {
			panic(err)
		}
	}
	return b.Bytes()
}

// PcapLink writes an empty pcap of another link type.
func PcapLink(lt layers.LinkType) []byte {
	var b bytes.Buffer
	if err := pcapgo.NewWriter(&b).WriteFileHeader(65535, lt); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// NgBlockOffsets lists where each pcapng block starts, following the
// little-endian block lengths pcapgo writes (block type, total length).
func NgBlockOffsets(data []byte) []int {
	var out []int
	for off := 0; off+8 <= len(data); {
		out = append(out, off)
		n := int(uint32(data[off+4]) | uint32(data[off+5])<<8 | uint32(data[off+6])<<16 | uint32(data[off+7])<<24)
		if n < 12 {
			break
		}
		off += n
	}
	return out
}

// Options are the file header choices of PcapWith.
type Options struct {
	Nanos     bool   // nanosecond timestamps (magic 0xA1B23C4D)
	BigEndian bool   // every header field big-endian, as a big-endian host writes
	Snaplen   uint32 // 0 means 65535
}

// PcapWith writes frames as pcap with o's header. pcapgo writes only
// little-endian files; a big-endian one is the same file with each header
// and record header field byte-swapped (the layout of
// https://www.ietf.org/archive/id/draft-ietf-opsawg-pcap-03.html, 4 and 5).
func PcapWith(o Options, frames ...[]byte) []byte {
	var b bytes.Buffer
	w := pcapgo.NewWriter(&b)
	if o.Nanos {
		w = pcapgo.NewWriterNanos(&b)
	}
	if o.Snaplen == 0 {
		o.Snaplen = 65535
	}
	if err := w.WriteFileHeader(o.Snaplen, layers.LinkTypeEthernet); err != nil {
		panic(err)
	}
	for i, data := range frames {
		ts := Base.Add(time.Duration(i)*time.Microsecond + time.Duration(i%7)*time.Nanosecond)
		ci := gopacket.CaptureInfo{Timestamp: ts, CaptureLength: len(data), Length: len(data) + i%3}
		if err := w.WritePacket(ci, data); err != nil {
			panic(err)
		}
	}
	if !o.BigEndian {
		return b.Bytes()
	}
	return swapOrder(b.Bytes())
}

// swapOrder byte-swaps a little-endian pcap file's header fields.
func swapOrder(f []byte) []byte {
	swap := func(b []byte) { slices.Reverse(b) }
	swap(f[0:4])
	swap(f[4:6])
	swap(f[6:8])
	for i := 8; i < 24; i += 4 {
		swap(f[i : i+4])
	}
	for off := 24; off+16 <= len(f); {
		caplen := int(binary.LittleEndian.Uint32(f[off+8:]))
		for i := 0; i < 16; i += 4 {
			swap(f[off+i : off+i+4])
		}
		off += 16 + caplen
	}
	return f
}

// Jumbo is an Ethernet frame of n bytes (local experimental EtherType
// 0x88B5, IEEE 802 Local Experimental), longer than any IP packet may be:
// records above libpcap's MAXIMUM_SNAPLEN.
func Jumbo(n int) []byte {
	buf := gopacket.NewSerializeBuffer()
	eth := &layers.Ethernet{SrcMAC: macA, DstMAC: macB, EthernetType: 0x88B5}
	if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{}, eth, gopacket.Payload(make([]byte, n-14))); err != nil {
		panic(err)
	}
	return append([]byte(nil), buf.Bytes()...)
}
