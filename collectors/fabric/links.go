package fabric

import (
	"cmp"
	"fmt"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/lldp"
	"github.com/qoslint/qoslint/internal/english"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

// linkBuilder resolves the neighbours of every lldp.json into links.
type linkBuilder struct {
	f     *model.Fabric
	kinds map[string]string            // inventory device → kind
	ifs   map[string]map[string]bool   // device → its interfaces, when known
	macs  map[string][2]string         // host MAC → host, ifname
	alias map[string]map[string]string // switch → its ports' LLDP port IDs → port
	links map[[2]string]*model.Link
}

// buildLinks fills f.Links and f.LLDPFile from the captures' lldp.json.
func buildLinks(f *model.Fabric, inv *inventory.Inventory, c *collectors.Capture) {
	b := &linkBuilder{f: f, kinds: map[string]string{}, ifs: map[string]map[string]bool{},
		macs: map[string][2]string{}, alias: map[string]map[string]string{}, links: map[[2]string]*model.Link{}}
	for _, s := range inv.Switches {
		b.kinds[s.Name] = layout.KindSwitch
	}
	for _, h := range inv.Hosts {
		b.kinds[h.Name] = layout.KindHost
	}
	for _, sw := range f.Switches {
		b.ifs[sw.Name] = switchInterfaces(sw)
		if sw.PortAlias != nil {
			b.alias[sw.Name] = sw.PortAlias
		}
	}
	for _, hc := range c.Hosts {
		set := map[string]bool{}
		for _, l := range hc.Links {
			set[l.Name] = true
			if l.LinkType == "ether" && l.MAC != "" && l.MAC != "00:00:00:00:00:00" {
				b.macs[l.MAC] = [2]string{hc.Name, l.Name}
			}
		}
		for _, n := range hc.NICs {
			set[n.Netdev] = true
		}
		b.ifs[hc.Name] = set
	}
	f.LLDPFile = map[string]string{}
	for _, sc := range c.Switches {
		b.device(sc.Name, sc.LLDP)
	}
	for _, hc := range c.Hosts {
		b.device(hc.Name, hc.LLDP)
	}
	for _, l := range b.links {
		f.Links = append(f.Links, l)
	}
	sort.Slice(f.Links, func(i, j int) bool {
		x, y := f.Links[i], f.Links[j]
		return cmp.Or(cmp.Compare(x.A.Device, y.A.Device), cmp.Compare(x.A.Port, y.A.Port),
			cmp.Compare(x.B.Device, y.B.Device), cmp.Compare(x.B.Port, y.B.Port)) < 0
	})
}

func switchInterfaces(sw *model.Switch) map[string]bool {
	set := map[string]bool{}
	for p := range sw.PortQoS.All() {
		set[p] = true
	}
	for p := range sw.MTU.All() {
		set[p] = true
	}
	for _, members := range sw.Bonds {
		for _, m := range members {
			set[m] = true
		}
	}
	for _, p := range sw.ConfigInterfaces() {
		set[p] = true
	}
	return set
}

// device adds the links one device's lldp.json reports.
func (b *linkBuilder) device(name string, n *lldp.Neighbors) {
	if n == nil {
		return
	}
	b.f.LLDPFile[name] = n.File
	var foreign, unresolved []string
	for _, nb := range n.Neighbors {
		pos := source.Pos{File: n.File, Line: nb.Line}
		dev := b.neighbourDevice(nb)
		if dev == "" || dev == name {
			foreign = append(foreign, fmt.Sprintf("%s on %s", neighbourName(nb), nb.Interface))
			continue
		}
		port := b.neighbourPort(dev, nb)
		if port == "" {
			unresolved = append(unresolved, fmt.Sprintf("%s on %s (port ID %s %s, description %q) at line %d",
				dev, nb.Interface, nb.PortIDType, nb.PortID, nb.PortDescr, nb.Line))
			continue
		}
		b.add(model.LinkEnd{Device: name, Kind: b.kinds[name], Port: nb.Interface, Seen: pos},
			model.LinkEnd{Device: dev, Kind: b.kinds[dev], Port: port})
	}
	if len(foreign) > 0 {
		sort.Strings(foreign)
		b.note(name, n.File, "%d LLDP %s, ignored: %s", len(foreign),
			english.Plural(len(foreign), "neighbour is not an inventory device", "neighbours are not inventory devices"), strings.Join(foreign, ", "))
	}
	for _, u := range unresolved {
		// lldpd sends the MAC as port ID and the ifname as description
		// unless `portidsubtype ifname` (lldpd/lldpd src/daemon/interfaces.c);
		// a neighbour whose ID and description name no interface we know
		// is not guessed.
		b.note(name, n.File, "LLDP neighbour %s names no interface of it: link ignored", u)
	}
}

func (b *linkBuilder) note(dev, file, format string, a ...any) {
	e := source.Errorf(file, 0, format, a...)
	e.Device = dev
	b.f.Notes = append(b.f.Notes, e)
}

func neighbourName(nb lldp.Neighbor) string {
	if nb.SysName != "" {
		return nb.SysName
	}
	return nb.ChassisIDType + " " + nb.ChassisID
}

// neighbourDevice is the inventory device a neighbour is: by system name
// (lldpd sends the FQDN when the host has one, so its first label counts
// too), else by a host MAC in its chassis or port ID (ConnectX firmware
// LLDP sends no system name). "" when it is none.
func (b *linkBuilder) neighbourDevice(nb lldp.Neighbor) string {
	if nb.SysName != "" {
		if _, ok := b.kinds[nb.SysName]; ok {
			return nb.SysName
		}
		if first, _, ok := strings.Cut(nb.SysName, "."); ok {
			if _, ok := b.kinds[first]; ok {
				return first
			}
		}
	}
	for _, id := range [][2]string{{nb.PortIDType, nb.PortID}, {nb.ChassisIDType, nb.ChassisID}} {
		if id[0] == "mac" {
			if hm, ok := b.macs[id[1]]; ok {
				return hm[0]
			}
		}
	}
	return ""
}

// neighbourPort is the neighbour's interface: the port ID when it is an
// interface name, else the description when it names an interface of the
// neighbour (lldpd's default for a MAC port ID), else the host interface
// that has the MAC port ID. "" when none of them names one.
func (b *linkBuilder) neighbourPort(dev string, nb lldp.Neighbor) string {
	ifs, known := b.ifs[dev]
	names := func(s string) bool { return s != "" && (!known || ifs[s]) }
	// A SONiC switch advertises its port's alias as a "local" port ID
	// (sonic-net/sonic-buildimage dockers/docker-lldp/lldpmgrd: `lldpcli
	// configure ports <port> lldp portidsubtype local <alias>`).
	if p, ok := b.alias[dev][nb.PortID]; ok && nb.PortIDType != "mac" {
		return p
	}
	switch {
	case nb.PortIDType == "ifname" && names(nb.PortID):
		return nb.PortID
	case nb.PortIDType != "mac" && known && ifs[nb.PortID]:
		return nb.PortID // "local" or "ifalias" that is an interface name
	case known && ifs[nb.PortDescr]:
		return nb.PortDescr
	}
	if nb.PortIDType == "mac" {
		if hm, ok := b.macs[nb.PortID]; ok && hm[0] == dev {
			return hm[1]
		}
	}
	return ""
}

// add records one end's view of a link, merging it with the other end's.
func (b *linkBuilder) add(this, other model.LinkEnd) {
	a, z := this, other
	if cmp.Or(cmp.Compare(a.Device, z.Device), cmp.Compare(a.Port, z.Port)) > 0 {
		a, z = z, a
	}
	key := [2]string{a.Device + "\x00" + a.Port, z.Device + "\x00" + z.Port}
	l, ok := b.links[key]
	if !ok {
		b.links[key] = &model.Link{A: a, B: z}
		return
	}
	// The other end's entry, or a repeat of this one: keep the first
	// evidence of each end.
	for _, e := range []*model.LinkEnd{&l.A, &l.B} {
		if e.Device == this.Device && e.Port == this.Port && e.Seen.IsZero() {
			e.Seen = this.Seen
		}
	}
}
