// Package pcap reads RoCEv2 packet captures (pcap and pcapng) and reduces
// them, streamed, to per-flow wire facts: DSCP, ECN, CNPs and UDP source
// ports, per (source IP, destination IP, destination QP). Memory grows with
// the number of flows, never with the number of packets.
package pcap

import (
	"encoding/binary"
	"errors"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// RoCEv2Port is the IANA UDP port of RoCEv2 (InfiniBand Architecture
// Specification Vol. 1, Annex A17 "RoCEv2"; Wireshark's
// epan/dissectors/packet-infiniband.c, DEFAULT_RROCE_UDP_PORT 4791).
const RoCEv2Port = 4791

// OpcodeCNP is the BTH opcode of a RoCEv2 Congestion Notification Packet
// (Annex A17: CNP is opcode 0x81, a BTH followed by 16 reserved bytes).
const OpcodeCNP = 0x81

// bthLen is the Base Transport Header's length.
const bthLen = 12

// LayerTypeBTH is the InfiniBand Base Transport Header carried over UDP
// 4791. gopacket has no such layer; ours is registered on the port so that
// UDP's NextLayerType leads to it.
var LayerTypeBTH = gopacket.RegisterLayerType(4791, gopacket.LayerTypeMetadata{
	Name: "InfiniBandBTH", Decoder: gopacket.DecodeFunc(decodeBTH),
})

func init() {
	layers.RegisterUDPPortLayerType(RoCEv2Port, LayerTypeBTH)
}

// BTH is the 12-byte Base Transport Header. Layout (InfiniBand
// Architecture Specification Vol. 1, 9.2 "Base Transport Header"; the same
// masks as Wireshark's epan/dissectors/packet-infiniband.c field table,
// infiniband.bth.*, and Linux include/rdma/ib_pack.h, IB_BTH_*):
//
//	byte 0     opcode
//	byte 1     SE(0x80) M(0x40) PadCnt(0x30) TVer(0x0F)
//	bytes 2-3  P_Key
//	byte 4     FECN(0x80) BECN(0x40), 6 reserved bits
//	bytes 5-7  destination QP
//	byte 8     AckReq(0x80), 7 reserved bits
//	bytes 9-11 PSN
type BTH struct {
	layers.BaseLayer
	Opcode       uint8
	SE, MigReq   bool
	PadCnt, TVer uint8
	PKey         uint16
	FECN, BECN   bool
	DestQP       uint32
	AckReq       bool
	PSN          uint32
}

// LayerType is LayerTypeBTH.
func (b *BTH) LayerType() gopacket.LayerType { return LayerTypeBTH }

// CanDecode is LayerTypeBTH.
func (b *BTH) CanDecode() gopacket.LayerClass { return LayerTypeBTH }

// NextLayerType is the payload: the extended headers that follow depend on
// the opcode and are not decoded.
func (b *BTH) NextLayerType() gopacket.LayerType { return gopacket.LayerTypePayload }

var errBTHShort = errors.New("InfiniBand BTH truncated: fewer than 12 bytes after UDP 4791")

// DecodeFromBytes reads the header; it never allocates.
func (b *BTH) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if len(data) < bthLen {
		df.SetTruncated()
		return errBTHShort
	}
	b.Opcode = data[0]
	b.SE = data[1]&0x80 != 0
	b.MigReq = data[1]&0x40 != 0
	b.PadCnt = data[1] >> 4 & 0x3
	b.TVer = data[1] & 0x0F
	b.PKey = binary.BigEndian.Uint16(data[2:4])
	b.FECN = data[4]&0x80 != 0
	b.BECN = data[4]&0x40 != 0
	b.DestQP = uint32(data[5])<<16 | uint32(data[6])<<8 | uint32(data[7])
	b.AckReq = data[8]&0x80 != 0
	b.PSN = uint32(data[9])<<16 | uint32(data[10])<<8 | uint32(data[11])
	b.Contents = data[:bthLen]
	b.Payload = data[bthLen:]
	return nil
}

// SerializeTo writes the header, so tests build captures with gopacket
// rather than by hand.
func (b *BTH) SerializeTo(buf gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	d, err := buf.PrependBytes(bthLen)
	if err != nil {
		return err
	}
	d[0] = b.Opcode
	d[1] = b.PadCnt&0x3<<4 | b.TVer&0x0F
	if b.SE {
		d[1] |= 0x80
	}
	if b.MigReq {
		d[1] |= 0x40
	}
	binary.BigEndian.PutUint16(d[2:4], b.PKey)
	d[4] = 0
	if b.FECN {
		d[4] |= 0x80
	}
	if b.BECN {
		d[4] |= 0x40
	}
	d[5], d[6], d[7] = byte(b.DestQP>>16), byte(b.DestQP>>8), byte(b.DestQP)
	d[8] = 0
	if b.AckReq {
		d[8] = 0x80
	}
	d[9], d[10], d[11] = byte(b.PSN>>16), byte(b.PSN>>8), byte(b.PSN)
	return nil
}

func decodeBTH(data []byte, p gopacket.PacketBuilder) error {
	b := &BTH{}
	if err := b.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(b)
	return p.NextDecoder(b.NextLayerType())
}
