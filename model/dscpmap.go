package model

import (
	"iter"
	"math"
)

// DSCPMap maps the 64 DSCP values to a priority, each entry a Value with
// its origin: a switch's DSCP → switch-priority table, a NIC's dscp2prio.
//
// It is 160 bytes and a few origins, not the 1,536 of 64 Values side by
// side: a table's entries come from a handful of lines (a profile's
// binding, the default table, a dscp2prio line per priority), so each
// entry keeps an index into the table's distinct origins. At
// TestLintScale's size the tables were a tenth of the model. A priority
// is a byte (0-7, or 0-15 on a switch); a value outside a byte's range,
// which only a malformed input gives, is kept in big, 32 bits wide as
// every value was: with 64 int32 the map was 344 bytes, and a NIC (two a
// host, the map in each) an allocator size class larger.
//
// A copy of a map shares the origins it has and adds its own apart, so
// QoS and NIC values copy as before: the origins are a list the copies
// share, each map using its first n; a map whose n is the list's length
// appends to it in place, any other first takes a list of its own (the
// first n). Two builds alike give maps alike to reflect.DeepEqual.
type DSCPMap struct {
	v     [64]int8 // the priority, or wide: big has it
	known uint64
	at    [64]uint8 // index in origins
	n     int       // origins of o.list that are this map's
	o     *originList
	// big holds the entries whose v is wide. Copies of the map share it,
	// so it is never changed: Set copies it first.
	big *[64]int32
}

// wide marks an entry whose value is not in -127..127.
const wide = math.MinInt8

// originList is the origins maps share; a sealed one is never appended
// to (Seal).
type originList struct {
	list   []Origin
	sealed bool
}

// Seal makes m's origins read-only: a copy that adds an origin first
// takes a list of its own, so that m can be shared by builders running
// side by side (a Cumulus default-global QoS, the same for many
// switches). m itself must not be set again.
func (m *DSCPMap) Seal() {
	if m.o != nil {
		m.o.sealed = true
	}
}

// At is DSCP d's entry; the zero Value (not Known) when d is not 0-63 or
// the entry was never set.
func (m *DSCPMap) At(d int) Value[int] {
	if d < 0 || d > 63 {
		return Value[int]{}
	}
	var o Origin
	if m.n > 0 {
		o = m.o.list[m.at[d]]
	}
	v := int(m.v[d])
	if m.v[d] == wide {
		v = int(m.big[d])
	}
	return Value[int]{V: v, Known: m.known>>d&1 == 1, Origin: o}
}

// Set makes v DSCP d's entry (d 0-63; any other d is ignored).
func (m *DSCPMap) Set(d int, v Value[int]) {
	if d < 0 || d > 63 {
		return
	}
	switch x := int32(v.V); {
	case x > wide && x <= math.MaxInt8:
		m.v[d] = int8(x)
	default:
		big := new([64]int32)
		if m.big != nil {
			*big = *m.big
		}
		big[d] = x
		m.v[d], m.big = wide, big
	}
	if v.Known {
		m.known |= 1 << d
	} else {
		m.known &^= 1 << d
	}
	m.at[d] = m.index(v.Origin)
}

// index is o's place in m's origins, added if new. Index 0 is the zero
// origin, which an entry never set has too.
func (m *DSCPMap) index(o Origin) uint8 {
	if m.n > 0 {
		for i, have := range m.o.list[:m.n] {
			if have == o {
				return uint8(i)
			}
		}
	}
	if o == (Origin{}) {
		return 0
	}
	if m.o == nil || m.n != len(m.o.list) || m.o.sealed {
		// Another map sharing the list added to it (its origins past n
		// are not this map's), or it is sealed. A new list has room for
		// two, what a NIC's table holds (none and its one line): eight
		// were 0.15 kB a host; a longer table doubles it.
		own := &originList{list: make([]Origin, 0, max(2, 2*m.n))}
		if m.n == 0 {
			own.list = append(own.list, Origin{})
		} else {
			own.list = append(own.list, m.o.list[:m.n]...)
		}
		m.o = own
		m.n = len(own.list)
	}
	m.o.list = append(m.o.list, o)
	m.n++
	return uint8(m.n - 1)
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
