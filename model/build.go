package model

import (
	"net/netip"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/inventory"
)

// Build turns a capture into the effective fabric model. Devices come out in
// inventory order, which the inventory keeps as written; reports sort them.
func Build(inv *inventory.Inventory, c *collectors.Capture) *Fabric {
	f := &Fabric{Name: inv.Fabric, Policy: inv.Policy}
	roles := map[string]inventory.Switch{}
	for _, s := range inv.Switches {
		roles[s.Name] = s
	}
	for _, sc := range c.Switches {
		is := roles[sc.Name]
		sw, problems := BuildSwitch(sc.Name, is.Role, sc.Config, sc.RoceShow, is.Ports)
		sw.NotCollected = sc.Missing
		inventoryPlatform(sw, is, is.Pos.File)
		attachTrimShows(sw, sc.PacketTrimShow, sc.RemarkShow)
		notePlatform(sw)
		operPorts(sw, sc.RoceStatus)
		sw.Counters = switchCounters(layout.DeviceFile(sc.Name, layout.GNMIFile), sc.Counters)
		deltaSwitch(sw.Counters, switchCounters("", sc.CountersBefore), sc.CountersInterval)
		for _, p := range problems {
			p.Device = sc.Name
		}
		f.Problems = append(f.Problems, problems...)
		for _, n := range sw.Notes {
			n.Device = sc.Name
		}
		f.Notes = append(f.Notes, sw.Notes...)
		f.Switches = append(f.Switches, sw)
	}
	for _, hc := range c.Hosts {
		h := BuildHost(hc)
		for _, n := range h.Notes {
			n.Device = h.Name
		}
		f.Notes = append(f.Notes, h.Notes...)
		f.Hosts = append(f.Hosts, h)
	}
	f.Wire = c.Wire
	f.HostOfIP = HostIPs(inv)
	buildLinks(f, inv, c)
	buildOutsidePorts(f)
	buildECMPGroups(f, inv)
	buildPlan(f, inv, c)
	buildRails(f, inv, c)
	buildIB(f, inv, c)
	buildK8s(f, inv, c.K8s)
	buildIBApps(f, c)
	f.index()
	return f
}

// SwitchByName finds a switch.
func (f *Fabric) SwitchByName(name string) *Switch {
	if i := f.lookup(name, true); i >= 0 && f.Switches[i].Name == name {
		return f.Switches[i]
	}
	return nil
}

// HostIPs maps the inventory hosts' addresses that are IP literals to
// their names; a host name address maps nothing.
func HostIPs(inv *inventory.Inventory) map[netip.Addr]string {
	m := map[netip.Addr]string{}
	for _, h := range inv.Hosts {
		if a, err := netip.ParseAddr(h.Address); err == nil {
			m[a.Unmap()] = h.Name
		}
	}
	return m
}
