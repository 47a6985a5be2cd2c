package hostmodel

import (
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// rdmaTraffic sums the unicast and multicast RDMA counters.
func rdmaTraffic(e *hostfiles.EthtoolStats, v func(hostfiles.Counter) model.Value[uint64]) model.RDMATraffic {
	r := e.RDMA()
	return model.RDMATraffic{
		RxPackets: sumCounters(v(r.RxPackets), v(r.RxMcastPackets)),
		RxBytes:   sumCounters(v(r.RxBytes), v(r.RxMcastBytes)),
		TxPackets: sumCounters(v(r.TxPackets), v(r.TxMcastPackets)),
		TxBytes:   sumCounters(v(r.TxBytes), v(r.TxMcastBytes)),
	}
}

// sumCounters adds two counters; the sum is Known when either is, and
// points at the first that is.
func sumCounters(a, b model.Value[uint64]) model.Value[uint64] {
	switch {
	case !a.Known:
		return b
	case !b.Known:
		return a
	}
	a.V = model.SatAdd(a.V, b.V)
	return a
}

// addHWCounters fills the counters the RDMA hw_counters carry. Each
// points at its own file (line 1: the file is one "%llu\n").
func addHWCounters(nc *model.NICCounters, hw *hostfiles.HWCounters) {
	if hw == nil {
		return
	}
	nc.HWFile = hw.Dir
	set := func(dst *model.Value[uint64], name string) {
		if c := hw.Get(name); c.Present() {
			*dst = model.Explicit(c.Value, source.Pos{File: c.File, Line: 1})
		}
	}
	set(&nc.CNPSent, hostfiles.HWCNPSent)
	set(&nc.CNPHandled, hostfiles.HWCNPHandled)
	set(&nc.CNPIgnored, hostfiles.HWCNPIgnored)
	set(&nc.ECNMarkedRoCE, hostfiles.HWECNMarkedRoCE)
	t := &nc.Transport
	set(&t.OutOfSequence, hostfiles.HWOutOfSequence)
	set(&t.PacketSeqErr, hostfiles.HWPacketSeqErr)
	set(&t.ImpliedNakSeqErr, hostfiles.HWImpliedNakSeqErr)
	set(&t.LocalAckTimeoutErr, hostfiles.HWLocalAckTimeoutErr)
	set(&t.RnrNakRetryErr, hostfiles.HWRnrNakRetryErr)
}
