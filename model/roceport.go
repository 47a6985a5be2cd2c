package model

import (
	"encoding/binary"
	"hash/fnv"
	"net/netip"
)

// RoCEv2SourcePort is the UDP source port a ConnectX (mlx5) RC QP sends
// with when the application leaves the GRH flow label at 0: the kernel
// computes a flow label from the two QP numbers and folds it into the
// port range 0xC000-0xFFFF (Linux include/rdma/ib_verbs.h,
// rdma_calc_flow_label and rdma_flow_label_to_udp_sport, used through
// rdma_get_udp_sport by drivers/infiniband/hw/mlx5/qp.c). The product
// makes it symmetric: both ends of a QP pair send with the same port.
func RoCEv2SourcePort(lqpn, rqpn uint32) uint16 {
	return FlowLabelSourcePort(RoCEv2FlowLabel(lqpn, rqpn))
}

// RoCEv2FlowLabel is rdma_calc_flow_label: the 20-bit flow label of a QP pair.
func RoCEv2FlowLabel(lqpn, rqpn uint32) uint32 {
	v := uint64(lqpn) * uint64(rqpn)
	v ^= v >> 20
	v ^= v >> 40
	return uint32(v & 0xFFFFF)
}

// FlowLabelSourcePort is rdma_flow_label_to_udp_sport: the low 14 bits of
// the flow label XOR its high 6, in 0xC000-0xFFFF. An application that
// sets a flow label of its own gets the port of that label.
func FlowLabelSourcePort(fl uint32) uint16 {
	return uint16((fl&0x3FFF)^((fl&0xFC000)>>14)) | 0xC000
}

// ECMPTuple is what an ECMP hash may read of a RoCEv2 packet.
type ECMPTuple struct {
	Src, Dst         netip.Addr
	SrcPort, DstPort uint16
	Protocol         uint8
}

// ModelECMPMember picks one of n next hops for t from the hash fields
// that are on. It is a model, not the switch's function: Spectrum ASICs
// do not publish their ECMP hash, so this is FNV-1a over the fields the
// switch is configured to read. What it can show is structural: tuples
// that differ only in fields the switch does not hash always share a
// next hop, and few distinct tuples can all fall on one. The fields
// other than the addresses, ports and protocol (ipv6-label, the inner
// and ingress fields) are modelled as constant.
func ModelECMPMember(on map[string]bool, t ECMPTuple, n int) int {
	if n <= 1 {
		return 0
	}
	h := fnv.New64a()
	var b [16]byte
	if on["source-ip"] {
		b = t.Src.As16()
		h.Write(b[:])
	}
	if on["destination-ip"] {
		b = t.Dst.As16()
		h.Write(b[:])
	}
	if on["source-port"] {
		h.Write(binary.BigEndian.AppendUint16(nil, t.SrcPort))
	}
	if on["destination-port"] {
		h.Write(binary.BigEndian.AppendUint16(nil, t.DstPort))
	}
	if on["ip-protocol"] {
		h.Write([]byte{t.Protocol})
	}
	return int(h.Sum64() % uint64(n))
}
