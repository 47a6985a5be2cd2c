package model

import (
	"testing"
	"unsafe"

	"github.com/qoslint/qoslint/internal/source"
)

func TestDSCPMap(t *testing.T) {
	line := func(n int) source.Pos { return source.Pos{File: "devices/gpu01/mlnx_qos-ens1f0np0.txt", Line: n} }
	var m DSCPMap
	if v := m.At(26); v != (Value[int]{}) {
		t.Fatalf("empty map: DSCP 26 = %+v", v)
	}
	// mlnx_qos prints a dscp2prio line per priority: 64 entries, 8 origins.
	for d := range 64 {
		m.Set(d, Explicit(d>>3, line(10+d>>3)))
	}
	m.Set(7, Value[int]{Origin: At(line(99))}) // absent from the table
	m.Set(-1, Explicit(5, line(1)))
	m.Set(64, Explicit(5, line(1)))
	for _, tc := range []struct {
		d    int
		want Value[int]
	}{
		{0, Explicit(0, line(10))},
		{26, Explicit(3, line(13))},
		{63, Explicit(7, line(17))},
		{7, Value[int]{Origin: At(line(99))}},
		{-1, Value[int]{}},
		{64, Value[int]{}},
	} {
		if got := m.At(tc.d); got != tc.want {
			t.Errorf("At(%d) = %+v, want %+v", tc.d, got, tc.want)
		}
	}
	if m.n != 10 { // the zero origin, eight lines, line 99
		t.Errorf("%d origins kept, want 10", m.n)
	}
	n := 0
	for d, v := range m.All() {
		if v != m.At(d) {
			t.Errorf("All yields %d: %+v, At %+v", d, v, m.At(d))
		}
		n++
	}
	if n != 64 {
		t.Errorf("All yields %d entries", n)
	}
}

// A QoS or NIC is copied and then changed (a profile over the defaults):
// the copy's changes must not show in the original, nor the original's
// later changes in the copy.
func TestDSCPMapCopy(t *testing.T) {
	var a DSCPMap
	a.Set(26, Defaulted(3, "default table"))
	b := a
	b.Set(26, Explicit(4, source.Pos{File: "nv-config.yaml", Line: 7}))
	b.Set(48, Explicit(6, source.Pos{File: "nv-config.yaml", Line: 8}))
	a.Set(0, Defaulted(1, "another default"))
	if v := a.At(26); v.V != 3 || v.Origin.Default() != "default table" {
		t.Errorf("original DSCP 26 = %+v after the copy changed", v)
	}
	if v := a.At(48); v.Known {
		t.Errorf("original DSCP 48 = %+v, set only in the copy", v)
	}
	if v := b.At(26); v.V != 4 || v.Origin.Pos().Line != 7 {
		t.Errorf("copy DSCP 26 = %+v", v)
	}
	if v := b.At(0); v.Known {
		t.Errorf("copy DSCP 0 = %+v, set only in the original after the copy", v)
	}
	if v := b.At(48); v.Origin.Pos().Line != 8 {
		t.Errorf("copy DSCP 48 = %+v", v)
	}
}

func TestDSCPMapSize(t *testing.T) {
	if n := unsafe.Sizeof(DSCPMap{}); n != 160 {
		t.Errorf("DSCPMap is %d bytes, want 160", n)
	}
}

// A value outside a byte's range comes back whole, int32 as before, and
// setting one in a copy leaves the original as it was.
func TestDSCPMapWide(t *testing.T) {
	var a DSCPMap
	vals := map[int]int{0: 127, 1: -127, 2: -128, 3: 300, 4: -70000, 5: 1 << 40}
	for d, v := range vals {
		a.Set(d, Explicit(v, source.Pos{File: "config_db.json", Line: d}))
	}
	b := a
	b.Set(3, Explicit(7, source.Pos{}))
	b.Set(6, Explicit(1000, source.Pos{}))
	for d, v := range vals {
		if got := a.At(d).V; got != int(int32(v)) {
			t.Errorf("DSCP %d = %d, want %d", d, got, int32(v))
		}
	}
	if a.At(6).V != 0 || b.At(3).V != 7 || b.At(6).V != 1000 || b.At(2).V != -128 {
		t.Errorf("the copy's changes reached the original, or were lost: a[6]=%d b[3]=%d b[6]=%d b[2]=%d", a.At(6).V, b.At(3).V, b.At(6).V, b.At(2).V)
	}
}

// A table of 64 lines (SONiC's DSCP_TO_TC_MAP) grows its origins by
// appends, not by a copy of them each time: 8 allocations (the list of
// two, then doubling), not 64.
func TestDSCPMapGrowth(t *testing.T) {
	allocs := testing.AllocsPerRun(10, func() {
		var m DSCPMap
		for d := range 64 {
			m.Set(d, Explicit(d%8, source.Pos{File: "config_db.json", Line: 100 + d}))
		}
	})
	if allocs > 8 {
		t.Errorf("%v allocations for 64 origins, want at most 8 (the list, then doubling)", allocs)
	}
}

// A sealed map's origins are never appended to: its copies, each adding
// an origin of its own, take lists of their own, so that builders running
// side by side can copy one shared map (a Cumulus default-global QoS).
func TestDSCPMapSeal(t *testing.T) {
	var m DSCPMap
	m.Set(0, Defaulted(0, "default table"))
	m.Seal()
	shared := m.o
	before := len(shared.list)
	a, b := m, m
	a.Set(1, Explicit(3, source.Pos{File: "a", Line: 1}))
	b.Set(1, Explicit(5, source.Pos{File: "b", Line: 2}))
	if len(shared.list) != before || a.o == shared || b.o == shared {
		t.Fatalf("a copy appended to the sealed list: %d origins, want %d", len(shared.list), before)
	}
	if got := a.At(1); got.V != 3 || got.Origin.Pos().File != "a" {
		t.Errorf("a's DSCP 1 = %v", got)
	}
	if got := b.At(1); got.V != 5 || got.Origin.Pos().File != "b" {
		t.Errorf("b's DSCP 1 = %v", got)
	}
	if got := m.At(0); got.Origin.Default() != "default table" || a.At(0) != got {
		t.Errorf("the sealed map's DSCP 0 = %v, a's %v", got, a.At(0))
	}
}
