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

// Maps that share their names answer as before, and a name one of them
// adds is its own.
func TestPortMapShareNames(t *testing.T) {
	mtu := PortMapOf(map[string]int{"swp1": 9216, "swp2": 9000})
	qos := PortMapOf(map[string]string{"swp1": "a", "swp2": "b"})
	other := PortMapOf(map[string]bool{"swp1": true})
	if ShareNames(&other, &qos) || !ShareNames(&mtu, &qos) || &mtu.names[0] != &qos.names[0] {
		t.Fatal("ShareNames shared maps of other names, or not maps of the same")
	}
	mtu.Set("swp2", 1500)
	mtu.Set("swp10", 9216)
	qos.Grow(4)
	qos.Set("swp3", "c")
	if got := slices.Collect(mtu.Names()); !slices.Equal(got, []string{"swp1", "swp10", "swp2"}) || mtu.At("swp2") != 1500 {
		t.Errorf("mtu: %v, swp2 %d", got, mtu.At("swp2"))
	}
	if got := slices.Collect(qos.Names()); !slices.Equal(got, []string{"swp1", "swp2", "swp3"}) || qos.At("swp2") != "b" || qos.Has("swp10") {
		t.Errorf("qos: %v, swp2 %q", got, qos.At("swp2"))
	}
}
