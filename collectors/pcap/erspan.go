package pcap

import (
	"errors"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// greProtoERSPANIII is the GRE protocol type of ERSPAN type III
// (draft-foschiano-erspan-03, 4.3: "Protocol Type set to 0x22EB").
const greProtoERSPANIII = 0x22EB

// LayerTypeERSPANIII is ERSPAN type III, which gopacket does not decode.
var LayerTypeERSPANIII = gopacket.RegisterLayerType(4792, gopacket.LayerTypeMetadata{
	Name: "ERSPANIII", Decoder: gopacket.DecodeFunc(decodeERSPANIII),
})

// ERSPANIII is the ERSPAN type III header (draft-foschiano-erspan-03,
// 4.3, https://datatracker.ietf.org/doc/html/draft-foschiano-erspan-03):
//
//	Ver(4)=2 VLAN(12) | COS(3) BSO(2) T(1) Session ID(10)
//	Timestamp(32)
//	SGT(16) | P(1) FT(5) Hw ID(6) D(1) Gra(2) O(1)
//	[platform specific subheader, 8 bytes, when O is set]
//
// FT 0 is an Ethernet frame, FT 2 an IP packet; only Ethernet frames are
// decoded further (IP frames stop here and count as not RoCE).
type ERSPANIII struct {
	layers.BaseLayer
	Version   uint8
	SessionID uint16
	FrameType uint8
}

// LayerType is LayerTypeERSPANIII.
func (e *ERSPANIII) LayerType() gopacket.LayerType { return LayerTypeERSPANIII }

// CanDecode is LayerTypeERSPANIII.
func (e *ERSPANIII) CanDecode() gopacket.LayerClass { return LayerTypeERSPANIII }

// NextLayerType is Ethernet for FT 0, else nothing.
func (e *ERSPANIII) NextLayerType() gopacket.LayerType {
	if e.FrameType == 0 {
		return layers.LayerTypeEthernet
	}
	return gopacket.LayerTypeZero
}

var (
	errERSPANIIIShort   = errors.New("ERSPAN type III header truncated")
	errERSPANIIIVersion = errors.New("GRE protocol 0x22EB without ERSPAN version 2 (type III)")
)

// DecodeFromBytes reads the header and skips the platform subheader.
func (e *ERSPANIII) DecodeFromBytes(data []byte, df gopacket.DecodeFeedback) error {
	if len(data) < 12 {
		df.SetTruncated()
		return errERSPANIIIShort
	}
	e.Version = data[0] >> 4
	if e.Version != 2 {
		return errERSPANIIIVersion
	}
	e.SessionID = uint16(data[2]&0x03)<<8 | uint16(data[3])
	e.FrameType = data[10] >> 2 & 0x1F
	n := 12
	if data[11]&0x01 != 0 {
		n += 8
		if len(data) < n {
			df.SetTruncated()
			return errERSPANIIIShort
		}
	}
	e.Contents, e.Payload = data[:n], data[n:]
	return nil
}

// SerializeTo writes a 12-byte header (no subheader, FT Ethernet) for tests.
func (e *ERSPANIII) SerializeTo(b gopacket.SerializeBuffer, _ gopacket.SerializeOptions) error {
	d, err := b.PrependBytes(12)
	if err != nil {
		return err
	}
	clear(d)
	d[0] = 2 << 4
	d[2], d[3] = byte(e.SessionID>>8&0x03), byte(e.SessionID)
	d[10] = e.FrameType & 0x1F << 2
	return nil
}

func decodeERSPANIII(data []byte, p gopacket.PacketBuilder) error {
	e := &ERSPANIII{}
	if err := e.DecodeFromBytes(data, p); err != nil {
		return err
	}
	p.AddLayer(e)
	return p.NextDecoder(e.NextLayerType())
}

// greLayer is gopacket's GRE that also leads to ERSPAN type III; type II
// (0x88BE) and transparent Ethernet bridging (0x6558) gopacket already
// follows.
type greLayer struct{ layers.GRE }

func (g *greLayer) NextLayerType() gopacket.LayerType {
	if g.Protocol == greProtoERSPANIII {
		return LayerTypeERSPANIII
	}
	return g.GRE.NextLayerType()
}
