package model

import (
	"slices"
	"sync"
)

// PortGroup is a set of a switch's ports that share one effective QoS.
type PortGroup struct {
	Ports []string
	Q     *QoS
	// Iface is the ports in NVUE range form, "" for a switch whose
	// configuration names no port.
	Iface string
}

// PortGroups groups the switch's ports by effective QoS, in port order.
func (s *Switch) PortGroups() []PortGroup {
	return s.groups.get(s, byQoS)
}

// ProfileGroups groups the switch's ports by the profile one feature binds
// (feature names it from a port's QoS), in port order. The values a feature
// decides come from that profile alone (portQoS: a named profile replaces
// default-global feature by feature), so ports bound to other profiles of
// other features still share one group.
func (s *Switch) ProfileGroups(feature Feature) []PortGroup {
	return s.groups.get(s, feature)
}

// Feature is what ProfileGroups groups by: a name for the cache and the
// key of a port's QoS.
type Feature struct {
	name string
	key  func(*QoS) any
}

// MappingProfile, PFCProfile, ECNProfile, SchedProfile and QueueMap are
// the features ProfileGroups groups by. QueueMap is the switch-priority →
// traffic-class map itself: NVUE has one per switch, SONiC binds one per
// port (PORT_QOS_MAP tc_to_queue_map), and the model keeps no name for it.
var (
	MappingProfile = Feature{"mapping", func(q *QoS) any { return q.MappingProfile.V }}
	PFCProfile     = Feature{"pfc", func(q *QoS) any { return q.PFCProfile.V }}
	ECNProfile     = Feature{"ecn", func(q *QoS) any { return q.ECNProfile.V }}
	SchedProfile   = Feature{"sched", func(q *QoS) any { return q.SchedProfile.V }}
	QueueMap       = Feature{"queue-map", func(q *QoS) any {
		var tcs [8]int
		for i, t := range q.TC {
			tcs[i] = t.V
		}
		return tcs
	}}
	byQoS = Feature{"qos", func(q *QoS) any { return q }}
)

// groupCache holds a switch's port groups per feature: some twenty checks
// ask for the same groups, and grouping was most of a check's time on a
// switch of many ports. The groups are computed once the model is built
// (the checks read it, they do not change it), and shared: callers must
// not change them.
type groupCache struct {
	mu sync.Mutex
	by map[string][]PortGroup
	// qs are the ports' QoS in port order, looked up once for every
	// feature (on a SONiC switch, whose ports are each a group, the
	// lookups were a third of the grouping); all is every port in range
	// form, the Iface of a feature's one group (CompressNames was most of
	// the grouping on a SONiC switch, whose Ethernet0, Ethernet4, ... do
	// not compress).
	qs  []*QoS
	all string
	// parts are the partitions of the ports computed so far, each with
	// its groups: features mostly part the ports alike (every port
	// alike, or the uplinks apart), and a partition seen before takes
	// its groups as they are rather than their port lists and range
	// forms anew.
	parts []partition
}

// partition is the group of each port (in port order) and the groups.
type partition struct {
	of []int
	gs []PortGroup
}

func (c *groupCache) get(s *Switch, f Feature) []PortGroup {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gs, ok := c.by[f.name]; ok {
		return gs
	}
	if c.qs == nil {
		c.qs = make([]*QoS, len(s.Ports))
		for j, p := range s.Ports {
			c.qs[j] = s.PortQoS.At(p)
		}
	}
	gs := s.groupPorts(c.qs, f.key, &c.all, &c.parts)
	if c.by == nil {
		c.by = map[string][]PortGroup{}
	}
	c.by[f.name] = gs
	return gs
}

// groupPorts groups the ports by key(their QoS, qs in port order); each
// group keeps the QoS of its first port. all caches the Iface of a group
// of every port, parts the partitions computed before (groupCache).
func (s *Switch) groupPorts(qs []*QoS, key func(*QoS) any, all *string, parts *[]partition) []PortGroup {
	if len(s.Ports) == 0 {
		return []PortGroup{{Q: s.Global}}
	}
	// Two passes, so that the groups' port lists are cut from one array
	// (a switch where every port is alike shares s.Ports itself): grown
	// by appends, they were a twelfth of TestLintScale's heap while the
	// checks ran.
	idx := map[any]int{}
	var gs []PortGroup
	of := make([]int, len(s.Ports))
	var n []int
	// Ports in a row mostly share their QoS, whose key is then the last
	// port's: key is not asked again (it boxes its value, and a
	// QueueMap's eight traffic classes are an allocation per port).
	var lastQ *QoS
	lastI := -1
	for j, q := range qs {
		i := lastI
		if q != lastQ || lastI < 0 {
			k := key(q)
			var ok bool
			i, ok = idx[k]
			if !ok {
				i = len(gs)
				idx[k] = i
				gs = append(gs, PortGroup{Q: q})
				n = append(n, 0)
			}
			lastQ, lastI = q, i
		}
		of[j] = i
		n[i]++
	}
	// A partition seen before has these very groups: each group's QoS is
	// that of its first port, and its ports are the same.
	for _, p := range *parts {
		if slices.Equal(p.of, of) {
			return p.gs
		}
	}
	defer func() { *parts = append(*parts, partition{of, gs}) }()
	if len(gs) == 1 {
		gs[0].Ports = s.Ports[:len(s.Ports):len(s.Ports)]
		if *all == "" {
			*all = CompressNames(s.Ports)
		}
		gs[0].Iface = *all
		return gs
	}
	block, at := make([]string, len(s.Ports)), 0
	for i := range gs {
		gs[i].Ports, at = block[at:at:at+n[i]], at+n[i]
	}
	for j, p := range s.Ports {
		gs[of[j]].Ports = append(gs[of[j]].Ports, p)
	}
	for i := range gs {
		gs[i].Iface = CompressNames(gs[i].Ports)
	}
	return gs
}
