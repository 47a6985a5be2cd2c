package drift

import (
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/model/snapshot"
)

// portChanges merges the same change found on several ports into one
// change on their range, so that a port group's drift reads as one line.
type portChanges struct {
	keys  []string
	by    map[string]*Change
	ports map[string][]string
}

func newPortChanges() *portChanges {
	return &portChanges{by: map[string]*Change{}, ports: map[string][]string{}}
}

func (pc *portChanges) add(c Change, ports []string) {
	k := c.Field + "\x00" + c.Before + "\x00" + c.After + "\x00" + c.BeforeOrigin + "\x00" + c.AfterOrigin + "\x00" + c.Effect
	if _, ok := pc.by[k]; !ok {
		pc.keys = append(pc.keys, k)
		cc := c
		pc.by[k] = &cc
	}
	pc.ports[k] = append(pc.ports[k], ports...)
}

func (pc *portChanges) changes() []Change {
	out := make([]Change, 0, len(pc.keys))
	for _, k := range pc.keys {
		c := *pc.by[k]
		c.Interface = model.CompressNames(pc.ports[k])
		out = append(out, c)
	}
	return out
}

// switchPorts indexes a switch's ports: which group each is in, in port
// order, and its own MTU and adaptive routing. A switch whose configuration
// names no port has the one pseudo-port "".
type switchPorts struct {
	order []string
	group map[string]int
	mtu   map[string]*snapshot.PortValue[int]
	ar    map[string]*snapshot.PortValue[bool]
	sw    *snapshot.Switch
	r     *policyRules
	flow  *flowIndex
}

func indexPorts(sw *snapshot.Switch, r *policyRules) *switchPorts {
	sp := &switchPorts{group: map[string]int{}, mtu: map[string]*snapshot.PortValue[int]{}, ar: map[string]*snapshot.PortValue[bool]{}, sw: sw, r: r, flow: indexFlow(sw.Flow)}
	for i := range sw.PortGroups {
		for _, p := range expand(sw.PortGroups[i].Ports) {
			if _, dup := sp.group[p]; !dup {
				sp.group[p] = i
				sp.order = append(sp.order, p)
			}
		}
	}
	model.SortNames(sp.order)
	for i := range sw.MTU {
		for _, p := range expand(sw.MTU[i].Ports) {
			sp.mtu[p] = &sw.MTU[i]
		}
	}
	for i := range sw.PortAdaptiveRouting {
		for _, p := range expand(sw.PortAdaptiveRouting[i].Ports) {
			sp.ar[p] = &sw.PortAdaptiveRouting[i]
		}
	}
	return sp
}

// expand reads a port range; Read has checked it, a bad one stands for
// itself.
func expand(spec string) []string {
	if spec == "" {
		return []string{""}
	}
	names, err := model.ExpandNames(spec)
	if err != nil {
		return []string{spec}
	}
	return names
}

// fieldOrder numbers fields as they are first met, which is the
// snapshot's field order and the order of a device's changes.
type fieldOrder map[string]int

func (o fieldOrder) note(its []item) []item {
	for _, it := range its {
		if _, ok := o[it.field]; !ok {
			o[it.field] = len(o)
		}
	}
	return its
}

// diffSwitch compares a switch; old is nil when it appeared, and then only
// its values that break the policy are listed.
func diffSwitch(old, new *snapshot.Switch, ro, rn *policyRules) []Change {
	out, old, done := configChanges(old, new)
	if done {
		return out
	}
	appeared := old == nil
	order := fieldOrder{}
	var oldDev []item
	if !appeared {
		oldDev = order.note(switchItems(old, ro))
	}
	out = append(out, diffItems("", oldDev, order.note(switchItems(new, rn)), appeared)...)
	ports, added, removed := diffPorts(old, new, ro, rn, order)
	out = append(out, ports...)
	if !appeared {
		out = append(out, portNotices(added, removed, "ports", "ports added", "ports removed")...)
	}
	order["config_file"], order["ports"] = -2, -1
	sortChanges(out, order)
	return out
}

// configChanges compares whether the configuration could be read. A switch
// whose configuration cannot be read now has nothing else to compare
// (done); one that could not be read before is compared as if it appeared
// (old becomes nil).
func configChanges(old, new *snapshot.Switch) (out []Change, kept *snapshot.Switch, done bool) {
	cfg := item{field: "config_file", text: "not readable", say: "configuration %s"}
	switch {
	case new.ConfigFile == "" && (old == nil || old.ConfigFile != ""):
		c := changeOf("", nil, &cfg)
		if old != nil {
			c = changeOf("", &item{field: "config_file", text: "read from " + old.ConfigFile}, &cfg)
		}
		return []Change{c}, nil, true
	case new.ConfigFile == "":
		return []Change{}, nil, true
	case old != nil && old.ConfigFile == "":
		return []Change{changeOf("", &cfg, &item{field: "config_file", text: "read from " + new.ConfigFile, say: "configuration %s"})}, nil, false
	}
	return nil, old, false
}

func groupsItems(sw *snapshot.Switch, r *policyRules, order fieldOrder) [][]item {
	out := make([][]item, len(sw.PortGroups))
	for i := range sw.PortGroups {
		out[i] = order.note(groupItems(&sw.PortGroups[i], r, sw.OS))
	}
	return out
}

// diffPorts compares the port groups and the ports' own values, port by
// port, merging the same change on several ports into one; old is nil when
// the switch appeared. It also returns the ports added and removed.
func diffPorts(old, new *snapshot.Switch, ro, rn *policyRules, order fieldOrder) (changes []Change, added, removed []string) {
	np := indexPorts(new, rn)
	op := &switchPorts{group: map[string]int{}}
	newGroups := groupsItems(new, rn, order)
	var oldGroups [][]item
	if old != nil {
		op = indexPorts(old, ro)
		oldGroups = groupsItems(old, ro, order)
	}
	pc := newPortChanges()
	added = keptPorts(pc, op, np, oldGroups, newGroups, order)
	for _, p := range op.order {
		if _, ok := np.group[p]; !ok {
			removed = append(removed, p)
		}
	}
	addedPorts(pc, np, added, newGroups, order)
	return pc.changes(), added, removed
}

// keptPorts compares the ports on both sides, by the pair of groups they
// were and are in, and returns the ports new to the switch.
func keptPorts(pc *portChanges, op, np *switchPorts, oldGroups, newGroups [][]item, order fieldOrder) (added []string) {
	type pair struct{ a, b int }
	pairs := map[pair][]string{}
	var pairOrder []pair
	for _, p := range np.order {
		a, ok := op.group[p]
		if !ok {
			added = append(added, p)
			continue
		}
		k := pair{a, np.group[p]}
		if _, seen := pairs[k]; !seen {
			pairOrder = append(pairOrder, k)
		}
		pairs[k] = append(pairs[k], p)
		for _, c := range diffItems("", order.note(op.portItems(p)), order.note(np.portItems(p)), false) {
			pc.add(c, []string{p})
		}
	}
	for _, k := range pairOrder {
		for _, c := range diffItems("", oldGroups[k.a], newGroups[k.b], false) {
			pc.add(c, pairs[k])
		}
	}
	return added
}

// addedPorts lists what ports new to the switch break, grouped like any
// other.
func addedPorts(pc *portChanges, np *switchPorts, added []string, newGroups [][]item, order fieldOrder) {
	byGroup := map[int][]string{}
	var groupOrder []int
	for _, p := range added {
		g := np.group[p]
		if _, seen := byGroup[g]; !seen {
			groupOrder = append(groupOrder, g)
		}
		byGroup[g] = append(byGroup[g], p)
		for _, c := range diffItems("", nil, order.note(np.portItems(p)), true) {
			pc.add(c, []string{p})
		}
	}
	for _, g := range groupOrder {
		for _, c := range diffItems("", nil, newGroups[g], true) {
			pc.add(c, byGroup[g])
		}
	}
}

// portNotices says which ports (or NICs) came or went. The pseudo-port ""
// of a switch without ports needs no notice: its ports' notice says it.
func portNotices(added, removed []string, field, addMsg, rmMsg string) []Change {
	var out []Change
	named := func(ps []string) []string {
		var r []string
		for _, p := range ps {
			if p != "" {
				r = append(r, p)
			}
		}
		return r
	}
	if a := named(added); len(a) > 0 {
		out = append(out, Change{Interface: model.CompressNames(a), Field: field, Message: addMsg, After: "present", Effect: EffectNeutral, Checks: []string{}})
	}
	if rm := named(removed); len(rm) > 0 {
		out = append(out, Change{Interface: model.CompressNames(rm), Field: field, Message: rmMsg, Before: "present", Effect: EffectNeutral, Checks: []string{}})
	}
	return out
}

// diffHost compares a host NIC by NIC; old is nil when it appeared.
func diffHost(old, new *snapshot.Host, ro, rn *policyRules) []Change {
	order := fieldOrder{}
	note := order.note
	appeared := old == nil
	var oldHost []item
	oldNICs := map[string]*snapshot.NIC{}
	if !appeared {
		oldHost = note(hostItems(old, ro))
		for i := range old.NICs {
			oldNICs[old.NICs[i].Netdev] = &old.NICs[i]
		}
	}
	out := diffItems("", oldHost, note(hostItems(new, rn)), appeared)
	var added, removed []string
	seen := map[string]bool{}
	for i := range new.NICs {
		n := &new.NICs[i]
		seen[n.Netdev] = true
		o := oldNICs[n.Netdev]
		if o == nil {
			if !appeared {
				added = append(added, n.Netdev)
			}
			out = append(out, diffItems(n.Netdev, nil, note(nicItems(new, n, rn)), true)...)
			continue
		}
		out = append(out, diffItems(n.Netdev, note(nicItems(old, o, ro)), note(nicItems(new, n, rn)), false)...)
	}
	if !appeared {
		for i := range old.NICs {
			if !seen[old.NICs[i].Netdev] {
				removed = append(removed, old.NICs[i].Netdev)
			}
		}
	}
	for _, a := range added {
		out = append(out, portNotices([]string{a}, nil, "nics", "NIC added", "")...)
	}
	for _, rm := range removed {
		out = append(out, portNotices(nil, []string{rm}, "nics", "", "NIC removed")...)
	}
	order["nics"] = -1
	sortChanges(out, order)
	return out
}
