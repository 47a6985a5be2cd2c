package model

import "github.com/qoslint/qoslint/internal/layout"

// ConfiguredSwitches are the switches whose configuration could be read;
// the others are input errors already.
func (f *Fabric) ConfiguredSwitches() []*Switch {
	var out []*Switch
	for _, s := range f.Switches {
		if s.ConfigFile != "" {
			out = append(out, s)
		}
	}
	return out
}

// Host finds a host by name; nil if the fabric has none of that name.
func (f *Fabric) Host(name string) *Host {
	if i := f.lookup(name, false); i >= 0 && f.Hosts[i].Name == name {
		return f.Hosts[i]
	}
	return nil
}

// NIC finds the host's RoCE NIC by netdev; nil on a nil host, so
// f.Host(name).NIC(netdev) needs one check.
func (h *Host) NIC(netdev string) *NIC {
	if h == nil {
		return nil
	}
	for _, n := range h.NICs {
		if n.Netdev == netdev {
			return n
		}
	}
	return nil
}

// DeviceNames are the switches' names, then the hosts', in fabric order.
func (f *Fabric) DeviceNames() []string {
	var out []string
	for _, s := range f.Switches {
		out = append(out, s.Name)
	}
	for _, h := range f.Hosts {
		out = append(out, h.Name)
	}
	return out
}

// LinksByEnd indexes f.Links, in their order, by the end Link.End(device)
// returns ({device, port}): a scan of every link per NIC is quadratic on a
// fabric of thousands of NICs (checks BenchmarkLintTopology).
func (f *Fabric) LinksByEnd() map[[2]string][]*Link {
	m := make(map[[2]string][]*Link, 2*len(f.Links))
	for _, l := range f.Links {
		a := [2]string{l.A.Device, l.A.Port}
		m[a] = append(m[a], l)
		// End on a link with both ends on one device returns A.
		if l.B.Device != l.A.Device {
			b := [2]string{l.B.Device, l.B.Port}
			m[b] = append(m[b], l)
		}
	}
	return m
}

// SwitchEnd is a link end on a switch whose configuration was read, with
// the port its interface belongs to (the bond of a member); nil, "" for
// any other end.
func (f *Fabric) SwitchEnd(e LinkEnd) (*Switch, string) {
	if e.Kind != layout.KindSwitch {
		return nil, ""
	}
	sw := f.SwitchByName(e.Device)
	if sw == nil || sw.ConfigFile == "" {
		return nil, ""
	}
	p := sw.PortOf(e.Port)
	if p == "" {
		return nil, ""
	}
	return sw, p
}

// HostNICEnd is a link end on a RoCE NIC of a host; nil, nil for any
// other end.
func (f *Fabric) HostNICEnd(e LinkEnd) (*Host, *NIC) {
	if e.Kind != layout.KindHost {
		return nil, nil
	}
	h := f.Host(e.Device)
	n := h.NIC(e.Port)
	if n == nil {
		return nil, nil
	}
	return h, n
}

// Source is the link's first LLDP evidence, as an origin (zero when the
// link has none).
func (l *Link) Source() Origin {
	ev := l.Evidence()
	if len(ev) == 0 {
		return Origin{}
	}
	return At(ev[0])
}
