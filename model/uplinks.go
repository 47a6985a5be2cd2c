package model

import (
	"fmt"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
)

// ECMPGroup is the set of ports a switch spreads its fabric traffic over:
// the ports adaptive routing must cover alike. NVIDIA asks for adaptive
// routing "on all the ports that are part of the same ECMP route"
// (CumulusNetworks/docs content/cumulus-linux-515/Layer-3/Routing/
// Equal-Cost-Multipath-Load-Sharing.md); which ports those are is a matter
// of cabling, so the group is read from the LLDP links when the switch has
// them.
type ECMPGroup struct {
	// Ports are the checked ports of the group, in natural order.
	Ports []string
	// FromLLDP is true when Ports are the switch's LLDP links towards
	// Toward; false when they are the routed-port approximation (ARPorts).
	FromLLDP bool
	// Toward is the role the links lead to ("spine" for a leaf's uplinks,
	// "leaf" for the downlinks of a top-tier spine); "" when not FromLLDP.
	Toward string
	// Why the approximation stands in for the LLDP group; "" when FromLLDP.
	Why string
}

// Describe names the group for a finding: "uplinks to the spines", "links
// to the leaves" or "routed ports".
func (g ECMPGroup) Describe() string {
	switch {
	case !g.FromLLDP:
		return "routed ports"
	case g.Toward == roleLeaf:
		return "links to the leaves"
	}
	return "uplinks to the " + g.Toward + "s"
}

const (
	roleLeaf       = "leaf"
	roleBorder     = "border"
	roleSpine      = "spine"
	roleSuperSpine = "super-spine"
)

// tier orders the inventory roles from the hosts up. A border leaf sits
// at the leaf tier: it takes the spines as its next hops towards the rest
// of the fabric like any leaf, and its external peers are no inventory
// devices. NVIDIA's ECMP page names no tiers at all, so this order is the
// inventory's (leaf, spine, super-spine, border), not a documented one.
func tier(role string) int {
	switch role {
	case roleLeaf, roleBorder:
		return 1
	case roleSpine:
		return 2
	case roleSuperSpine:
		return 3
	}
	return 0
}

// BuildECMPGroups fills each switch's ECMPGroup once links are built.
func BuildECMPGroups(f *Fabric, inv *inventory.Inventory) {
	roles := map[string]string{}
	top := 0
	for _, s := range inv.Switches {
		roles[s.Name] = s.Role
		top = max(top, tier(s.Role))
	}
	for _, sw := range f.Switches {
		if sw.ConfigFile == "" {
			continue
		}
		sw.ECMPGroup = ecmpGroup(f, sw, roles, top)
		if !sw.ECMPGroup.FromLLDP && sw.ConfiguresAR() {
			approx := "no routed port is found either, so adaptive routing is judged on the switch setting alone"
			if len(sw.ARPorts) > 0 {
				approx = "its routed ports " + CompressNames(sw.ARPorts) + " stand in for it"
			}
			noteOn(f, sw.Name, sw.ConfigFile, "ECMP group for adaptive routing not known from LLDP (%s): %s", sw.ECMPGroup.Why, approx)
		}
	}
}

// ecmpGroup is a switch's links to the next tier up; for a switch of the
// top tier of the inventory, its links to the tier below, which are its
// ECMP group from one leaf towards another. Without the switch's own
// lldp.json, or without such links, it is the routed-port approximation.
func ecmpGroup(f *Fabric, sw *Switch, roles map[string]string, top int) ECMPGroup {
	fallback := ECMPGroup{Ports: sw.ARPorts}
	if _, ok := f.LLDPFile[sw.Name]; !ok {
		// Its neighbours' lldp.json may name some of its links, but only
		// its own lists all of them.
		fallback.Why = layout.LLDPFile + " not collected"
		return fallback
	}
	t := tier(sw.Role)
	byTier := map[int][]LinkEnd{}
	for _, l := range f.LinksOf(sw.Name) {
		this, other, ok := l.End(sw.Name)
		if !ok || other.Kind != layout.KindSwitch || tier(roles[other.Device]) == 0 {
			continue
		}
		byTier[tier(roles[other.Device])] = append(byTier[tier(roles[other.Device])], this)
	}
	want := groupTier(t, top, byTier)
	if want == 0 {
		fallback.Why = "LLDP shows no link to a " + nextTierName(t, top)
		return fallback
	}
	ports := groupPorts(f, sw, byTier[want])
	if len(ports) == 0 {
		fallback.Why = fmt.Sprintf("its LLDP links to a %s are on no port it can route adaptively", tierName(want))
		return fallback
	}
	return ECMPGroup{Ports: ports, FromLLDP: true, Toward: tierName(want)}
}

// groupTier is the tier a switch of tier t takes its ECMP group towards,
// among the tiers it has links to: the next one up, or for a switch of the
// top tier the next one down; 0 when it has links to neither.
func groupTier[E any](t, top int, byTier map[int][]E) int {
	want := 0
	for ot := range byTier {
		if ot > t && (want == 0 || ot < want) {
			want = ot
		}
	}
	if want == 0 && t == top {
		for ot := range byTier {
			if ot < t && ot > want {
				want = ot
			}
		}
	}
	return want
}

// CablingGroup is the ECMP group of a switch from its cabling alone, for
// a switch whose configuration is still to be written (qoslint render):
// its front-panel ports cabled to the tier its ECMP group leads to, from
// its own lldp.json when collected, else from the cabling plan
// (topology.dot). from names the file the ports come from; ports is empty
// when neither names such a link. Split and bond membership are those of
// the ports as cabled: a bond member is no port of the group, but a switch
// without configuration has no bonds to tell.
func CablingGroup(f *Fabric, inv *inventory.Inventory, name string) (g ECMPGroup, from string) {
	roles := map[string]string{}
	top := 0
	for _, s := range inv.Switches {
		roles[s.Name] = s.Role
		top = max(top, tier(s.Role))
	}
	byTier := map[int][]string{}
	add := func(port, other string) {
		if ot := tier(roles[other]); ot > 0 && IsFrontPanel(port) {
			byTier[ot] = append(byTier[ot], port)
		}
	}
	file, lldp := f.LLDPFile[name]
	if lldp {
		from = file
		for _, l := range f.LinksOf(name) {
			if this, other, ok := l.End(name); ok && other.Kind == layout.KindSwitch {
				add(this.Port, other.Device)
			}
		}
	} else if f.Plan != nil {
		from = f.Plan.File
		for _, l := range f.Plan.Links {
			switch name {
			case l.A.Device:
				add(l.A.Port, l.B.Device)
			case l.B.Device:
				add(l.B.Port, l.A.Device)
			}
		}
	}
	want := groupTier(tier(roles[name]), top, byTier)
	if want == 0 {
		return ECMPGroup{}, from
	}
	ports := byTier[want]
	SortNames(ports)
	return ECMPGroup{Ports: dedup(ports), FromLLDP: lldp, Toward: tierName(want)}, from
}

// groupPorts are the checked ports of a switch's link ends. A bond member
// is left out with a note: Cumulus Linux does not support adaptive routing
// on bonds or bond members (NVUE command reference, nv set interface
// <interface-id> router adaptive-routing state), and the bond hashes its
// members itself.
func groupPorts(f *Fabric, sw *Switch, ends []LinkEnd) []string {
	var ports, members, unchecked []string
	for _, e := range ends {
		switch p := sw.PortOf(e.Port); {
		case p == e.Port && IsFrontPanel(p):
			ports = append(ports, p)
		case p != "":
			members = append(members, e.Port+" ("+p+")")
		default:
			unchecked = append(unchecked, e.Port)
		}
	}
	if len(members) > 0 && sw.ConfiguresAR() {
		sort.Strings(members)
		noteOn(f, sw.Name, f.LLDPFile[sw.Name], "fabric links on bond members, not judged for adaptive routing (not supported on bonds): %s", strings.Join(members, ", "))
	}
	if len(unchecked) > 0 && sw.ConfiguresAR() {
		SortNames(unchecked)
		noteOn(f, sw.Name, f.LLDPFile[sw.Name], "fabric links on ports not checked, not judged for adaptive routing: %s", CompressNames(unchecked))
	}
	SortNames(ports)
	return dedup(ports)
}

func noteOn(f *Fabric, dev, file, format string, a ...any) {
	e := source.Errorf(file, 0, format, a...)
	e.Device = dev
	f.Notes = append(f.Notes, e)
}

func dedup(sorted []string) []string {
	var out []string
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}

func tierName(t int) string {
	return map[int]string{1: roleLeaf, 2: roleSpine, 3: roleSuperSpine}[t]
}

// nextTierName is what a switch of tier t takes its ECMP group towards.
func nextTierName(t, top int) string {
	switch {
	case t >= top && t > 1:
		return tierName(t-1) + " (it is of the top tier)"
	case t >= top:
		return "spine (the inventory has none)"
	}
	return tierName(t+1) + " or above"
}

// Tier is the tier of an inventory switch role from the hosts up (leaf and
// border 1, spine 2, super-spine 3), 0 for a role it does not rank: the
// order the ECMP groups and the HTML report's topology view share.
func Tier(role string) int { return tier(role) }
