package fabric

import (
	"sort"
	"strings"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

// buildPlan resolves topology.dot's nodes to inventory devices. A node is
// a device by its name, or by its first label: ptmd matches the hostname
// and ignores the domain unless told match_hostname=fqdn
// (CumulusNetworks/docs, content/cumulus-linux-510/Monitoring-and-Troubleshooting/
// Network-Troubleshooting/Prescriptive-Topology-Manager-PTM.md,
// "Supported BFD and LLDP Parameters"). A cable with an end outside the
// inventory cannot be compared with LLDP (the links only join inventory
// devices): it is left out, with a note.
func buildPlan(f *model.Fabric, inv *inventory.Inventory, c *collectors.Capture) {
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
	p := &model.Plan{File: t.File, Devices: map[string]bool{}}
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
		l := &model.PlannedLink{A: model.PlanEnd{Device: a, Port: e.A.Port}, B: model.PlanEnd{Device: b, Port: e.B.Port}, Pos: source.Pos{File: t.File, Line: e.Line}}
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
