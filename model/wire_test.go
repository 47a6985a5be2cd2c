package model

import (
	"math"
	"slices"
	"testing"
	"time"
)

// TestWireCountKeepsTheInstant: a count's first mark prints, in UTC, what
// the capture's time.Time printed, for the times the pcap readers make:
// microsecond and nanosecond pcap, pcapng's zero time for a packet without
// one, a time past UnixNano's range, and one not in UTC.
func TestWireCountKeepsTheInstant(t *testing.T) {
	times := []time.Time{
		time.Unix(1748855643, 0).UTC(),
		time.Unix(1748855643, 123456000).UTC(),
		time.Unix(1748855643, 999999999).UTC(),
		{},
		time.Unix(math.MaxInt64/1000, 1).UTC(),
		time.Unix(-1, 5).UTC(),
		time.Date(2025, 6, 2, 9, 14, 3, 42, time.FixedZone("CEST", 2*3600)),
	}
	for _, at := range times {
		c := NewWireCount(26, 7, WireMark{Packet: 12, Time: at})
		m := c.First()
		if c.Value() != 26 || c.Count() != 7 || c.Packet() != 12 || m.Packet != 12 {
			t.Errorf("%v: count %+v", at, c)
		}
		if got, want := m.Time.Format(time.RFC3339Nano), at.UTC().Format(time.RFC3339Nano); got != want || !m.Time.Equal(at) {
			t.Errorf("first time %s, want %s", got, want)
		}
	}
}

// TestWireHistograms: each histogram reads back as it was set, in value
// order, with counts and first marks by value, next to the others in the
// flow's one array.
func TestWireHistograms(t *testing.T) {
	at := func(p uint64) WireMark { return WireMark{Packet: p, Time: time.Unix(int64(p), 0).UTC()} }
	dscp := []WireCount{NewWireCount(0, 3, at(5)), NewWireCount(26, 900, at(1))}
	ecn := []WireCount{NewWireCount(2, 903, at(1))}
	pcp := []WireCount{NewWireCount(6, 1, at(9)), NewWireCount(WireUntagged, 2, at(7))}
	var f WireFlow
	f.SetHistograms(dscp, ecn, nil, pcp)
	for _, tt := range []struct {
		name string
		h    WireHist
		want []WireCount
	}{{"DSCP", f.DSCP(), dscp}, {"ECN", f.ECN(), ecn}, {"CNP DSCP", f.CNPDSCP(), nil}, {"CNP PCP", f.CNPPCP(), pcp}} {
		if !slices.Equal(tt.h, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, tt.h, tt.want)
		}
		for _, c := range tt.want {
			if tt.h.Count(c.Value()) != c.Count() || tt.h.First(c.Value()) != c.First() {
				t.Errorf("%s %d: count %d first %v, want %+v", tt.name, c.Value(), tt.h.Count(c.Value()), tt.h.First(c.Value()), c)
			}
		}
	}
	if f.DSCP().Count(46) != 0 || f.DSCP().First(46) != (WireMark{}) {
		t.Error("a value not seen must count 0 with no mark")
	}
	// A histogram handed out is full: appending to it cannot overwrite
	// the next one.
	_ = append(f.DSCP(), NewWireCount(63, 1, at(2)))
	if !slices.Equal(f.ECN(), ecn) {
		t.Errorf("ECN %v after an append to DSCP", f.ECN())
	}
}

func TestWireHistogramsRefuseDisorder(t *testing.T) {
	one := func(v uint8) WireCount { return NewWireCount(v, 1, WireMark{Packet: 1}) }
	for name, set := range map[string]func(*WireFlow){
		"descending":        func(f *WireFlow) { f.SetHistograms([]WireCount{one(26), one(0)}, nil, nil, nil) },
		"twice":             func(f *WireFlow) { f.SetHistograms(nil, []WireCount{one(2), one(2)}, nil, nil) },
		"ECN 4":             func(f *WireFlow) { f.SetHistograms(nil, []WireCount{one(4)}, nil, nil) },
		"DSCP 64":           func(f *WireFlow) { f.SetHistograms(nil, nil, []WireCount{one(64)}, nil) },
		"PCP past untagged": func(f *WireFlow) { f.SetHistograms(nil, nil, nil, []WireCount{one(WireUntagged + 1)}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			set(&WireFlow{})
		}()
	}
}
