package model

import (
	"sort"
	"strings"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
)

// PlanEnd is one end of a planned cable, on an inventory device.
type PlanEnd struct{ Device, Port string }

func (e PlanEnd) String() string { return e.Device + ":" + e.Port }

// PlannedLink is a cable of the cabling plan (topology.dot), at its line.
type PlannedLink struct {
	A, B PlanEnd
	Pos  source.Pos
}

// Plan is the fabric's cabling plan; nil when it has none.
type Plan struct {
	File  string
	Links []*PlannedLink
	// Devices are the inventory devices the plan cables.
	Devices map[string]bool
}

// BuildPlan resolves topology.dot's nodes to inventory devices. A node is
// a device by its name, or by its first label: ptmd matches the hostname
// and ignores the domain unless told match_hostname=fqdn
// (CumulusNetworks/docs, content/cumulus-linux-510/Monitoring-and-Troubleshooting/
// Network-Troubleshooting/Prescriptive-Topology-Manager-PTM.md,
// "Supported BFD and LLDP Parameters"). A cable with an end outside the
// inventory cannot be compared with LLDP (the links only join inventory
// devices): it is left out, with a note.
func BuildPlan(f *Fabric, inv *inventory.Inventory, c *collectors.Capture) {
	t := c.Topology
	if t == nil {
		return
	}
	known := map[string]bool{}
	for _, s := range inv.Switches {
		known[s.Name] = true
	}
	for _, h := range inv.Hosts {
		known[h.Name] = true
	}
	resolve := func(node string) string {
		if known[node] {
			return node
		}
		if first, _, ok := strings.Cut(node, "."); ok && known[first] {
			return first
		}
		return ""
	}
	p := &Plan{File: t.File, Devices: map[string]bool{}}
	foreign := map[string]bool{}
	for _, e := range t.Edges {
		a, b := resolve(e.A.Node), resolve(e.B.Node)
		if a == "" || b == "" {
			for _, n := range []string{e.A.Node, e.B.Node} {
				if resolve(n) == "" {
					foreign[n] = true
				}
			}
			continue
		}
		l := &PlannedLink{A: PlanEnd{a, e.A.Port}, B: PlanEnd{b, e.B.Port}, Pos: source.Pos{File: t.File, Line: e.Line}}
		if l.B.String() < l.A.String() {
			l.A, l.B = l.B, l.A
		}
		p.Links = append(p.Links, l)
		p.Devices[a], p.Devices[b] = true, true
	}
	if len(foreign) > 0 {
		var names []string
		for n := range foreign {
			names = append(names, n)
		}
		sort.Strings(names)
		f.Notes = append(f.Notes, source.Errorf(t.File, 0, "cables to %s, not inventory devices, are not compared with LLDP", strings.Join(names, ", ")))
	}
	f.Plan = p
}
