package model

import (
	"slices"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// LinkEnd is one end of a cable: a device's interface as that device names
// it (on a switch a bond member is the physical port; Switch.PortOf gives
// the bond the QoS is bound on).
type LinkEnd struct {
	Device, Kind, Port string
	// Seen is the neighbour entry of this end's lldp.json that names the
	// other end; zero when this end's LLDP did not report the link.
	Seen source.Pos
}

// Link is a cable between two inventory devices, as LLDP reported it.
type Link struct {
	// A sorts before B (device, then port).
	A, B LinkEnd
}

// OneSided reports whether only one end's LLDP reported the link (the
// other end has no lldp.json, or its lldpd did not see this neighbour).
func (l *Link) OneSided() bool { return l.A.Seen.IsZero() || l.B.Seen.IsZero() }

// Evidence is where the link was seen, from each end that saw it.
func (l *Link) Evidence() []source.Pos {
	var out []source.Pos
	for _, e := range []LinkEnd{l.A, l.B} {
		if !e.Seen.IsZero() {
			out = append(out, e.Seen)
		}
	}
	return out
}

// End returns the end on device dev and the other one; ok is false when
// neither end is on dev.
func (l *Link) End(dev string) (this, other LinkEnd, ok bool) {
	switch dev {
	case l.A.Device:
		return l.A, l.B, true
	case l.B.Device:
		return l.B, l.A, true
	}
	return LinkEnd{}, LinkEnd{}, false
}

func (l *Link) String() string {
	return l.A.Device + ":" + l.A.Port + " - " + l.B.Device + ":" + l.B.Port
}

// PortOf is the checked port an interface belongs to: the bond of a bond
// member, else the interface itself; "" when it is no checked port.
func (s *Switch) PortOf(iface string) string {
	if _, ok := s.PortQoS.Get(iface); ok {
		return iface
	}
	for bond, members := range s.Bonds {
		if slices.Contains(members, iface) {
			if _, ok := s.PortQoS.Get(bond); ok {
				return bond
			}
		}
	}
	return ""
}

// EndMTU is the MTU in effect at one end of a link, as link-mtu judges it:
// a switch end's checked port (the bond of a member: "the member links or
// slave interfaces inherit the configured value", Cumulus
// Switch-Port-Attributes) on a switch whose configuration was read, or a
// host end's RoCE NIC. port is the checked switch port, "" on a host; ok
// is false when the end is neither (its MTU is nobody's to judge).
func (f *Fabric) EndMTU(e LinkEnd) (v Value[int], port string, ok bool) {
	switch e.Kind {
	case layout.KindSwitch:
		sw := f.SwitchByName(e.Device)
		if sw == nil || sw.ConfigFile == "" {
			return Value[int]{}, "", false
		}
		if p := sw.PortOf(e.Port); p != "" {
			return sw.MTU.At(p), p, true
		}
	case layout.KindHost:
		// By the name index: asked for each end of each link.
		if n := f.Host(e.Device).NIC(e.Port); n != nil {
			return n.MTU, "", true
		}
	}
	return Value[int]{}, "", false
}
