package model

import (
	"testing"
	"unsafe"

	"github.com/qoslint/qoslint/internal/source"
)

// A host's NICs are most of its model (TestHostMemory), and the allocator
// rounds a NIC up to its size class: at 1,480 bytes it took 1,536, two a
// host. Keep it within the 1,280-byte class.
func TestNICSize(t *testing.T) {
	if got := unsafe.Sizeof(NIC{}); got > 1280 {
		t.Errorf("a NIC is %d bytes, want at most 1,280 (the allocator's size class below is 1,152, the one above 1,408)", got)
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
