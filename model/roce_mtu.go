package model

// RoCEHeaderBytes are the headers the kernel budgets beside a RoCE path
// MTU's payload: iboe_get_mtu() in Linux include/rdma/ib_addr.h takes
// IB_GRH_BYTES (40), IB_UDP_BYTES (8), IB_BTH_BYTES (12), IB_EXT_XRC_BYTES
// (4), IB_EXT_ATOMICETH_BYTES (28) and IB_ICRC_BYTES (4) off the netdev
// MTU "to reduce IB headers from effective IBoE MTU" before it picks the IB
// MTU enum. The GRH's 40 bytes stand for the IPv6 header (IPv4's is 20).
const RoCEHeaderBytes = 40 + 8 + 12 + 4 + 28 + 4

// RoCEPathMTU is the largest RoCE path MTU (256 to 4096, the IB MTU enums)
// a netdev MTU carries, as iboe_get_mtu() picks it; 0 below 256+96 bytes.
// 4096 is the largest there is, so a 9000-byte netdev still sends RoCE
// packets of at most 4096 bytes of payload.
func RoCEPathMTU(netdev int) int {
	best := 0
	for _, m := range []int{256, 512, 1024, 2048, 4096} {
		if m+RoCEHeaderBytes <= netdev {
			best = m
		}
	}
	return best
}

// RoCEPacketMax bounds the IP packets RoCE sends from a netdev of that MTU:
// its path MTU's payload and the headers the kernel budgets beside it; 0
// when the netdev carries no RoCE path MTU at all.
func RoCEPacketMax(netdev int) int {
	m := RoCEPathMTU(netdev)
	if m == 0 {
		return 0
	}
	return m + RoCEHeaderBytes
}

// HostFrames are the largest frames the hosts of a fabric send: the
// largest RoCE packet (RoCEPacketMax) and the largest netdev MTU, over
// every RoCE NIC whose MTU is known. Known is false when no NIC's MTU is.
type HostFrames struct {
	RoCE, Host int
	Known      bool
}

// HostFrames measures the fabric's RoCE NICs.
func (f *Fabric) HostFrames() HostFrames {
	var hf HostFrames
	for _, h := range f.Hosts {
		for _, n := range h.NICs {
			if n.MTU.Known {
				hf.Add(n.MTU.V)
			}
		}
	}
	return hf
}

// Add counts one NIC's netdev MTU.
func (hf *HostFrames) Add(mtu int) {
	hf.Known = true
	hf.Host = max(hf.Host, mtu)
	hf.RoCE = max(hf.RoCE, RoCEPacketMax(mtu))
}
