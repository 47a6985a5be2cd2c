package pcap

import (
	"encoding/binary"
	"math/bits"
	"net/netip"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// fastDecode decodes the framing nearly every RoCEv2 capture has —
// Ethernet, up to two 802.1Q/802.1ad tags, IPv4 without options or IPv6
// without extension headers, UDP, BTH — without gopacket's per-layer
// dispatch, which caps the gopacket path far below a 100 Gb/s link's
// packet rate. ok is false for anything else (GRE/ERSPAN mirrors, IPv4
// options and fragments, IPv6 extension headers, truncated or
// inconsistent lengths, other EtherTypes and protocols): then the
// gopacket decoder decides, errors included, so the two paths give the
// same summaries (TestFastPathAgrees, FuzzFastPath). The length rules
// below are those of gopacket v1.7.7's layers.IPv4, IPv6 and UDP
// DecodeFromBytes, restricted to the cases where they accept the packet
// without a truncation.
func fastDecode(data []byte, w *wire) (roce, ok bool) {
	if len(data) < 14 {
		return false, false
	}
	*w = wire{pcp: Untagged}
	et := binary.BigEndian.Uint16(data[12:14])
	p := data[14:]
	for range 3 {
		if et != uint16(layers.EthernetTypeDot1Q) && et != uint16(layers.EthernetTypeQinQ) {
			break
		}
		if len(p) < 4 {
			return false, false
		}
		// The last tag decoded, the one nearest the IP header, gives
		// the priority, as in the gopacket path.
		w.pcp = int(p[0] >> 5)
		et = binary.BigEndian.Uint16(p[2:4])
		p = p[4:]
	}
	var proto byte
	switch et {
	case uint16(layers.EthernetTypeIPv4):
		if len(p) < 20 || p[0]&0x0F != 5 {
			return false, false
		}
		n := int(binary.BigEndian.Uint16(p[2:4]))
		// Fragments: gopacket stops at them (LayerTypeFragment).
		if n < 20 || n > len(p) || binary.BigEndian.Uint16(p[6:8])&0x3FFF != 0 {
			return false, false
		}
		w.tc, proto = p[1], p[9]
		w.key.Src = netip.AddrFrom4([4]byte(p[12:16]))
		w.key.Dst = netip.AddrFrom4([4]byte(p[16:20]))
		w.hash = binary.LittleEndian.Uint64(p[12:20])
		p = p[20:n]
	case uint16(layers.EthernetTypeIPv6):
		if len(p) < 40 {
			return false, false
		}
		n := int(binary.BigEndian.Uint16(p[4:6]))
		if n == 0 || n > len(p)-40 {
			return false, false
		}
		w.tc = byte(binary.BigEndian.Uint16(p[0:2]) >> 4)
		proto = p[6]
		w.key.Src = netip.AddrFrom16([16]byte(p[8:24]))
		w.key.Dst = netip.AddrFrom16([16]byte(p[24:40]))
		w.hash = binary.LittleEndian.Uint64(p[8:16]) ^ binary.LittleEndian.Uint64(p[16:24]) ^
			bits.RotateLeft64(binary.LittleEndian.Uint64(p[24:32])^binary.LittleEndian.Uint64(p[32:40]), 29)
		p = p[40 : 40+n]
	default:
		return false, false
	}
	switch proto {
	case byte(layers.IPProtocolUDP):
	case byte(layers.IPProtocolTCP), byte(layers.IPProtocolICMPv4), byte(layers.IPProtocolICMPv6):
		return false, true // layers the gopacket path does not decode
	default:
		return false, false
	}
	return fastUDP(w, p)
}

// fastUDP decodes UDP and, on port 4791, the BTH.
func fastUDP(w *wire, p []byte) (roce, ok bool) {
	if len(p) < 8 {
		return false, false
	}
	n := int(binary.BigEndian.Uint16(p[4:6]))
	if n < 8 || n > len(p) {
		return false, false
	}
	sport, dport := binary.BigEndian.Uint16(p[0:2]), binary.BigEndian.Uint16(p[2:4])
	if dport != RoCEv2Port {
		// Not RoCEv2, and decided here only when gopacket would decode
		// nothing further (a port of its own, 4791 as a source port).
		if layers.UDPPort(dport).LayerType() != gopacket.LayerTypePayload ||
			layers.UDPPort(sport).LayerType() != gopacket.LayerTypePayload {
			return false, false
		}
		return false, true
	}
	p = p[8:n]
	if len(p) < bthLen {
		return false, false
	}
	w.sport = sport
	w.key.DestQP = uint32(p[5])<<16 | uint32(p[6])<<8 | uint32(p[7])
	w.cnp = p[0] == OpcodeCNP
	w.hash ^= uint64(w.key.DestQP) << 40
	return true, true
}
