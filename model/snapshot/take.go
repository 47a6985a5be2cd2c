package snapshot

import (
	"github.com/qoslint/qoslint/internal/layout"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// Take freezes the effective model. Devices are sorted by name whatever the
// inventory order, so that reordering an inventory is no drift.
func Take(f *model.Fabric) *Snapshot {
	s := &Snapshot{
		Schema: Version, Fabric: f.Name, Policy: FromPolicy(f.Policy),
		Switches: []Switch{}, Hosts: []Host{}, InputErrors: []InputError{},
	}
	for _, sw := range f.Switches {
		s.Switches = append(s.Switches, takeSwitch(sw))
	}
	for _, h := range f.Hosts {
		s.Hosts = append(s.Hosts, takeHost(h))
	}
	sort.SliceStable(s.Switches, func(i, j int) bool { return s.Switches[i].Name < s.Switches[j].Name })
	sort.SliceStable(s.Hosts, func(i, j int) bool { return s.Hosts[i].Name < s.Hosts[j].Name })
	s.AddInputErrors(f.Problems)
	s.Topology = takeTopology(f)
	s.Sections = sortedSections()
	return s
}

// takeTopology freezes the links in the model's order (sorted by their
// first end) with each end's MTU as link-mtu reads it (model.EndMTU).
func takeTopology(f *model.Fabric) *Topology {
	t := &Topology{LLDP: []string{}, Links: []Link{}}
	for dev := range f.LLDPFile {
		t.LLDP = append(t.LLDP, dev)
	}
	sort.Strings(t.LLDP)
	end := func(e model.LinkEnd) LinkEnd {
		out := LinkEnd{Device: e.Device, Kind: e.Kind, Port: e.Port}
		if !e.Seen.IsZero() {
			out.Seen = e.Seen.String()
		}
		if v, port, ok := f.EndMTU(e); ok {
			out.SwitchPort, out.MTU = port, fact(v)
		}
		return out
	}
	for _, l := range f.Links {
		t.Links = append(t.Links, Link{A: end(l.A), B: end(l.B), OneSided: l.OneSided()})
	}
	return t
}

// AddInputErrors records input problems found outside the model (the
// collector's malformed files), keeping them sorted.
func (s *Snapshot) AddInputErrors(errs []*source.Error) {
	for _, e := range errs {
		s.InputErrors = append(s.InputErrors, InputError{Device: e.Device, File: e.File, Line: e.Line, Message: e.Msg})
	}
	sort.SliceStable(s.InputErrors, func(i, j int) bool {
		a, b := s.InputErrors[i], s.InputErrors[j]
		switch {
		case a.Device != b.Device:
			return a.Device < b.Device
		case a.File != b.File:
			return a.File < b.File
		case a.Line != b.Line:
			return a.Line < b.Line
		}
		return a.Message < b.Message
	})
}

func takeSwitch(sw *model.Switch) Switch {
	out := Switch{
		Name: sw.Name, Role: sw.Role, ConfigFile: sw.ConfigFile, Version: sw.Version, OS: sonicOnly(sw.OS),
		Syntax:     sw.Syntax.String(),
		RoCE:       RoCE{Enabled: fact(sw.RoCE.Enabled), Mode: fact(sw.RoCE.Mode)},
		PortGroups: []PortGroup{}, ECMPHash: map[string]Fact[bool]{},
		AdaptiveRouting:     fact(sw.AR),
		PortAdaptiveRouting: []PortValue[bool]{}, MTU: []PortValue[int]{},
		NotCollected: nonNil(append([]string(nil), sw.NotCollected...)),
	}
	if sw.ConfigFile == "" || sw.Global == nil {
		// Nothing below was read: keep the zero facts, not the model's
		// placeholder defaults.
		out.RoCE, out.AdaptiveRouting, out.Syntax = RoCE{}, Fact[bool]{}, ""
		return out
	}
	for _, g := range portGroups(sw) {
		out.PortGroups = append(out.PortGroups, takeQoS(g.ports, g.q))
	}
	for name, v := range sw.ECMP {
		out.ECMPHash[name] = fact(v)
	}
	takeFlow(sw, &out)
	out.TrafficPools = takePools(sw)
	out.MTU = groupPorts(sw.Ports, func(p string) (model.Value[int], bool) {
		v, ok := sw.MTU.Get(p)
		return v, ok
	})
	out.PortAdaptiveRouting = groupPorts(sw.Ports, func(p string) (model.Value[bool], bool) {
		v, ok := sw.PortAR[p]
		return v, ok
	})
	return out
}

type group struct {
	ports string
	q     *model.QoS
}

// portGroups groups ports by their shared *model.QoS in port order, as the
// checks do (model Switch.PortGroups), so a snapshot's groups are the
// interfaces its findings name.
func portGroups(sw *model.Switch) []group {
	if len(sw.Ports) == 0 {
		return []group{{q: sw.Global}}
	}
	idx := map[*model.QoS]int{}
	var names [][]string
	var qs []*model.QoS
	for _, p := range sw.Ports {
		q := sw.PortQoS.At(p)
		if q == nil {
			continue
		}
		i, ok := idx[q]
		if !ok {
			i = len(qs)
			idx[q] = i
			qs = append(qs, q)
			names = append(names, nil)
		}
		names[i] = append(names[i], p)
	}
	out := make([]group, len(qs))
	for i := range qs {
		out[i] = group{ports: model.CompressNames(names[i]), q: qs[i]}
	}
	return out
}

// groupPorts groups per-port values by value and origin, in port order.
func groupPorts[T comparable](ports []string, get func(string) (model.Value[T], bool)) []PortValue[T] {
	type key struct {
		v      T
		origin string
	}
	idx := map[key]int{}
	var keys []key
	var members [][]string
	for _, p := range ports {
		v, ok := get(p)
		if !ok || !v.Known {
			continue
		}
		k := key{v.V, v.Origin.String()}
		i, seen := idx[k]
		if !seen {
			i = len(keys)
			idx[k] = i
			keys = append(keys, k)
			members = append(members, nil)
		}
		members[i] = append(members[i], p)
	}
	out := make([]PortValue[T], len(keys))
	for i, k := range keys {
		out[i] = PortValue[T]{Ports: model.CompressNames(members[i]), Value: k.v, Origin: k.origin}
	}
	return out
}

func takeQoS(ports string, q *model.QoS) PortGroup {
	g := PortGroup{
		Ports: ports,
		Profiles: Profiles{
			Mapping: fact(q.MappingProfile), PFC: fact(q.PFCProfile),
			CongestionControl: fact(q.ECNProfile), EgressScheduler: fact(q.SchedProfile),
		},
		Trust: fact(q.Trust),
		DSCP:  takeDSCP(&q.DSCP),
		PFC:   prioSet(q.PFC[:]),
		PFCRx: fact(q.PFCRx), PFCTx: fact(q.PFCTx),
	}
	cable := fact(q.CableLength)
	g.CableLength = &cable
	for pcp := range q.PCP {
		g.PCP = append(g.PCP, fact(q.PCP[pcp]))
	}
	for sp := range q.TC {
		g.SPToTC = append(g.SPToTC, fact(q.TC[sp]))
	}
	for tc := 0; tc < 8; tc++ {
		g.TrafficClasses = append(g.TrafficClasses, TrafficClass{
			TC: tc, ECN: fact(q.ECN[tc]), ECNMin: fact(q.ECNMin[tc]), ECNMax: fact(q.ECNMax[tc]),
			Scheduler: fact(q.Sched[tc]), BWPercent: fact(q.SchedBW[tc]),
		})
	}
	return g
}

// prioSet turns per-priority PFC flags into the set of priorities with PFC
// on. The model gives every entry the origin of the one setting that wrote
// them all; distinct origins, if any, are all kept.
func prioSet(flags []model.Value[bool]) Fact[[]int] {
	on := []int{}
	var origins []string
	seen := map[string]bool{}
	for p, v := range flags {
		if !v.Known {
			return Fact[[]int]{Origin: v.Origin.String()}
		}
		if v.V {
			on = append(on, p)
		}
		if o := v.Origin.String(); o != "" && !seen[o] {
			seen[o] = true
			origins = append(origins, o)
		}
	}
	return known(on, strings.Join(origins, "; "))
}

func takeDSCP(m *model.DSCPMap) DSCPMap {
	out := DSCPMap{Map: make([]*int, 64), NonDefault: []DSCPEntry{}, Origins: []DSCPOrigin{}}
	byOrigin := map[string][]int{}
	var order []string
	for d, v := range m.All() {
		o := v.Origin.String()
		if v.Known {
			p := v.V
			out.Map[d] = &p
			if p != model.DefaultPriority(d) {
				out.NonDefault = append(out.NonDefault, DSCPEntry{DSCP: d, Priority: p, Origin: o})
			}
		}
		if o == "" {
			continue
		}
		if _, ok := byOrigin[o]; !ok {
			order = append(order, o)
		}
		byOrigin[o] = append(byOrigin[o], d)
	}
	for _, o := range order {
		out.Origins = append(out.Origins, DSCPOrigin{DSCP: model.CompressInts(byOrigin[o]), Origin: o})
	}
	return out
}

func takeHost(h *model.Host) Host {
	out := Host{
		Name: h.Name, NCCLFile: h.NCCLFile, NCCLIBTC: fact(h.NCCLTC), NCCLIBSL: fact(h.NCCLSL), NICs: []NIC{},
		NotCollected: nonNil(append([]string(nil), h.NotCollected...)),
	}
	for _, n := range h.NICs {
		out.NICs = append(out.NICs, takeNIC(n))
	}
	sort.SliceStable(out.NICs, func(i, j int) bool { return model.NaturalLess(out.NICs[i].Netdev, out.NICs[j].Netdev) })
	takeRoCEVersion(h, &out)
	takeApplications(h, &out)
	return out
}

func takeNIC(n *model.NIC) NIC {
	pfc := n.PFC.All()
	out := NIC{
		Netdev: n.Netdev, IBDev: n.IBDev, Port: n.Port,
		QosFile: n.QosFile, QosUnreadable: n.QosUnreadable,
		Trust: fact(n.Trust), DSCP: takeDSCP(&n.DSCP), PFC: prioSet(pfc[:]),
		CNPDSCP: fact(n.CNPDSCP), CNPPrio: fact(n.CNPPrio), MTU: fact(n.MTU),
		ToS:      ToS{Effective: fact(n.ToS.Value), Via: n.ToS.Via, Forced: fact(n.ToS.Forced)},
		Firmware: takeFirmware(n),
	}
	if n.QosFile != "" {
		prioTC, tcBW := make([]int, 8), make([]int, 8)
		for i := range 8 {
			prioTC[i], tcBW[i] = int(n.PrioTC[i]), int(n.TCBW[i])
		}
		out.PrioTC = known(prioTC, n.QosFile)
		for tc := range 8 {
			out.TSA = append(out.TSA, fact(n.TSA.At(tc)))
		}
		out.TCBW = tcBW
	}
	for p := 0; p < 8; p++ {
		out.ECNNP = append(out.ECNNP, fact(n.ECNNP.At(p)))
		out.ECNRP = append(out.ECNRP, fact(n.ECNRP.At(p)))
	}
	return out
}

// sonicOnly records a switch OS other than Cumulus Linux, so that a
// Cumulus switch's snapshot stays what it was before SONiC.
func sonicOnly(os string) string {
	if os == layout.OSCumulus {
		return ""
	}
	return os
}
