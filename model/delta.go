package model

import "time"

// Counter deltas: with two samples an interval apart, the evidence checks
// judge what happened during the interval rather than since boot, so a
// pause from before a fix no longer counts.

// delta turns after into the growth since before. A counter that went
// down was reset (driver reload, counters cleared) during the interval:
// everything it counts now happened since, so after is the growth. A
// counter the earlier sample lacks counts as reset too.
func delta(after *Value[uint64], before Value[uint64]) {
	if !after.Known || !before.Known || after.V < before.V {
		return
	}
	after.V -= before.V
}

func (p *PrioCounters) sub(b *PrioCounters) {
	delta(&p.RxBytes, b.RxBytes)
	delta(&p.RxPackets, b.RxPackets)
	delta(&p.TxBytes, b.TxBytes)
	delta(&p.TxPackets, b.TxPackets)
	delta(&p.RxPause, b.RxPause)
	delta(&p.TxPause, b.TxPause)
	delta(&p.RxPauseDuration, b.RxPauseDuration)
	delta(&p.TxPauseDuration, b.TxPauseDuration)
}

// DeltaNIC makes after the growth since before, interval earlier.
func DeltaNIC(after, before *NICCounters, interval time.Duration) {
	if after == nil || before == nil || interval <= 0 {
		return
	}
	for p := range after.Prio {
		after.Prio[p].sub(&before.Prio[p])
	}
	delta(&after.CNPSent, before.CNPSent)
	delta(&after.CNPHandled, before.CNPHandled)
	delta(&after.ECNMarkedRoCE, before.ECNMarkedRoCE)
	deltaRDMA(after, before)
	after.Delta, after.Interval = true, interval
}

// DeltaSwitch makes after the growth since before, port by port; a port
// the earlier sample lacks keeps its values (it was not counted then).
func DeltaSwitch(after, before *SwitchCounters, interval time.Duration) {
	if after == nil || before == nil || interval <= 0 {
		return
	}
	for name, pa := range after.Ports {
		pb := before.Ports[name]
		if pb == nil {
			pb = &SwitchPortCounters{}
		}
		for i := range pa.Prio {
			pa.Prio[i].sub(&pb.Prio[i])
		}
		for tc := range pa.ECNMarked {
			delta(&pa.ECNMarked[tc], pb.ECNMarked[tc])
			delta(&pa.Drops[tc], pb.Drops[tc])
			after.TransmitSeen = after.TransmitSeen || pb.Transmit[tc].V > 0
			delta(&pa.Transmit[tc], pb.Transmit[tc])
		}
	}
	after.Delta, after.Interval = true, interval
}
