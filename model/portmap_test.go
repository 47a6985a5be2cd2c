package model

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// A PortMap answers as the Go map of the same Sets, in any order, and
// yields its names in byte order.
func TestPortMapAsMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		var pm PortMap[int]
		m := map[string]int{}
		for i := range 1 + r.IntN(300) {
			name := "swp" + strconv.Itoa(r.IntN(64))
			if r.IntN(3) == 0 {
				name = "Ethernet" + strconv.Itoa(4*r.IntN(64))
			}
			pm.Set(name, i)
			m[name] = i
		}
		if pm.Len() != len(m) {
			t.Fatalf("round %d: Len %d, want %d", round, pm.Len(), len(m))
		}
		for name, v := range m {
			if got, ok := pm.Get(name); !ok || got != v || pm.At(name) != v || !pm.Has(name) {
				t.Fatalf("round %d: %s = %d %v, want %d", round, name, got, ok, v)
			}
		}
		for _, absent := range []string{"", "swp64", "swp", "Ethernet1", "zz"} {
			if _, ok := pm.Get(absent); ok || pm.At(absent) != 0 || pm.Has(absent) {
				t.Fatalf("round %d: %q has a value", round, absent)
			}
		}
		if got, want := slices.Collect(pm.Names()), slices.Sorted(maps.Keys(m)); !slices.Equal(got, want) {
			t.Fatalf("round %d: names %v, want %v", round, got, want)
		}
		for name, v := range pm.All() {
			if m[name] != v {
				t.Fatalf("round %d: All yields %s %d, want %d", round, name, v, m[name])
			}
		}
	}
}

// A builder that grows the map to its switch's ports first sets them
// without growing it again, and PortMapOf holds what its map holds.
func TestPortMapGrow(t *testing.T) {
	var names []string
	for i := range 64 {
		names = append(names, "swp"+strconv.Itoa(64-i))
	}
	var pm PortMap[Value[int]]
	pm.Grow(len(names))
	allocs := testing.AllocsPerRun(1, func() {
		for i, n := range names {
			pm.Set(n, Value[int]{V: i})
		}
	})
	if allocs != 0 || pm.Len() != 64 {
		t.Errorf("%v allocations for %d ports made room for", allocs, pm.Len())
	}
	of := PortMapOf(map[string]int{"swp2": 2, "swp10": 10})
	if of.Len() != 2 || of.At("swp2") != 2 || of.At("swp10") != 10 {
		t.Errorf("PortMapOf: %v", slices.Collect(of.Names()))
	}
}
