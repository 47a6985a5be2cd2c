package fabric

import (
	"sync"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/collectors/hostfiles/hostmodel"
	"github.com/qoslint/qoslint/collectors/lldp"
	"github.com/qoslint/qoslint/internal/intern"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

// Builder builds each device's model as soon as its capture is read, in
// the reader's worker, and keeps of the capture only what the steps that
// span devices read (Build's links, rails, InfiniBand and applications).
// The parse trees and file texts of a device then go while the next
// devices are read: at TestLintScale's size, keeping every device's trees
// until the last one was read was most of the lint's peak memory.
//
// Build(inv, c) and a Builder fed every device of c give the same fabric:
// Builder.Build builds whatever device it was not given.
type Builder struct {
	inv   *inventory.Inventory
	roles map[string]inventory.Switch

	mu       sync.Mutex
	switches map[string]builtSwitch
	hosts    map[string]*model.Host
}

type builtSwitch struct {
	sw       *model.Switch
	problems []*source.Error
}

// NewBuilder is a Builder for the devices of inv.
func NewBuilder(inv *inventory.Inventory) *Builder {
	b := &Builder{inv: inv, roles: map[string]inventory.Switch{},
		switches: map[string]builtSwitch{}, hosts: map[string]*model.Host{}}
	for _, s := range inv.Switches {
		b.roles[s.Name] = s
	}
	return b
}

// Switch builds sc's switch and returns the capture to keep in its place;
// sc is then the Builder's: a SONiC switch's configuration database goes
// back for the next one's parse (configdb.Config.Release), as the model
// keeps none of its rows. It is safe to call from several goroutines,
// each with its own device.
func (b *Builder) Switch(sc *collectors.SwitchCapture) *collectors.SwitchCapture {
	sw, problems := buildSwitch(sc, b.roles[sc.Name])
	sc.ConfigDB.Release()
	b.mu.Lock()
	b.switches[sc.Name] = builtSwitch{sw, problems}
	b.mu.Unlock()
	// Links read each device's LLDP; nothing else past buildSwitch reads
	// a switch's capture.
	return &collectors.SwitchCapture{Name: sc.Name, OS: sc.OS, LLDP: sc.LLDP}
}

// Host builds hc's host and returns the capture to keep in its place.
// It is safe to call from several goroutines, each with its own device.
func (b *Builder) Host(hc *collectors.HostCapture) *collectors.HostCapture {
	h := hostmodel.Host(hc)
	b.mu.Lock()
	b.hosts[hc.Name] = h
	b.mu.Unlock()
	// What the steps past the hosts read: links (the Links' names, types
	// and MACs, the NICs' netdevs, LLDP), rails when the policy has them
	// (IBDevs), and on an InfiniBand host (IB) its SL and applications'
	// (the NCCL and UCX layers). An Ethernet host's layers, parse and
	// all, were 1 kB a host kept to the end of collection for nothing.
	keep := &collectors.HostCapture{Name: hc.Name, LLDP: hostLLDP(hc.LLDP), IB: hc.IB}
	if hc.IB != nil {
		keep.NCCL, keep.NCCLHome, keep.NCCLEnv, keep.UCX = hc.NCCL, hc.NCCLHome, hc.NCCLEnv, hc.UCX
	}
	if b.inv.Policy.Rails != nil && hc.IBDevs != nil {
		// Copied: the parser's strings are cut from the file's text.
		keep.IBDevs = make([]hostfiles.IBDev, len(hc.IBDevs))
		for i, d := range hc.IBDevs {
			keep.IBDevs[i] = hostfiles.IBDev{IBDev: intern.String(d.IBDev), Port: d.Port, Netdev: intern.String(d.Netdev), State: intern.String(d.State), Line: d.Line}
		}
	}
	if hc.Links != nil {
		keep.Links = make([]hostfiles.Link, len(hc.Links))
		for i, l := range hc.Links {
			keep.Links[i] = hostfiles.Link{Name: intern.String(l.Name), LinkType: intern.String(l.LinkType), MAC: l.MAC}
		}
	}
	for _, n := range hc.NICs {
		// Interned: the names are cut from ibdev2netdev's text.
		keep.NICs = append(keep.NICs, &collectors.NICCapture{Netdev: intern.String(n.Netdev), IBDev: intern.String(n.IBDev), Port: n.Port})
	}
	return keep
}

// hostLLDP is a host's lldp.json with its names interned: a host's
// neighbours are its switches' ports, which many hosts see alike (their
// names, chassis MACs and port names), so a copy of each per host was a
// tenth of what a host kept past its build. A port ID that is a MAC
// (lldpd's default) is the port's own and stays as it is: interned, it
// would only add to the table.
func hostLLDP(n *lldp.Neighbors) *lldp.Neighbors {
	if n == nil {
		return nil
	}
	out := &lldp.Neighbors{File: n.File, Neighbors: make([]lldp.Neighbor, len(n.Neighbors))}
	c := intern.String
	for i, nb := range n.Neighbors {
		nb.Interface, nb.Via, nb.ChassisIDType, nb.ChassisID = c(nb.Interface), c(nb.Via), c(nb.ChassisIDType), c(nb.ChassisID)
		nb.SysName, nb.PortIDType, nb.PortDescr = c(nb.SysName), c(nb.PortIDType), c(nb.PortDescr)
		if nb.PortIDType != "mac" {
			nb.PortID = c(nb.PortID)
		}
		out.Neighbors[i] = nb
	}
	return out
}

// Build is the fabric of c, with the devices given to Switch and Host
// already built.
func (b *Builder) Build(c *collectors.Capture) *model.Fabric {
	f := &model.Fabric{Name: b.inv.Fabric, Policy: b.inv.Policy}
	for _, sc := range c.Switches {
		b.mu.Lock()
		got, ok := b.switches[sc.Name]
		b.mu.Unlock()
		if !ok {
			got.sw, got.problems = buildSwitch(sc, b.roles[sc.Name])
		}
		for _, p := range got.problems {
			p.Device = sc.Name
		}
		f.Problems = append(f.Problems, got.problems...)
		for _, n := range got.sw.Notes {
			n.Device = sc.Name
		}
		f.Notes = append(f.Notes, got.sw.Notes...)
		f.Switches = append(f.Switches, got.sw)
	}
	for _, hc := range c.Hosts {
		b.mu.Lock()
		h, ok := b.hosts[hc.Name]
		b.mu.Unlock()
		if !ok {
			h = hostmodel.Host(hc)
		}
		for _, n := range h.Notes {
			n.Device = h.Name
		}
		f.Notes = append(f.Notes, h.Notes...)
		f.Hosts = append(f.Hosts, h)
	}
	return spanDevices(f, b.inv, c)
}
