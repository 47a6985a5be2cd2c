package model

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/qoslint/qoslint/internal/source"
)

// A host's NICs are most of its model (TestHostMemory), and the allocator
// rounds a NIC up to its size class: at 1,480 bytes it took 1,536, two a
// host. Keep it within the 896-byte class.
func TestNICSize(t *testing.T) {
	if got := unsafe.Sizeof(NIC{}); got > 896 {
		t.Errorf("a NIC is %d bytes, want at most 896 (the allocator's size class below is 768, the one above 1,024)", got)
	}
}

// Each priority's flag comes back as it was set, with its own origin;
// setting one again replaces it; a priority outside 0-7 is not Known.
func TestPrioFlags(t *testing.T) {
	at := func(p int) Origin {
		return At(source.Pos{File: "devices/gpu01/sysfs/class/net/eth0/ecn/roce_np/enable/" + string(rune('0'+p)), Line: 1})
	}
	var f PrioFlags
	for p := range 8 {
		f.Set(p, Value[bool]{V: p%2 == 1, Known: p != 5, Origin: at(p)})
	}
	f.Set(3, Value[bool]{V: false, Known: true, Origin: at(3)})
	f.Set(8, Value[bool]{V: true, Known: true})
	for p := range 8 {
		want := Value[bool]{V: p%2 == 1 && p != 3, Known: p != 5, Origin: at(p)}
		if got := f.At(p); got != want {
			t.Errorf("priority %d: %+v, want %+v", p, got, want)
		}
	}
	if f.At(8).Known || f.At(-1).Known {
		t.Error("a priority outside 0-7 is Known")
	}
}

// A PFC row is eight Values with one origin; the zero row is not Known.
func TestPFCRow(t *testing.T) {
	at := At(source.Pos{File: "devices/gpu01/mlnx_qos-eth0.txt", Line: 14})
	r := NewPFCRow([8]bool{3: true, 4: true}, at)
	all := r.All()
	for p, v := range all {
		if want := p == 3 || p == 4; v != (Value[bool]{V: want, Known: true, Origin: at}) || r.At(p) != v {
			t.Errorf("priority %d: %+v, want %v at line 14", p, v, want)
		}
	}
	if r.At(8).Known || r.At(-1).Known || (PFCRow{}).At(3).Known {
		t.Error("a priority outside 0-7, or the zero row, is Known")
	}
}

// A traffic class's algorithm comes back as it was set, with its origin;
// a name other than mlnx_qos's four is kept too; a class never set, or
// outside 0-7, is not Known.
func TestTSAs(t *testing.T) {
	at := func(line int) Origin { return At(source.Pos{File: "devices/gpu01/mlnx_qos-eth0.txt", Line: line}) }
	var s TSAs
	s.Set(0, Explicit("vendor", source.Pos{File: "devices/gpu01/mlnx_qos-eth0.txt", Line: 20}))
	s.Set(3, Value[string]{V: "ets", Known: true, Origin: at(22)})
	s.Set(5, Value[string]{V: "cbs", Known: true, Origin: at(24)})
	s.Set(8, Value[string]{V: "ets", Known: true})
	for tc, want := range map[int]Value[string]{
		0: {V: "vendor", Known: true, Origin: at(20)}, 3: {V: "ets", Known: true, Origin: at(22)},
		5: {V: "cbs", Known: true, Origin: at(24)}, 1: {}, 8: {}, -1: {},
	} {
		if got := s.At(tc); got != want {
			t.Errorf("traffic class %d: %+v, want %+v", tc, got, want)
		}
	}
}

// GID types come back in index order whatever order they were added in,
// each index once (the last added), with their origins; an empty list is
// collected, nil is not.
func TestGIDTypes(t *testing.T) {
	at := func(i int) Origin {
		return At(source.Pos{File: "devices/gpu01/sysfs/class/infiniband/mlx5_0/ports/1/gid_attrs/types/" + string(rune('0'+i)), Line: 1})
	}
	g := NewGIDTypes(0)
	if g == nil {
		t.Fatal("NewGIDTypes(0) is nil: not collected")
	}
	g.Add(3, Value[string]{V: RoCEv2, Known: true, Origin: at(3)})
	g.Add(0, Value[string]{V: "IB", Known: true, Origin: at(0)})
	g.Add(2, Value[string]{V: RoCEv1, Known: true, Origin: at(2)})
	g.Add(0, Value[string]{V: RoCEv1, Known: true, Origin: at(0)})
	g.Add(5, Value[string]{Origin: at(5)})
	g.Add(70000, Value[string]{V: RoCEv2, Known: true})
	var got []string
	for i, v := range g.All() {
		if v.Origin != at(i) {
			t.Errorf("entry %d at %v, want its own file", i, v.Origin)
		}
		got = append(got, fmt.Sprintf("%d:%s:%v", i, v.V, v.Known))
	}
	if want := "0:IB/RoCE v1:true 2:IB/RoCE v1:true 3:RoCE v2:true 5::false"; strings.Join(got, " ") != want {
		t.Errorf("entries %q, want %q", strings.Join(got, " "), want)
	}
	if v, ok := g.At(3); !ok || v.V != RoCEv2 {
		t.Errorf("At(3) = %+v, %v", v, ok)
	}
	if _, ok := g.At(1); ok {
		t.Error("At(1) found an entry never added")
	}
	var other GIDTypes
	other.Add(1, Value[string]{V: "RoCE v3", Known: true})
	if v, _ := other.At(1); v.V != "RoCE v3" {
		t.Errorf("a type other than the kernel's two comes back as %q", v.V)
	}
}
