package nvuemodel

import (
	"slices"

	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// The ports outside the inventory's ports list that RoCE NICs plug into
// (model/outside.go) get their QoS from what the switch keeps until the
// links are known: outsidePorts, read from the builder once the switch is
// built (KeepOutsidePorts); until then the builder stands for it.

// Interfaces are every interface the configuration names (ranges
// expanded), so that LLDP from a host resolves a port outside the checked
// ones. An interface NVUE does not configure stays administratively down
// on Cumulus Linux, so a cable LLDP sees is on a configured one.
func (b *switchBuilder) Interfaces() []string {
	if b.ifaces == nil {
		return nil
	}
	return b.ifaces.order
}

// AddPort gives an interface outside the checked ports its QoS and
// MTU: the bond's for a bond member (NVUE applies QoS on the bond, whose
// members inherit it), the port's own for a front-panel or split port. It
// returns the port given QoS, "" when the interface is none of those (a
// breakout parent, a subinterface), and the input problems the bindings
// raise (a profile bound but not defined).
func (b *switchBuilder) AddPort(sw *model.Switch, iface string) (string, []*source.Error) {
	if b.ifaces == nil {
		return "", nil
	}
	return b.keep(sw).AddPort(sw, iface)
}

// roCEPort is the port that carries iface's QoS (its bond for a bond
// member), and whether that is a port or a bond at all.
func (s *ifaceSet) roCEPort(iface string) (string, bool) {
	port := iface
	if bond := s.bondOf[iface]; bond != "" {
		port = bond
	}
	k := s.kind(port)
	return port, k == "port" || k == "bond"
}

// outsideSettings are the profile bindings and the MTU of a port outside
// the checked ones, read as portSettings reads a checked port's. An MTU
// the builder cannot read is left at the default, and its problem is not
// the switch's: the switch's problems were returned with it.
func (b *switchBuilder) outsideSettings(port string) (binding, model.Value[int]) {
	def := model.Defaulted(model.DefaultProfile, "no profile binding")
	bd := binding{mapping: def, pfc: def, ecn: def, sched: def}
	mtu := model.Defaulted(9216, model.DefaultMTUWhy)
	c := b.ifaces.conf[port]
	if c == nil {
		return bd, mtu
	}
	saved := len(b.problems)
	for _, n := range c.nodes {
		for _, f := range qosFeatures {
			if pn := n.Get("qos", f, "profile"); pn != nil {
				*bd.field(f) = model.Explicit(pn.Value, b.pos(pn))
			}
		}
		if n := n.Get("link", "mtu"); n != nil {
			if v, ok := b.intOf(n, 552, 9216); ok {
				mtu = v
			}
		}
	}
	b.problems = b.problems[:saved]
	return bd, mtu
}

// KeepOutsidePorts replaces the builder a built switch keeps by what its
// AddPort can give: the interfaces' kinds and, for each RoCE port outside
// the checked ones, its MTU and QoS, read now. The builder holds the
// configuration's tree (every interface's nodes, the qos profiles), which
// would otherwise live until every device is read and the links are known
// (model.BuildOutsidePorts): at TestLintScale's size, a third of a Cumulus
// switch's memory while the fabric is read. collectors/fabric calls it
// once the switch's views are attached (AttachTrimShows reads the tree).
func KeepOutsidePorts(sw *model.Switch) {
	if b, ok := sw.ConfigPorts().(*switchBuilder); ok && b.ifaces != nil {
		sw.SetConfigPorts(b.keep(sw))
	}
}

// keep is what the built switch sw keeps of b for AddPort, read once.
func (b *switchBuilder) keep(sw *model.Switch) *outsidePorts {
	if b.kept != nil {
		return b.kept
	}
	s := b.ifaces
	o := &outsidePorts{
		// At their size: the order grew by appends, and kind reads an
		// empty map as a nil one.
		kinds: &ifaceSet{order: slices.Clone(s.order), bondOf: nilIfEmpty(s.bondOf), members: nilIfEmpty(s.members),
			split: nilIfEmpty(s.split), off: nilIfEmpty(s.off), types: s.types},
		// The switch's own problems: a problem a port's QoS raises again
		// is not reported twice (boundQoS's dedupeFrom).
		switchProblems: b.problems,
	}
	sets := map[*model.QoS]*outsideQoS{}
	for _, q := range b.shared {
		// Built for the checked ports: their problems are the switch's.
		sets[q] = &outsideQoS{qos: q, reported: true}
	}
	for _, name := range s.order {
		port, ok := s.roCEPort(name)
		if !ok || port != name || sw.PortQoS.At(port) != nil {
			continue
		}
		bd, mtu := b.outsideSettings(port)
		q, ok := b.shared[bd.key()]
		if !ok {
			// boundQoS's work, its problems kept apart from the switch's:
			// the first port given this QoS reports them (report).
			saved := len(b.problems)
			q = b.portQoS(b.global, b.qosRoot, bd)
			b.shared[bd.key()] = q
			sets[q] = &outsideQoS{qos: q, problems: slices.Clone(b.problems[saved:]), undefined: b.undefinedProfiles(bd)}
			b.problems = b.problems[:saved]
		}
		if o.ports == nil {
			o.ports = map[string]outsidePort{}
		}
		o.ports[port] = outsidePort{mtu: mtu, set: sets[q]}
	}
	o.defaultSet = sets[sw.Global]
	b.kept = o
	return o
}

func nilIfEmpty[M ~map[K]V, K comparable, V any](m M) M {
	if len(m) == 0 {
		return nil
	}
	return m
}

// outsidePorts is a built Cumulus switch's model.ConfigPorts.
type outsidePorts struct {
	// kinds are the configuration's interfaces, without their nodes.
	kinds *ifaceSet
	// ports are the RoCE ports outside the checked ones that the
	// configuration names; a port it does not name takes defaultSet and
	// the default MTU, as the builder gave it.
	ports      map[string]outsidePort
	defaultSet *outsideQoS
	// switchProblems and seen are what a port's QoS problems are
	// deduplicated against: the switch's, then those reported so far.
	switchProblems []*source.Error
	seen           map[string]bool
}

type outsidePort struct {
	mtu model.Value[int]
	set *outsideQoS
}

// outsideQoS is one QoS the ports outside the checked ones share, with
// the problems building it raised: the first port given it reports them.
// problems are portQoS's, deduplicated when reported; undefined are the
// profiles bound but not defined, which boundQoS adds undeduplicated.
type outsideQoS struct {
	qos                 *model.QoS
	problems, undefined []*source.Error
	reported            bool
}

func (o *outsidePorts) Interfaces() []string { return o.kinds.order }

func (o *outsidePorts) AddPort(sw *model.Switch, iface string) (string, []*source.Error) {
	port, ok := o.kinds.roCEPort(iface)
	if !ok {
		return "", nil
	}
	if _, ok := sw.PortQoS.Get(port); ok {
		return port, nil
	}
	p, ok := o.ports[port]
	if !ok {
		p = outsidePort{mtu: model.Defaulted(9216, model.DefaultMTUWhy), set: o.defaultSet}
	}
	sw.MTU.Set(port, p.mtu)
	sw.PortQoS.Set(port, p.set.qos)
	sw.Outside = append(sw.Outside, port)
	return port, o.report(p.set)
}

// report is set's problems the first time a port takes it, as boundQoS
// gave them: portQoS's less those reported before (the switch's
// included), then the undefined profiles.
func (o *outsidePorts) report(set *outsideQoS) []*source.Error {
	if set.reported {
		return nil
	}
	set.reported = true
	if o.seen == nil {
		o.seen = map[string]bool{}
		for _, p := range o.switchProblems {
			o.seen[p.Error()] = true
		}
	}
	var out []*source.Error
	for _, p := range set.problems {
		if !o.seen[p.Error()] {
			o.seen[p.Error()] = true
			out = append(out, p)
		}
	}
	for _, p := range set.undefined {
		o.seen[p.Error()] = true
	}
	return append(out, set.undefined...)
}
