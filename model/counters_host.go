package model

// RDMATraffic is what a NIC's RDMA engine received and sent: mlx5's vPort
// RDMA counters of ethtool -S, unicast plus multicast (Linux
// Documentation/networking/device_drivers/ethernet/mellanox/mlx5/
// counters.rst, "vPort Counters": RoCE/UD/RC traffic, which the Ethernet
// vport counters exclude). Per-priority bytes cannot tell RoCE from TCP;
// these can.
type RDMATraffic struct {
	RxPackets, RxBytes, TxPackets, TxBytes Value[uint64]
}

// Known reports whether the capture has the RDMA counters at all.
func (r RDMATraffic) Known() bool {
	return r.RxPackets.Known || r.RxBytes.Known || r.TxPackets.Known || r.TxBytes.Known
}

// None reports that the counters are there and every one is 0: the NIC
// carried no RDMA (in the interval, for deltas).
func (r RDMATraffic) None() bool {
	return r.Known() && r.RxPackets.V == 0 && r.RxBytes.V == 0 && r.TxPackets.V == 0 && r.TxBytes.V == 0
}

// TransportCounters are the RDMA port's hw_counters about the transport:
// PSN gaps the NIC saw or was told of, and the retries they cost (Linux
// drivers/infiniband/hw/mlx5/counters.c; commit 0ad17a8f7fa0 "IB/mlx5: Add
// port protocol stats" describes them).
type TransportCounters struct {
	OutOfSequence, PacketSeqErr, ImpliedNakSeqErr Value[uint64]
	LocalAckTimeoutErr, RnrNakRetryErr            Value[uint64]
}

// Losses is the sum of the counters that only a lost packet moves:
// out_of_sequence (this NIC received a gap), packet_seq_err (a peer NAKed
// a gap in what it sent) and implied_nak_seq_err (a response implied one).
// ok is false when the capture has none of them.
func (t TransportCounters) Losses() (n uint64, ok bool) {
	for _, v := range []Value[uint64]{t.OutOfSequence, t.PacketSeqErr, t.ImpliedNakSeqErr} {
		if v.Known {
			n, ok = SatAdd(n, v.V), true
		}
	}
	return n, ok
}

// SatAdd adds two counters, saturating instead of wrapping.
func SatAdd(a, b uint64) uint64 {
	if a+b < a {
		return ^uint64(0)
	}
	return a + b
}

// deltaRDMA makes the RDMA, transport and CRC counters of after their
// growth since before (see delta).
func deltaRDMA(after, before *NICCounters) {
	for _, p := range []struct{ a, b *Value[uint64] }{
		{&after.RDMA.RxPackets, &before.RDMA.RxPackets}, {&after.RDMA.RxBytes, &before.RDMA.RxBytes},
		{&after.RDMA.TxPackets, &before.RDMA.TxPackets}, {&after.RDMA.TxBytes, &before.RDMA.TxBytes},
		{&after.Transport.OutOfSequence, &before.Transport.OutOfSequence},
		{&after.Transport.PacketSeqErr, &before.Transport.PacketSeqErr},
		{&after.Transport.ImpliedNakSeqErr, &before.Transport.ImpliedNakSeqErr},
		{&after.Transport.LocalAckTimeoutErr, &before.Transport.LocalAckTimeoutErr},
		{&after.Transport.RnrNakRetryErr, &before.Transport.RnrNakRetryErr},
		{&after.CNPIgnored, &before.CNPIgnored}, {&after.RxCRCErrors, &before.RxCRCErrors},
	} {
		delta(p.a, *p.b)
	}
}
