package pcap

import (
	"cmp"
	"encoding/binary"
	"math/bits"
	"net/netip"
	"slices"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
)

// decoder holds one of each layer a RoCEv2 capture may show, reused for
// every packet (gopacket.DecodingLayerParser: no allocation per packet).
// Supported framings: Ethernet; 802.1Q and QinQ (802.1ad) tags; IPv4 and
// IPv6 (no extension headers other than hop-by-hop); switch mirrors in GRE:
// ERSPAN type II (0x88BE, and type I without its header), ERSPAN type III
// (0x22EB, Ethernet frames) and transparent Ethernet bridging (0x6558).
// The inner frame of a mirror is what is judged.
type decoder struct {
	parser  *gopacket.DecodingLayerParser
	eth     layers.Ethernet
	dot1q   layers.Dot1Q
	ip4     layers.IPv4
	ip6     layers.IPv6
	udp     layers.UDP
	gre     greLayer
	ers2    layers.ERSPANII
	ers3    ERSPANIII
	bth     BTH
	decoded []gopacket.LayerType
	// noFast sends every packet through gopacket (tests compare paths).
	noFast bool
	// w is the fast path's packet, reused.
	w wire
}

func newDecoder() *decoder {
	d := &decoder{decoded: make([]gopacket.LayerType, 0, 16)}
	d.parser = gopacket.NewDecodingLayerParser(layers.LayerTypeEthernet,
		&d.eth, &d.dot1q, &d.ip4, &d.ip6, &d.udp, &d.gre, &d.ers2, &d.ers3, &d.bth)
	d.parser.IgnoreUnsupported = true
	return d
}

// wire is one decoded RoCEv2 packet.
type wire struct {
	key   FlowKey
	tc    uint8 // IPv4 ToS or IPv6 traffic class
	pcp   int   // Untagged when the inner frame has no tag
	sport uint16
	cnp   bool
	// hash is any mix of the key's bits; it only picks a flow cache slot.
	hash uint64
}

// decode reports whether data is a RoCEv2 packet, and why not when it
// could not be decoded at all.
// The packet is d.w, valid until the next call.
func (d *decoder) decode(data []byte) (roce bool, err error) {
	if !d.noFast {
		if roce, ok := fastDecode(data, &d.w); ok {
			return roce, nil
		}
	}
	d.w, roce, err = d.slow(data)
	return roce, err
}

// slow is the gopacket path: every framing the package supports.
func (d *decoder) slow(data []byte) (w wire, roce bool, err error) {
	err = d.parser.DecodeLayers(data, &d.decoded)
	ipv, tagged := 0, false
	for _, t := range d.decoded {
		switch t {
		case layers.LayerTypeGRE, layers.LayerTypeERSPANII, LayerTypeERSPANIII:
			ipv, tagged, roce = 0, false, false // the mirrored frame starts anew
		case layers.LayerTypeDot1Q:
			tagged = true
		case layers.LayerTypeIPv4:
			ipv = 4
		case layers.LayerTypeIPv6:
			ipv = 6
		case LayerTypeBTH:
			roce = true
		}
	}
	// RoCEv2 is always sent to UDP 4791 (Annex A17); gopacket also follows
	// a source port of 4791.
	if !roce || ipv == 0 || d.udp.DstPort != RoCEv2Port {
		return w, false, err
	}
	// The struct holds the last tag decoded: the one nearest the IP header.
	w.pcp = Untagged
	if tagged {
		w.pcp = int(d.dot1q.Priority)
	}
	if ipv == 4 {
		w.key.Src, _ = netip.AddrFromSlice(d.ip4.SrcIP)
		w.key.Dst, _ = netip.AddrFromSlice(d.ip4.DstIP)
		w.tc = d.ip4.TOS
	} else {
		w.key.Src, _ = netip.AddrFromSlice(d.ip6.SrcIP)
		w.key.Dst, _ = netip.AddrFromSlice(d.ip6.DstIP)
		w.tc = d.ip6.TrafficClass
	}
	w.key.DestQP = d.bth.DestQP
	w.sport = uint16(d.udp.SrcPort)
	w.cnp = d.bth.Opcode == OpcodeCNP
	w.hash = keyHash(w.key)
	return w, true, nil
}

// aggregator keeps the per-flow state. A capture interleaves the packets
// of its flows (one per QP, many QPs per GPU pair), so a direct-mapped
// cache of recent flows in front of the map answers most packets without
// hashing the 52-byte key the Go map way.
type aggregator struct {
	flows map[FlowKey]*Flow
	cache [flowCache]*Flow
}

// flowCache is the number of cache slots, 1<<flowCacheBits.
const (
	flowCacheBits = 10
	flowCache     = 1 << flowCacheBits
)

func newAggregator() *aggregator { return &aggregator{flows: map[FlowKey]*Flow{}} }

func (a *aggregator) add(s *Summary, d *decoder, data []byte, at Mark) {
	roce, err := d.decode(data)
	w := &d.w
	if err != nil {
		if s.Undecodable == 0 {
			s.FirstUndecodable, s.UndecodableWhy = at, err.Error()
		}
		s.Undecodable++
	}
	if !roce {
		return
	}
	s.RoCE++
	f := a.flow(w.key, w.hash)
	if f == nil {
		s.Untracked++
		return
	}
	f.observe(w, at)
}

func (a *aggregator) flow(k FlowKey, hash uint64) *Flow {
	// Fibonacci hashing: the top bits of the product depend on every bit
	// of the hash.
	slot := &a.cache[(hash*0x9E3779B97F4A7C15)>>(64-flowCacheBits)]
	if f := *slot; f != nil && f.FlowKey == k {
		return f
	}
	f, ok := a.flows[k]
	if !ok {
		if len(a.flows) >= maxFlows {
			return nil
		}
		f = &Flow{FlowKey: k}
		a.flows[k] = f
	}
	*slot = f
	return f
}

// keyHash mixes the key's addresses and QP for the gopacket path.
func keyHash(k FlowKey) uint64 {
	s, d := k.Src.As16(), k.Dst.As16()
	return binary.LittleEndian.Uint64(s[8:]) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(d[8:]), 23) ^
		binary.LittleEndian.Uint64(s[:8]) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(d[:8]), 41) ^ uint64(k.DestQP)<<40
}

func (f *Flow) observe(w *wire, at Mark) {
	dscp := w.tc >> 2
	if w.cnp {
		c := f.CNP
		if c == nil {
			c = &CNPStats{}
			f.CNP = c
		}
		c.Count++
		if c.DSCP[dscp] == 0 {
			c.FirstDSCP[dscp] = at
		}
		c.DSCP[dscp]++
		if c.PCP[w.pcp] == 0 {
			c.FirstPCP[w.pcp] = at
		}
		c.PCP[w.pcp]++
		return
	}
	f.Packets++
	if f.DSCP[dscp] == 0 {
		f.FirstDSCP[dscp] = at
	}
	f.DSCP[dscp]++
	ecn := w.tc & 3
	if f.ECN[ecn] == 0 {
		f.FirstECN[ecn] = at
	}
	f.ECN[ecn]++
	if !f.PortsOverflow && !slices.Contains(f.SrcPorts, w.sport) {
		if len(f.SrcPorts) >= maxPorts {
			f.PortsOverflow = true
		} else {
			f.SrcPorts = append(f.SrcPorts, w.sport)
		}
	}
}

func (a *aggregator) finish(s *Summary) {
	s.Flows = s.Flows[:0]
	for _, f := range a.flows {
		s.Flows = append(s.Flows, f)
	}
	slices.SortFunc(s.Flows, func(x, y *Flow) int {
		return cmp.Or(x.Src.Compare(y.Src), x.Dst.Compare(y.Dst), cmp.Compare(x.DestQP, y.DestQP))
	})
}
