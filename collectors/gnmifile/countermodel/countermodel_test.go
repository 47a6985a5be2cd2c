package countermodel_test

import (
	"testing"

	"github.com/qoslint/qoslint/collectors/gnmifile"
	"github.com/qoslint/qoslint/collectors/gnmifile/countermodel"
	"github.com/qoslint/qoslint/internal/source"
)

// TestSwitchCounters: queues named by traffic class become the model's
// per-class counters, any other queue name is left out, and pause counts
// land on their switch priority, each value at its notification.
func TestSwitchCounters(t *testing.T) {
	at := source.Pos{File: "gnmi-counters.json", Line: 4}
	c := &gnmifile.Counters{
		Queues: map[gnmifile.IfQueue]gnmifile.QueueCounters{
			{Interface: "swp1", Queue: "3"}:     {TransmitPkts: 9, ECNMarkedPkts: 7, NoBufferDroppedPkts: 2, Pos: at},
			{Interface: "swp1", Queue: "mc"}:    {ECNMarkedPkts: 100, Pos: at},
			{Interface: "swp2", Queue: "8"}:     {ECNMarkedPkts: 100, Pos: at},
			{Interface: "swp3", Queue: "queue"}: {Pos: at},
		},
		Priorities: map[gnmifile.IfPrio]gnmifile.PrioCounters{
			{Interface: "swp1", Priority: 3}: {InPausePkts: 5, OutPausePkts: 6, InPauseDuration: 1, OutPauseDuration: 2, Pos: at},
		},
	}
	sc := countermodel.SwitchCounters("f.json", c)
	if sc.File != "f.json" || len(sc.Ports) != 1 {
		t.Fatalf("file %q, ports %v: want f.json and swp1 alone", sc.File, sc.Ports)
	}
	p := sc.Ports["swp1"]
	if p.ECNMarked[3].V != 7 || p.Drops[3].V != 2 || p.Transmit[3].V != 9 || p.ECNMarked[3].Origin.Pos() != at {
		t.Errorf("queue 3: %+v %+v %+v", p.ECNMarked[3], p.Drops[3], p.Transmit[3])
	}
	if p.ECNMarked[0].Known {
		t.Errorf("queue 0 not sent but Known: %+v", p.ECNMarked[0])
	}
	if pr := p.Prio[3]; pr.RxPause.V != 5 || pr.TxPause.V != 6 || pr.RxPauseDuration.V != 1 || pr.TxPauseDuration.V != 2 {
		t.Errorf("priority 3: %+v", pr)
	}
	if countermodel.SwitchCounters("f.json", nil) != nil {
		t.Error("no counters file must be no counters")
	}
}
