package checks

import (
	"strings"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

// lldpNotCollected is one "not collected" finding per device without
// lldp.json: its links may be missing from the model, so the link checks
// do not guess them.
func lldpNotCollected(f *model.Fabric, what string) []Finding {
	var out []Finding
	// A host of an InfiniBand fabric without RoCE NICs has no Ethernet
	// link for these checks to judge.
	ibOnly := map[string]bool{}
	for _, h := range f.Hosts {
		ibOnly[h.Name] = f.IB != nil && len(h.NICs) == 0
	}
	for _, n := range deviceNames(f) {
		if _, ok := f.LLDPFile[n]; !ok && !ibOnly[n] {
			out = append(out, notCollected(n, []string{layout.LLDPFile + " not collected"}, what))
		}
	}
	return out
}

func deviceNames(f *model.Fabric) []string {
	var out []string
	for _, s := range f.Switches {
		out = append(out, s.Name)
	}
	for _, h := range f.Hosts {
		out = append(out, h.Name)
	}
	return out
}

// linksByEnd indexes f.Links, in their order, by the end Link.End(device)
// returns: a scan of every link per NIC is quadratic on a fabric of
// thousands of NICs (BenchmarkLintTopology).
func linksByEnd(f *model.Fabric) map[[2]string][]*model.Link {
	m := make(map[[2]string][]*model.Link, 2*len(f.Links))
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

func hostByName(f *model.Fabric, name string) *model.Host {
	for _, h := range f.Hosts {
		if h.Name == name {
			return h
		}
	}
	return nil
}

func nicByName(h *model.Host, netdev string) *model.NIC {
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

// switchEnd is a link end on a switch whose configuration was read, with
// the checked port its interface belongs to (the bond of a member).
func switchEnd(f *model.Fabric, e model.LinkEnd) (*model.Switch, string) {
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

// hostNICEnd is a link end on a RoCE NIC of a host.
func hostNICEnd(f *model.Fabric, e model.LinkEnd) (*model.Host, *model.NIC) {
	if e.Kind != layout.KindHost {
		return nil, nil
	}
	h := hostByName(f, e.Device)
	n := nicByName(h, e.Port)
	if n == nil {
		return nil, nil
	}
	return h, n
}

// endName is "device:port", with the bond a switch member belongs to.
func endName(e model.LinkEnd, port string) string {
	if port != "" && port != e.Port {
		return e.Device + ":" + e.Port + " (" + port + ")"
	}
	return e.Device + ":" + e.Port
}

// linkSeen says how the link is known: from both ends, or from one.
func linkSeen(l *model.Link) string {
	var by []string
	for _, p := range l.Evidence() {
		by = append(by, p.String())
	}
	s := "LLDP " + strings.Join(by, ", ")
	if l.OneSided() {
		s += "; seen from one end only"
	}
	return s
}

// linkSource is the first end's LLDP evidence of the link.
func linkSource(l *model.Link) model.Origin {
	ev := l.Evidence()
	if len(ev) == 0 {
		return model.Origin{}
	}
	return model.Origin{Pos: ev[0]}
}

// pfcOn lists the priorities a PFC table has on.
func pfcOn(pfc [8]model.Value[bool]) []int {
	var on []int
	for p, v := range pfc {
		if v.V {
			on = append(on, p)
		}
	}
	return on
}
