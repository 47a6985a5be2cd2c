package model

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
	return s.groupPorts(func(q *QoS) any { return q })
}

// ProfileGroups groups the switch's ports by the profile one feature binds
// (feature names it from a port's QoS), in port order. The values a feature
// decides come from that profile alone (portQoS: a named profile replaces
// default-global feature by feature), so ports bound to other profiles of
// other features still share one group.
func (s *Switch) ProfileGroups(feature func(*QoS) string) []PortGroup {
	return s.groupPorts(func(q *QoS) any { return feature(q) })
}

// MappingProfile, PFCProfile, ECNProfile and SchedProfile are the features
// ProfileGroups groups by.
func MappingProfile(q *QoS) string { return q.MappingProfile.V }
func PFCProfile(q *QoS) string     { return q.PFCProfile.V }
func ECNProfile(q *QoS) string     { return q.ECNProfile.V }
func SchedProfile(q *QoS) string   { return q.SchedProfile.V }

// QueueMap groups by the switch-priority → traffic-class map itself:
// NVUE has one per switch, SONiC binds one per port (PORT_QOS_MAP
// tc_to_queue_map), and the model keeps no name for it.
func QueueMap(q *QoS) string {
	b := make([]byte, 0, 2*len(q.TC))
	for _, t := range q.TC {
		b = append(b, byte(t.V), ',')
	}
	return string(b)
}

// groupPorts groups the ports by key(their QoS); each group keeps the QoS
// of its first port.
func (s *Switch) groupPorts(key func(*QoS) any) []PortGroup {
	if len(s.Ports) == 0 {
		return []PortGroup{{Q: s.Global}}
	}
	idx := map[any]int{}
	var gs []PortGroup
	for _, p := range s.Ports {
		q := s.PortQoS[p]
		k := key(q)
		i, ok := idx[k]
		if !ok {
			i = len(gs)
			idx[k] = i
			gs = append(gs, PortGroup{Q: q})
		}
		gs[i].Ports = append(gs[i].Ports, p)
	}
	for i := range gs {
		gs[i].Iface = CompressNames(gs[i].Ports)
	}
	return gs
}
