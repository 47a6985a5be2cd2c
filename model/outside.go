package model

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// A switch's checked ports are the inventory's `ports` list when it has
// one. A RoCE NIC cabled (per LLDP) into a port outside that list still
// depends on the port's QoS, so the port gets its effective QoS and MTU
// from its own bindings, as a checked port would, and the link checks
// judge it. It does not join Switch.Ports: the switch checks, which judge
// Ports, would report the port again, and the inventory is what says
// which ports the operator audits; the note and link-qos's finding tell
// them to add it.

// ConfigInterfaces are every interface the configuration names, so that
// LLDP from a host resolves a port outside the checked ones; the switch's
// builder says which (ConfigPorts.Interfaces).
func (sw *Switch) ConfigInterfaces() []string {
	if sw.outside == nil {
		return nil
	}
	return sw.outside.Interfaces()
}

// addOutsidePort gives an interface outside the checked ports its QoS and
// MTU: the bond's for a bond member (NVUE applies QoS on the bond, whose
// members inherit it), the port's own for a front-panel or split port. It
// returns the port given QoS, "" when the interface is none of those (a
// breakout parent, a subinterface), and the input problems the bindings
// raise (a profile bound but not defined). The switch's builder reads the
// bindings (ConfigPorts.AddPort).
func (sw *Switch) addOutsidePort(iface string) (string, []*source.Error) {
	if sw.outside == nil {
		return "", nil
	}
	return sw.outside.AddPort(sw, iface)
}

// BuildOutsidePorts gives QoS to the switch ports outside the inventory's
// lists that RoCE NICs plug into, then drops the builders the switches
// kept for it (a configuration tree per switch).
func BuildOutsidePorts(f *Fabric) {
	nics := map[[2]string]bool{}
	for _, h := range f.Hosts {
		for _, n := range h.NICs {
			nics[[2]string{h.Name, n.Netdev}] = true
		}
	}
	plugged := map[*Switch][]string{}
	for _, l := range f.Links {
		for _, pair := range [][2]LinkEnd{{l.A, l.B}, {l.B, l.A}} {
			h, e := pair[0], pair[1]
			if h.Kind != layout.KindHost || e.Kind != layout.KindSwitch || !nics[[2]string{h.Device, h.Port}] {
				continue
			}
			sw := f.SwitchByName(e.Device)
			if sw == nil || sw.ConfigFile == "" || sw.PortOf(e.Port) != "" {
				continue
			}
			port, problems := sw.addOutsidePort(e.Port)
			for _, p := range problems {
				p.Device = sw.Name
			}
			f.Problems = append(f.Problems, problems...)
			if port != "" {
				plugged[sw] = append(plugged[sw], fmt.Sprintf("%s (%s %s)", endLabel(e.Port, port), h.Device, h.Port))
			}
		}
	}
	for _, sw := range f.Switches {
		sw.outside = nil
		if len(plugged[sw]) == 0 {
			continue
		}
		SortNames(sw.Outside)
		SortNames(plugged[sw])
		noteOn(f, sw.Name, sw.ConfigFile, "RoCE NICs plug into ports outside the inventory's ports list, judged by the link checks only (add them to ports to have every switch check judge them): %s",
			strings.Join(plugged[sw], ", "))
	}
}

func endLabel(iface, port string) string {
	if iface == port {
		return iface
	}
	return iface + " of " + port
}

// IsOutside reports whether a port has QoS only because a RoCE NIC plugs
// into it from outside the inventory's ports list.
func (sw *Switch) IsOutside(port string) bool {
	for _, p := range sw.Outside {
		if p == port {
			return true
		}
	}
	return false
}
