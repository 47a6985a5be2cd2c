package model

import (
	"iter"
	"slices"
	"sort"
)

// PortMap maps a switch's interfaces to a value each: its ports' MTUs,
// QoS and PFC watchdog. It is the names in byte order beside their values,
// found by binary search: a Go map of a switch's 32 to 256 ports holds
// twice the slots it fills (a swiss table grows by doubling), and three of
// them per switch were a quarter of a Cumulus switch's model at
// TestLintScale's size. The zero PortMap is empty and ready to use.
type PortMap[V any] struct {
	names []string
	vals  []V
	// shared says names is another map's too (ShareNames): a new name
	// copies it first.
	shared bool
}

// PortMapOf is a PortMap of m's entries (tests and fixtures).
func PortMapOf[V any](m map[string]V) PortMap[V] {
	var out PortMap[V]
	out.Grow(len(m))
	for k, v := range m {
		out.Set(k, v)
	}
	return out
}

func (m *PortMap[V]) find(name string) (int, bool) {
	return sort.Find(len(m.names), func(i int) int {
		switch {
		case name < m.names[i]:
			return -1
		case name > m.names[i]:
			return 1
		}
		return 0
	})
}

// Get is name's value, and whether it has one.
func (m *PortMap[V]) Get(name string) (V, bool) {
	if i, ok := m.find(name); ok {
		return m.vals[i], true
	}
	var zero V
	return zero, false
}

// At is name's value, the zero V when it has none (as a Go map's index).
func (m *PortMap[V]) At(name string) V {
	v, _ := m.Get(name)
	return v
}

// Has reports whether name has a value.
func (m *PortMap[V]) Has(name string) bool {
	_, ok := m.find(name)
	return ok
}

// Set gives name the value v.
func (m *PortMap[V]) Set(name string, v V) {
	i, ok := m.find(name)
	if ok {
		m.vals[i] = v
		return
	}
	if m.shared {
		m.names, m.shared = slices.Clone(m.names), false
	}
	m.names = slices.Insert(m.names, i, name)
	m.vals = slices.Insert(m.vals, i, v)
}

// ShareNames makes m and o hold one slice of their names when they have
// the same: a switch's MTU, QoS and watchdog are most often set on the
// same ports. It reports whether they do.
func ShareNames[V, W any](m *PortMap[V], o *PortMap[W]) bool {
	if len(m.names) == 0 || !slices.Equal(m.names, o.names) {
		return false
	}
	if &m.names[0] != &o.names[0] {
		m.names = o.names
	}
	m.shared, o.shared = true, true
	return true
}

// Grow makes room for n more names without growing again: a builder that
// knows its switch's ports sets them in place.
func (m *PortMap[V]) Grow(n int) {
	if m.shared && n > 0 {
		m.names, m.shared = slices.Clone(m.names), false
	}
	m.names = slices.Grow(m.names, n)
	m.vals = slices.Grow(m.vals, n)
}

// Len is the number of names with a value.
func (m *PortMap[V]) Len() int { return len(m.names) }

// All yields each name and its value, in byte order of the names.
func (m *PortMap[V]) All() iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		for i, n := range m.names {
			if !yield(n, m.vals[i]) {
				return
			}
		}
	}
}

// Names yields the names with a value, in byte order.
func (m *PortMap[V]) Names() iter.Seq[string] { return slices.Values(m.names) }
