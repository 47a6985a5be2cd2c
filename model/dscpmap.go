package model

import (
	"iter"
	"unsafe"
)

// DSCPMap maps the 64 DSCP values to a priority, each entry a Value with
// its origin: a switch's DSCP → switch-priority table, a NIC's dscp2prio.
//
// It is 360 bytes and a few origins, not the 1,536 of 64 Values side by
// side: a table's entries come from a handful of lines (a profile's
// binding, the default table, a dscp2prio line per priority), so each
// entry keeps an index into the table's distinct origins. At
// TestLintScale's size the tables were a tenth of the model. A copy of a
// map shares the origins already there and adds its own apart, so QoS and
// NIC values copy as before: only the map whose address is owner appends
// into the origins' array in place (a copy, at another address, reads
// only the entries it had), any other map first moves them to an array of
// its own.
type DSCPMap struct {
	v       [64]int32
	known   uint64
	at      [64]uint8 // index in origins
	origins []Origin
	// owner is the address of the map that allocated origins' array; a
	// uintptr, so that a copy does not keep the original alive.
	owner uintptr
}

// At is DSCP d's entry; the zero Value (not Known) when d is not 0-63 or
// the entry was never set.
func (m *DSCPMap) At(d int) Value[int] {
	if d < 0 || d > 63 {
		return Value[int]{}
	}
	var o Origin
	if len(m.origins) > 0 {
		o = m.origins[m.at[d]]
	}
	return Value[int]{V: int(m.v[d]), Known: m.known>>d&1 == 1, Origin: o}
}

// Set makes v DSCP d's entry (d 0-63; any other d is ignored).
func (m *DSCPMap) Set(d int, v Value[int]) {
	if d < 0 || d > 63 {
		return
	}
	m.v[d] = int32(v.V)
	if v.Known {
		m.known |= 1 << d
	} else {
		m.known &^= 1 << d
	}
	i := -1
	for j, o := range m.origins {
		if o == v.Origin {
			i = j
			break
		}
	}
	if i < 0 {
		if v.Origin == (Origin{}) {
			// Index 0, the zero origin: an entry never set has it too.
			i = 0
		} else {
			if self := uintptr(unsafe.Pointer(m)); m.owner != self {
				own := make([]Origin, 0, max(8, 2*len(m.origins)))
				if len(m.origins) == 0 {
					own = append(own, Origin{})
				}
				m.origins, m.owner = append(own, m.origins...), self
			}
			i = len(m.origins)
			m.origins = append(m.origins, v.Origin)
		}
	}
	m.at[d] = uint8(i)
}

// All yields each DSCP 0-63 with its entry, in order.
func (m *DSCPMap) All() iter.Seq2[int, Value[int]] {
	return func(yield func(int, Value[int]) bool) {
		for d := range 64 {
			if !yield(d, m.At(d)) {
				return
			}
		}
	}
}
