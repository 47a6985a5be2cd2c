package model

import (
	"net/netip"
)

// names indexes a fabric's devices by name. Lookups by name run once per
// device × check (the runner asks every check whether it judges every
// device), so a scan per lookup made a lint of N devices quadratic
// (TestLintScale). The index is rebuilt whenever the slices it was built
// from are not the fabric's own any more (appended to, replaced), and a
// hit is checked against the slice itself; what it cannot see is a device
// renamed in place after a lookup, which nothing does (devices are named
// by the inventory, before Build returns).
//
// Build indexes the fabric it returns, so that lookups only read; a
// rebuild (a test that replaced a slice) swaps in a new index, never
// edits one another copy of the Fabric may share.
type names struct {
	switches map[string]int
	hosts    map[string]int
	sw       []*Switch // the slices the maps index
	h        []*Host
}

func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// lookup returns the index of name in the switches (sw) or hosts.
func (f *Fabric) lookup(name string, sw bool) int {
	n := f.names
	if n == nil || !sameSlice(n.sw, f.Switches) || !sameSlice(n.h, f.Hosts) {
		n = f.index()
	}
	m := n.hosts
	if sw {
		m = n.switches
	}
	i, ok := m[name]
	if !ok {
		return -1
	}
	return i
}

// index builds the name index of the fabric's devices as they are now.
func (f *Fabric) index() *names {
	n := &names{switches: make(map[string]int, len(f.Switches)), hosts: make(map[string]int, len(f.Hosts)), sw: f.Switches, h: f.Hosts}
	for i, s := range f.Switches {
		n.switches[s.Name] = i
	}
	for i, h := range f.Hosts {
		n.hosts[h.Name] = i
	}
	f.names = n
	return n
}

// wireIndex is the set of devices whose traffic a capture holds, for the
// wire checks' "does this device appear on the wire" (asked once per
// device × wire check); rebuilt when Wire is not the slice it was built
// from.
type wireIndex struct {
	from    []*WireCapture
	devices map[string]bool
}

// OnWire reports whether a capture holds device's traffic: a capture taken
// on it, or a flow from or to its address (HostOfIP).
func (f *Fabric) OnWire(device string) bool {
	w := f.wire
	if w == nil || !sameSlice(w.from, f.Wire) {
		w = &wireIndex{from: f.Wire, devices: map[string]bool{}}
		for _, s := range f.Wire {
			w.devices[s.Device] = true
			for _, fl := range s.Flows {
				for _, ip := range []netip.Addr{fl.Src, fl.Dst} {
					if h, ok := f.HostOfIP[ip.Unmap()]; ok {
						w.devices[h] = true
					}
				}
			}
		}
		f.wire = w
	}
	return w.devices[device]
}

// linkIndex is each device's links, in Links order, for the questions
// asked once per device ("this switch's uplinks", "this host's leaves"):
// a scan of every link per device made a lint of N devices quadratic
// (TestLintScale at 10,496 devices: a tenth of the lint). Rebuilt when
// Links is not the slice it was built from.
type linkIndex struct {
	from []*Link
	by   map[string][]*Link
}

func (f *Fabric) linkIndex() *linkIndex {
	x := &linkIndex{from: f.Links, by: map[string][]*Link{}}
	for _, l := range f.Links {
		x.by[l.A.Device] = append(x.by[l.A.Device], l)
		if l.B.Device != l.A.Device {
			x.by[l.B.Device] = append(x.by[l.B.Device], l)
		}
	}
	f.links = x
	return x
}

// LinksOf are the links with an end on dev (l.End(dev) is ok), in Links
// order. The slice is the index's: read only.
func (f *Fabric) LinksOf(dev string) []*Link {
	x := f.links
	if x == nil || !sameSlice(x.from, f.Links) {
		x = f.linkIndex()
	}
	return x.by[dev]
}

// Index builds the name and link indexes now, so that the lookups of the
// checks, which may run side by side, only read them. The builder of a
// fabric calls it last.
func (f *Fabric) Index() { f.index(); f.linkIndex() }

// SwitchByName finds a switch.
func (f *Fabric) SwitchByName(name string) *Switch {
	if i := f.lookup(name, true); i >= 0 && f.Switches[i].Name == name {
		return f.Switches[i]
	}
	return nil
}
