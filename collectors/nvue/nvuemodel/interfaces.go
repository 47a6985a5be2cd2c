package nvuemodel

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/nvrange"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// Which NVUE interfaces are RoCE ports, and what each one's QoS bindings,
// MTU and adaptive routing are. Sources, all in the public repository
// CumulusNetworks/docs:
//
//   - Bonds: content/cumulus-linux-515/Layer-2/Bonding-Link-Aggregation.md
//     (`nv set interface bond1 bond member swp1-4`; "if you create the bond
//     interface with a name that starts with `bond`, NVUE automatically sets
//     the interface type to `bond`"; "An interface cannot belong to multiple
//     bonds"). The startup.yaml shape `bond1: bond: member: swp1: {}` with
//     `type: bond`, and `peerlink: bond: member: ... type: peerlink`, is in
//     content/cumulus-linux-515/Layer-2/Multi-Chassis-Link-Aggregation-MLAG.md
//     and the EVPN-Multihoming page of the same release. Host-facing MLAG
//     and EVPN-MH ports are bonds there.
//   - QoS on bonds: content/cumulus-linux-514/Layer-1-and-Switch-Ports/
//     Quality-of-Service/_index.md, "QoS Settings on Bond Member
//     Interfaces": "NVUE rejects QoS configurations on bond member
//     interfaces and shows an error when you try to apply the
//     configurations; you must apply all QoS configuration on logical bond
//     interfaces."
//   - MTU: content/cumulus-linux-515/Layer-1-and-Switch-Ports/
//     Interface-Configuration-and-Management/Switch-Port-Attributes.md:
//     "When configuring MTU for a bond, configure the MTU value directly
//     under the bond interface; the member links or slave interfaces inherit
//     the configured value", and "ifupdown2 assigns 9216 as the default MTU".
//   - Breakouts: the same Switch-Port-Attributes.md, `nv set interface swp1
//     link breakout 4x` then `nv set interface swp1s0-3 ...`; the NVUE
//     command reference (`nv show interface <id> link breakout <mode-id>`,
//     "The breakout mode identifier: 1x, 2x, 4x, 8x, disabled, or
//     loopback", introduced in 5.4.0). An Nx breakout splits swpK into
//     swpKs0 .. swpKs(N-1); the parent is no longer a port.
//   - Adaptive routing: content/cumulus-linux-5NN/Layer-3/Routing/
//     Equal-Cost-Multipath-Load-Sharing.md, see adaptiveRouting below.

// ifaceConf is everything the configuration says about one interface name:
// every key that names it (ranges and lists expanded), in file order.
type ifaceConf struct {
	name  string
	nodes []*nvue.Node
}

// get returns the last node at path below any of the interface's keys: NVUE
// merges keys in file order, so the last one wins.
func (c *ifaceConf) get(path ...string) *nvue.Node {
	var out *nvue.Node
	for _, n := range c.nodes {
		if v := n.Get(path...); v != nil {
			out = v
		}
	}
	return out
}

// ifaceSet is a switch's interfaces as configured.
type ifaceSet struct {
	order []string // first-seen order
	conf  map[string]*ifaceConf
	// bondOf maps a member to its bond; members lists a bond's members.
	bondOf  map[string]string
	members map[string][]string
	// split maps a breakout parent to its lanes count (2, 4, 8), or -1 when
	// only its configured split ports say it is split (splitByChildren); off holds
	// ports whose breakout is `disabled` or `loopback`.
	split map[string]int
	off   map[string]string
	// implied are the split ports of a breakout that the configuration does
	// not name itself.
	implied []string
	// types are the interfaces' `type` leaves (the last one each names),
	// read once the file's keys are: kind reads them, after the
	// configuration's nodes have gone (outsidePorts).
	types map[string]string
}

var (
	swpRe        = regexp.MustCompile(`^swp\d+(s\d+)?$`)
	breakoutRe   = regexp.MustCompile(`^([1248])x$`)
	parentRe     = regexp.MustCompile(`^swp\d+$`)
	svlanRe      = regexp.MustCompile(`^vlan\d+`)
	bondTypes    = map[string]bool{"bond": true, "peerlink": true}
	notPortTypes = map[string]bool{"sub": true, "svi": true, "loopback": true, "eth": true, "vrf": true, "bridge": true, "vxlan": true, "tunnel": true}
)

// readInterfaces expands every key below `interface` once, in file order.
func (b *switchBuilder) readInterfaces(root *nvue.Node) *ifaceSet {
	s := &ifaceSet{conf: map[string]*ifaceConf{}, bondOf: map[string]string{}, members: map[string][]string{},
		split: map[string]int{}, off: map[string]string{}}
	in := root.Child("interface")
	if in == nil {
		return s
	}
	for _, c := range in.Children {
		names, err := nvrange.ExpandNames(c.Key)
		if err != nil {
			b.problem(c, "interface %q: %v", c.Key, err)
			continue
		}
		for _, n := range names {
			ic := s.add(n)
			ic.nodes = append(ic.nodes, c)
		}
	}
	for _, name := range append([]string(nil), s.order...) {
		b.readBond(s, s.conf[name])
		b.readBreakout(s, s.conf[name])
	}
	s.splitByChildren()
	for _, name := range s.order {
		// `type swp` on a swpN name is what kind infers from the name:
		// not kept, as most of a switch's interfaces say it.
		if t := s.conf[name].get("type"); t != nil && t.IsLeaf && t.Value != "" && (t.Value != "swp" || !swpRe.MatchString(name)) {
			if s.types == nil {
				s.types = map[string]string{}
			}
			s.types[name] = t.Value
		}
	}
	return s
}

var splitPortRe = regexp.MustCompile(`^(swp\d+)s\d+$`)

// splitByChildren: a split port exists only when its parent is broken out
// ("An Nx breakout splits swpK into swpKs0 .. swpKs(N-1)"), so a
// configuration that names swpKsN has split swpK even where its breakout
// line is not in the file (NVIDIA's generated GPU-fabric files configure
// swp10s0-1 beside `swp10 link state down` and no breakout for it): the
// parent is no port then, not a second one beside its split ports.
func (s *ifaceSet) splitByChildren() {
	for _, name := range s.order {
		m := splitPortRe.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		parent := m[1]
		if _, ok := s.conf[parent]; ok && s.split[parent] == 0 && s.off[parent] == "" {
			s.split[parent] = -1
		}
	}
}

func (s *ifaceSet) add(name string) *ifaceConf {
	c, ok := s.conf[name]
	if !ok {
		c = &ifaceConf{name: name}
		s.conf[name] = c
		s.order = append(s.order, name)
	}
	return c
}

// memberNames reads a collection written as YAML keys (`member: {swp1: {}}`)
// or, as `nv config show -o commands` prints it, one scalar (`bond member
// swp1-4`).
func (b *switchBuilder) memberNames(n *nvue.Node) []string {
	var out []string
	keys := []*nvue.Node{n}
	if !n.IsLeaf {
		keys = n.Children
	}
	for _, k := range keys {
		text := k.Key
		if k.IsLeaf {
			text = k.Value
		}
		names, err := nvrange.ExpandNames(text)
		if err != nil {
			b.problem(k, "bond member %q: %v", text, err)
			continue
		}
		out = append(out, names...)
	}
	return out
}

func (b *switchBuilder) readBond(s *ifaceSet, c *ifaceConf) {
	for _, n := range c.nodes {
		m := n.Get("bond", "member")
		if m == nil {
			continue
		}
		for _, p := range b.memberNames(m) {
			if other, ok := s.bondOf[p]; ok && other != c.name {
				// "An interface cannot belong to multiple bonds."
				b.problem(m, "%s is a member of both %s and %s: an interface cannot belong to multiple bonds", p, other, c.name)
				continue
			}
			if _, ok := s.bondOf[p]; !ok {
				s.bondOf[p] = c.name
				s.members[c.name] = append(s.members[c.name], p)
			}
		}
	}
}

// readBreakout reads `link breakout 4x`: a leaf in the command form, a
// collection member (`breakout: {4x: {}}`, `2x: {lanes-per-port: 2}`) in
// YAML, as NVUE shows it (`[breakout]` in `nv show interface`).
func (b *switchBuilder) readBreakout(s *ifaceSet, c *ifaceConf) {
	n := c.get("link", "breakout")
	if n == nil {
		return
	}
	mode := n.Value
	if !n.IsLeaf {
		if len(n.Children) != 1 {
			b.problem(n, "interface %s link breakout: want one mode, got %d", c.name, len(n.Children))
			return
		}
		mode = n.Children[0].Key
	}
	switch m := breakoutRe.FindStringSubmatch(mode); {
	case !parentRe.MatchString(c.name):
		b.problem(n, "interface %s link breakout %s: only a whole front-panel port (swpN) splits", c.name, mode)
	case mode == "disabled" || mode == "loopback":
		s.off[c.name] = mode
	case m == nil:
		b.problem(n, "interface %s link breakout %q: NVUE accepts 1x, 2x, 4x, 8x, disabled or loopback", c.name, mode)
	case m[1] == "1":
		// 1x keeps the port whole.
	default:
		lanes, _ := strconv.Atoi(m[1])
		s.split[c.name] = lanes
		for i := 0; i < lanes; i++ {
			child := fmt.Sprintf("%ss%d", c.name, i)
			if _, ok := s.conf[child]; !ok {
				s.add(child)
				s.implied = append(s.implied, child)
			}
		}
	}
}

// kind classifies an interface: "port" (a front-panel swp, a split port),
// "bond", "member" (of a bond), "split" (a breakout parent), "off" (a
// disabled or loopback breakout), or what else it is ("loopback", "sub",
// "svi", "eth", ...), which is never a RoCE port.
func (s *ifaceSet) kind(name string) string {
	typ := s.types[name]
	switch {
	case s.bondOf[name] != "":
		return "member"
	case s.split[name] != 0:
		return "split"
	case s.off[name] != "":
		return "off"
	case bondTypes[typ] || len(s.members[name]) > 0 || (typ == "" && strings.HasPrefix(name, "bond")):
		return "bond"
	case notPortTypes[typ]:
		return typ
	case strings.Contains(name, "."):
		return "sub"
	case swpRe.MatchString(name):
		return "port"
	case name == "lo":
		return "loopback"
	case strings.HasPrefix(name, "eth"):
		return "eth"
	case svlanRe.MatchString(name):
		return "svi"
	}
	if typ != "" {
		return typ
	}
	return "other"
}

// configPorts are the RoCE ports a configuration names: front-panel and
// split ports that are not bond members, and bonds.
func (s *ifaceSet) configPorts() []string {
	var out []string
	for _, n := range s.order {
		if k := s.kind(n); k == "port" || k == "bond" {
			out = append(out, n)
		}
	}
	nvrange.SortNames(out)
	return out
}

// notChecked lists, for one note, the interfaces that are never RoCE
// ports. Bond members are left out: their bond stands for them.
func (s *ifaceSet) notChecked() []string {
	var out []string
	for _, n := range s.order {
		switch k := s.kind(n); k {
		case "port", "bond", "member":
		case "split":
			if s.split[n] < 0 {
				out = append(out, n+" (split ports configured)")
			} else {
				out = append(out, fmt.Sprintf("%s (breakout %dx)", n, s.split[n]))
			}
		case "off":
			out = append(out, fmt.Sprintf("%s (breakout %s)", n, s.off[n]))
		default:
			out = append(out, n)
		}
	}
	nvrange.SortNames(out)
	return out
}

// note records a remark on the switch.
func (b *switchBuilder) note(sw *model.Switch, line int, format string, a ...any) {
	sw.Notes = append(sw.Notes, source.Errorf(b.file, line, format, a...))
}

// selectPorts picks the ports checked: the inventory's (a bond member
// stands for its bond, a breakout parent for its split ports) or every
// RoCE port of the configuration.
func (b *switchBuilder) selectPorts(sw *model.Switch, s *ifaceSet, inv []string) {
	if len(inv) == 0 {
		sw.Ports = s.configPorts()
		return
	}
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			sw.Ports = append(sw.Ports, p)
		}
	}
	for _, spec := range inv {
		names, err := nvrange.ExpandNames(spec)
		if err != nil {
			b.problems = append(b.problems, &source.Error{Device: sw.Name, Msg: fmt.Sprintf("inventory ports %q: %v", spec, err)})
			continue
		}
		for _, p := range names {
			switch s.kind(p) {
			case "member":
				b.note(sw, 0, "inventory port %s is a member of %s: checked as %s, whose QoS and MTU its members inherit", p, s.bondOf[p], s.bondOf[p])
				add(s.bondOf[p])
			case "split":
				var kids []string
				for i := 0; i < s.split[p]; i++ {
					kids = append(kids, fmt.Sprintf("%ss%d", p, i))
				}
				b.note(sw, 0, "inventory port %s is split (link breakout %dx): checked as %s", p, s.split[p], nvrange.CompressNames(kids))
				for _, k := range kids {
					add(k)
				}
			default:
				add(p)
			}
		}
	}
	nvrange.SortNames(sw.Ports)
}

// portSettings reads each checked port's profile bindings, MTU and
// adaptive routing. A bond's own settings are its members' (they inherit
// them); settings on a member are recorded for the checks or noted.
func (b *switchBuilder) portSettings(sw *model.Switch, s *ifaceSet) map[string]*binding {
	binds := map[string]*binding{}
	sw.MTU.Grow(len(sw.Ports))
	for _, p := range sw.Ports {
		def := model.Defaulted(model.DefaultProfile, "no profile binding")
		binds[p] = &binding{mapping: def, pfc: def, ecn: def, sched: def}
		sw.MTU.Set(p, model.Defaulted(9216, model.DefaultMTUWhy))
	}
	for _, name := range s.order {
		c := s.conf[name]
		bd, checked := binds[name]
		kind := s.kind(name)
		for _, n := range c.nodes {
			for _, f := range qosFeatures {
				pn := n.Get("qos", f, "profile")
				switch {
				case pn == nil:
				case checked:
					*bd.field(f) = model.Explicit(pn.Value, b.pos(pn))
				case kind == "member":
					sw.MemberQoS = append(sw.MemberQoS, model.MemberBinding{
						Member: name, Bond: s.bondOf[name], Feature: f, Profile: model.Explicit(pn.Value, b.pos(pn))})
				}
			}
			if mtu := n.Get("link", "mtu"); mtu != nil {
				b.portMTU(sw, s, name, checked, mtu)
			}
			if ar := n.Get("router", "adaptive-routing"); ar != nil {
				b.portAR(sw, kind, name, ar)
			}
		}
	}
	return binds
}

var qosFeatures = []string{"mapping", "pfc", "congestion-control", "egress-scheduler"}

// field is the binding of one qos feature.
func (bd *binding) field(feature string) *model.Value[string] {
	switch feature {
	case "mapping":
		return &bd.mapping
	case "pfc":
		return &bd.pfc
	case "congestion-control":
		return &bd.ecn
	}
	return &bd.sched
}

func (b *switchBuilder) portMTU(sw *model.Switch, s *ifaceSet, name string, checked bool, mtu *nvue.Node) {
	// 552 and 9216 are NVUE's bounds for a swp MTU.
	v, ok := b.intOf(mtu, 552, 9216)
	switch {
	case !ok:
	case checked:
		sw.MTU.Set(name, v)
	case s.kind(name) == "member":
		bond := s.bondOf[name]
		b.note(sw, mtu.Line, "link mtu %d on %s is not what counts: %s is a member of %s, whose MTU its members inherit", v.V, name, name, bond)
	}
}

// arUnsupported are the kinds "Cumulus Linux does not support adaptive
// routing on": "layer 3 subinterfaces, SVIs, bonds or bond members"
// (Equal-Cost-Multipath-Load-Sharing.md, every 5.x release).
var arUnsupported = map[string]string{"sub": "subinterfaces", "svi": "SVIs", "bond": "bonds", "member": "bond members"}

func (b *switchBuilder) portAR(sw *model.Switch, kind, name string, ar *nvue.Node) {
	st := stateLeaf(ar)
	if st == nil {
		return
	}
	v, ok := b.boolOf(st)
	if !ok {
		return
	}
	sw.PortAR[name] = v
	if what, bad := arUnsupported[kind]; bad && v.V {
		sw.Flow.ARUnsupported = append(sw.Flow.ARUnsupported, model.ARPort{Port: name, What: what, V: v})
	}
}

// routedPorts are the checked front-panel ports that route in the default
// VRF: a BGP neighbor named after the port under `vrf default router bgp
// neighbor` (BGP unnumbered), an ip address, or OSPF on the port; bridge
// and bond members do not route. They are the ports adaptive routing must
// cover alike; see checks/adaptive_routing.go for the limits of the rule.
func routedPorts(root *nvue.Node, s *ifaceSet, ports []string) []string {
	bgp := map[string]bool{}
	if nb := root.Get("vrf", "default", "router", "bgp", "neighbor"); nb != nil {
		for _, c := range nb.Children {
			if names, err := nvrange.ExpandNames(c.Key); err == nil {
				for _, n := range names {
					bgp[n] = true
				}
			}
		}
	}
	var out []string
	for _, p := range ports {
		if s.kind(p) != "port" {
			continue
		}
		c := s.conf[p]
		if c == nil {
			continue
		}
		if c.get("bridge", "domain") != nil {
			continue
		}
		if vrf := c.get("ip", "vrf"); vrf != nil && vrf.Value != "default" {
			continue
		}
		addr := c.get("ip", "address") != nil || c.get("ipv4", "address") != nil || c.get("ipv6", "address") != nil
		if bgp[p] || addr || c.get("router", "ospf") != nil {
			out = append(out, p)
		}
	}
	return out
}

// interfaces is the interface part of Switch: which ports are checked,
// their bindings, MTU and adaptive routing, and the notes about the rest.
func (b *switchBuilder) interfaces(sw *model.Switch, root *nvue.Node, inv []string) map[string]*binding {
	s := b.readInterfaces(root)
	b.ifaces = s
	sw.Bonds = map[string][]string{}
	for bond, ms := range s.members {
		m := append([]string(nil), ms...)
		nvrange.SortNames(m)
		sw.Bonds[bond] = m
	}
	b.selectPorts(sw, s, inv)
	binds := b.portSettings(sw, s)
	b.flowControl(sw, s)
	if nc := s.notChecked(); len(nc) > 0 {
		b.note(sw, 0, "interfaces not checked (not RoCE ports): %s", strings.Join(nc, ", "))
	}
	if len(s.implied) > 0 {
		b.note(sw, 0, "split ports implied by a breakout and checked with defaults: %s", nvrange.CompressNames(s.implied))
	}
	sw.ARPorts = routedPorts(root, s, sw.Ports)
	sw.AR = b.adaptiveRouting(sw, root)
	return binds
}

// adaptiveRouting is the global state. Up to CL 5.12 the per-port command
// turned the feature on too: "Run the `nv set interface <interface> router
// adaptive-routing enable on` command on all the ports that are part of the
// same ECMP route. NVUE sets adaptive routing on the ports and enables the
// adaptive routing feature." (content/cumulus-linux-59/ and
// cumulus-linux-512/Layer-3/Routing/Equal-Cost-Multipath-Load-Sharing.md).
// From 5.13 the page has a separate global step, "To enable adaptive routing
// globally, run `nv set router adaptive-routing enable on`", then "To enable
// adaptive routing on ports that are part of the same ECMP route, run `nv
// set interface <interface> router adaptive-routing enable on`" (5.13,
// 5.14; `state enabled` in 5.15); the switchd file keeps a global
// `adaptive_routing.enable` next to each `interface.<port>.adaptive_routing.
// enable`. So a port is adaptive when both are on, and its own setting
// defaults to off ("Default Setting `off`", NVUE command reference).
func (b *switchBuilder) adaptiveRouting(sw *model.Switch, root *nvue.Node) model.Value[bool] {
	ar := model.Defaulted(false, "adaptive routing is off by default")
	if n := root.Get("router", "adaptive-routing"); n != nil {
		if st := stateLeaf(n); st != nil {
			if v, ok := b.boolOf(st); ok {
				return v
			}
		}
	}
	if major, minor, ok := versionOf(sw.Version); ok && (major < 5 || (major == 5 && minor <= 12)) {
		for _, p := range sw.Ports {
			if v, ok := sw.PortAR[p]; ok && v.V {
				return model.Value[bool]{V: true, Known: true, Origin: model.NewOrigin(v.Origin.Pos(), "CL 5.12 and earlier: a port's adaptive-routing turns the feature on")}
			}
		}
	}
	return ar
}

var versionRe = regexp.MustCompile(`(\d+)\.(\d+)`)

// versionOf reads "Cumulus Linux 5.12.1".
func versionOf(v string) (major, minor int, ok bool) {
	m := versionRe.FindStringSubmatch(v)
	if m == nil {
		return 0, 0, false
	}
	major, _ = strconv.Atoi(m[1])
	minor, _ = strconv.Atoi(m[2])
	return major, minor, true
}
