package model

import (
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
