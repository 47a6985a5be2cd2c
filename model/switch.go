package model

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/qoslint/qoslint/collectors/gnmifile"
	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/source"
)

// DefaultProfile is the profile NVUE applies to every port without a binding.
const DefaultProfile = "default-global"

// Switch is what one NVUE switch effectively does.
type Switch struct {
	Name string
	Role string
	// ConfigFile is the configuration the model was built from; "" when no
	// configuration could be read, in which case nothing below is Known.
	ConfigFile string
	Version    string
	Syntax     Syntax
	RoCE       RoCE
	// Ports are the ports checked, in natural order: front-panel and split
	// ports and bonds (model/interfaces.go). Empty when the configuration
	// names none: then only Global is checked.
	Ports []string
	// Bonds maps each bond to its members, sorted.
	Bonds map[string][]string
	// MemberQoS are profile bindings on bond members, which NVUE rejects.
	MemberQoS []MemberBinding
	// PortQoS maps each port to its effective QoS. Ports bound to the same
	// profiles share one *QoS, so checks can report them together.
	PortQoS map[string]*QoS
	// Global is what a port with no profile bindings gets.
	Global *QoS
	// ECMP maps each NVUE ecmp-hash field to whether the switch hashes on it.
	ECMP map[string]Value[bool]
	// AR is global adaptive routing (effective: on up to CL 5.12 when a
	// port sets it); PortAR is the per-interface setting where set; ARPorts
	// are the checked ports that route (the ECMP group adaptive routing
	// must cover alike).
	AR      Value[bool]
	PortAR  map[string]Value[bool]
	ARPorts []string
	// ECMPGroup are the ports adaptive routing is judged on: the LLDP
	// links to the next tier when known, else ARPorts (model/uplinks.go).
	ECMPGroup ECMPGroup
	// MTU per port.
	MTU map[string]Value[int]
	// Flow is link pause, PFC watchdog, port speed and the platform
	// (model/flowctl.go); Forwarding the hash seed and resilient hashing.
	Flow       FlowControl
	Forwarding Forwarding
	// Pools are the configuration's qos traffic-pool settings (pools.go).
	Pools []TrafficPool
	// Trim is packet trimming and the qos remark profiles
	// (model/packet_trim.go); nil when no configuration was read.
	Trim *PacketTrim
	// Oper is `nv show qos roce`; nil when not collected.
	Oper *Operational
	// OperPorts are the checked ports' own operational views, `nv show
	// interface <port> qos roce status` (roce-status/<port>.txt); nil when
	// the folder was not collected. A checked port absent from the map was
	// not collected; one mapped to nil was, but could not be read (its
	// input error is reported).
	OperPorts map[string]*Operational
	// Counters are the QoS counters over gNMI; nil when not collected.
	Counters *SwitchCounters
	// NotCollected names the optional inputs that were missing.
	NotCollected []string
	// Notes are remarks about the configuration (interfaces never checked,
	// settings that do not count); Build moves them to the fabric's Notes.
	Notes []*source.Error
	// Outside are the ports not in the inventory's ports list that a RoCE
	// NIC plugs into (per LLDP), sorted: they have PortQoS and MTU so that
	// the link checks judge them, but they are not Ports, so the switch
	// checks do not report them a second time (model/outside.go).
	Outside []string
	// outside builds their QoS; Build drops it once links are known.
	outside *switchBuilder
}

// RoCE is the switch's `qos roce` state.
type RoCE struct {
	Enabled Value[bool]
	// Mode is lossless, lossless-single-ipool, lossy, lossy-multi-tc or
	// dci-1 (nvue.md §1.1).
	Mode Value[string]
}

// Lossless reports whether the RoCE mode turns PFC on (LosslessMode).
func (r RoCE) Lossless() bool { return r.Enabled.V && LosslessMode(r.Mode.V) }

// QoS is the effective classification and queueing of a set of ports.
type QoS struct {
	// Profiles in effect for the mapping, pfc, congestion-control and
	// egress-scheduler features; the origin is the binding.
	MappingProfile, PFCProfile, ECNProfile, SchedProfile Value[string]
	// Trust is l2, l3, both or port.
	Trust Value[string]
	// DSCP maps DSCP → switch priority.
	DSCP [64]Value[int]
	// PCP maps 802.1p (PCP) → switch priority; it classifies what a port
	// trusting l2 receives.
	PCP [8]Value[int]
	// PFC is per switch priority; PFCRx and PFCTx apply to all of them.
	PFC          [8]Value[bool]
	PFCRx, PFCTx Value[bool]
	// TC maps switch priority → traffic class (egress queue).
	TC [8]Value[int]
	// ECN is per traffic class, with its thresholds in bytes.
	ECN            [8]Value[bool]
	ECNMin, ECNMax [8]Value[int]
	// ECNMode is "absolute" (byte thresholds) or "relative" (dynamic ECN:
	// ECNMinPct/ECNMaxPct of the buffer allowance, byte thresholds ignored).
	ECNMode              [8]Value[string]
	ECNMinPct, ECNMaxPct [8]Value[int]
	// Sched is "strict" or "dwrr" per traffic class; SchedBW the DWRR percent.
	Sched   [8]Value[string]
	SchedBW [8]Value[int]
	// CableLength is the cable length in metres the PFC headroom is sized
	// for; CableFrom names the setting it comes from: "roce" (qos roce
	// cable-length) or a pfc profile (model/flowctl.go).
	CableLength Value[int]
	CableFrom   string
}

// Operational is the switch's own report of its RoCE state, every value at
// its own row of `nv show qos roce` (or the per-interface status view).
type Operational struct {
	File         string
	PerInterface bool
	Enabled      Value[bool]
	Mode         Value[string]
	Trust        Value[string]
	PFC          Value[[]int]
	PFCRx, PFCTx Value[bool]
	// ECNTCs are `enabled-tc`; ECNMin/ECNMax the printed thresholds.
	ECNTCs         Value[[]int]
	ECNMin, ECNMax Value[nvue.Size]
	// DSCPToSP and SPToTC are the two tables, per row; Sched is the
	// scheduler-weight column per switch priority ("strict", or "dwrr" with
	// its percent in SchedBW).
	DSCPToSP map[int]Value[int]
	SPToTC   map[int]Value[int]
	Sched    map[int]Value[string]
	SchedBW  map[int]int
	Pools    []nvue.RocePool
	// MappingPos, ETSPos and PoolPos locate the tables' titles.
	MappingPos, ETSPos, PoolPos source.Pos
}

// switchBuilder carries the file name and collects problems.
type switchBuilder struct {
	file     string
	problems []*source.Error
	// profiles indexes the profiles below each qos feature (profile).
	profiles map[*nvue.Node]map[string]*nvue.Node
	// seen holds the texts of problems[:seenN] (dedupeFrom).
	seen  map[string]bool
	seenN int
	// ifaces, qosRoot, global and shared (bindings → QoS) outlive
	// BuildSwitch until Build has given QoS to the ports outside the
	// inventory's list that RoCE NICs plug into (model/outside.go).
	ifaces  *ifaceSet
	qosRoot *nvue.Node
	global  *QoS
	shared  map[[4]string]*QoS
}

// boundQoS is the QoS of a set of bindings, built once per distinct set:
// ports bound alike share it.
func (b *switchBuilder) boundQoS(bd binding) *QoS {
	key := [4]string{bd.mapping.V, bd.pfc.V, bd.ecn.V, bd.sched.V}
	if q, ok := b.shared[key]; ok {
		return q
	}
	saved := len(b.problems)
	q := b.portQoS(b.global, b.qosRoot, bd)
	b.dedupeFrom(saved)
	b.shared[key] = q
	for _, v := range []struct {
		feature string
		val     Value[string]
	}{{"mapping", bd.mapping}, {"pfc", bd.pfc}, {"congestion-control", bd.ecn}, {"egress-scheduler", bd.sched}} {
		if v.val.V != DefaultProfile && b.profile(b.qosRoot.Child(v.feature), v.val.V) == nil {
			b.problems = append(b.problems, source.Errorf(b.file, v.val.Origin.Pos.Line,
				"qos %s profile %q is bound but not defined", v.feature, v.val.V))
		}
	}
	return q
}

func (b *switchBuilder) pos(n *nvue.Node) source.Pos {
	return source.Pos{File: b.file, Line: n.Line, Column: n.Column}
}

func (b *switchBuilder) problem(n *nvue.Node, format string, a ...any) {
	b.problems = append(b.problems, source.Errorf(b.file, n.Line, format, a...))
}

func (b *switchBuilder) boolOf(n *nvue.Node) (Value[bool], bool) {
	v, ok := ParseBool(n.Value)
	if !ok {
		b.problem(n, "%s: %q is not an NVUE boolean (on/off, enable/disable, enabled/disabled)", n.Key, n.Value)
		return Value[bool]{}, false
	}
	return Explicit(v, b.pos(n)), true
}

func (b *switchBuilder) intOf(n *nvue.Node, lo, hi int) (Value[int], bool) {
	v, err := strconv.Atoi(n.Value)
	if err != nil || v < lo || v > hi {
		b.problem(n, "%s: %q is not a number in %d-%d", n.Key, n.Value, lo, hi)
		return Value[int]{}, false
	}
	return Explicit(v, b.pos(n)), true
}

// expandKeys calls f for each integer a child's key stands for.
func (b *switchBuilder) eachInt(parent *nvue.Node, lo, hi int, f func(i int, n *nvue.Node)) {
	if parent == nil {
		return
	}
	for _, c := range parent.Children {
		ids, err := ExpandInts(c.Key, lo, hi)
		if err != nil {
			b.problem(c, "%s: %v", c.Key, err)
			continue
		}
		for _, i := range ids {
			f(i, c)
		}
	}
}

// members is an NVUE collection: `switch-priority: {'3': {}}` in YAML, or a
// scalar list `switch-priority: 3,5`.
func (b *switchBuilder) members(n *nvue.Node, lo, hi int) []int {
	var out []int
	if n.IsLeaf {
		ids, err := ExpandInts(n.Value, lo, hi)
		if err != nil {
			b.problem(n, "%s: %v", n.Key, err)
		}
		out = append(out, ids...)
	}
	b.eachInt(n, lo, hi, func(i int, _ *nvue.Node) { out = append(out, i) })
	return out
}

// profile finds a profile object below parent (qos/mapping, qos/pfc, ...),
// whose key may be a list: the first key that names it. Each parent's keys
// are expanded once into an index, since every distinct binding looks up
// its profiles and a switch may define a profile per port group.
func (b *switchBuilder) profile(parent *nvue.Node, name string) *nvue.Node {
	if parent == nil {
		return nil
	}
	idx, ok := b.profiles[parent]
	if !ok {
		idx = map[string]*nvue.Node{}
		for _, c := range parent.Children {
			names, err := ExpandNames(c.Key)
			if err != nil {
				continue
			}
			for _, n := range names {
				if _, dup := idx[n]; !dup {
					idx[n] = c
				}
			}
		}
		if b.profiles == nil {
			b.profiles = map[*nvue.Node]map[string]*nvue.Node{}
		}
		b.profiles[parent] = idx
	}
	return idx[name]
}

var trustValues = map[string]bool{"l2": true, "l3": true, "port": true, "both": true}

func (b *switchBuilder) applyMapping(q *QoS, n *nvue.Node) {
	if n == nil {
		return
	}
	if t := n.Child("trust"); t != nil {
		if trustValues[t.Value] {
			q.Trust = Explicit(t.Value, b.pos(t))
		} else {
			// "You can specify l2, l3, port, or both." (nvue.md §1.5)
			b.problem(t, "trust %q: NVUE accepts l2, l3, port or both", t.Value)
		}
	}
	b.eachInt(n.Child("dscp"), 0, 63, func(d int, c *nvue.Node) {
		if sp := c.Child("switch-priority"); sp != nil {
			if v, ok := b.intOf(sp, 0, 7); ok {
				q.DSCP[d] = v
			}
		}
	})
	// `nv set qos mapping default-global pcp 2,3,4 switch-priority 0`
	// (CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-Switch-Ports/
	// Quality-of-Service/_index.md, Trust 802.1p Marking).
	b.eachInt(n.Child("pcp"), 0, 7, func(pcp int, c *nvue.Node) {
		if sp := c.Child("switch-priority"); sp != nil {
			if v, ok := b.intOf(sp, 0, 7); ok {
				q.PCP[pcp] = v
			}
		}
	})
}

func (b *switchBuilder) applyPFC(q *QoS, n *nvue.Node) {
	if n == nil {
		return
	}
	if sp := n.Child("switch-priority"); sp != nil {
		// An explicit set replaces the default one: the change-RoCE recipe
		// moves PFC with a single `nv set qos pfc default-global
		// switch-priority 2` (nvue.md §1.10).
		on := map[int]bool{}
		for _, p := range b.members(sp, 0, 7) {
			on[p] = true
		}
		for p := range q.PFC {
			q.PFC[p] = Explicit(on[p], b.pos(sp))
		}
	}
	if v := n.Child("rx"); v != nil {
		if bv, ok := b.boolOf(v); ok {
			q.PFCRx = bv
		}
	}
	if v := n.Child("cable-length"); v != nil {
		if iv, ok := b.intOf(v, 1, 100000); ok {
			q.CableLength, q.CableFrom = iv, cableFromPFC
		}
	}
	if v := n.Child("tx"); v != nil {
		if bv, ok := b.boolOf(v); ok {
			q.PFCTx = bv
		}
	}
}

func (b *switchBuilder) applyECN(q *QoS, n *nvue.Node) {
	if n == nil {
		return
	}
	b.eachInt(n.Child("traffic-class"), 0, 7, func(tc int, c *nvue.Node) {
		// Listing a class enables ECN on it: "The commands enable ECN on
		// egress queue 4, 5, and 7" for commands that set only thresholds
		// and red (QoS518, Congestion Control).
		q.ECN[tc] = Explicit(true, b.pos(c))
		if v := c.Child("ecn"); v != nil {
			if bv, ok := b.boolOf(v); ok {
				q.ECN[tc] = bv
			}
		}
		b.applyECNMode(q, tc, c)
		if v := c.Child("min-threshold"); v != nil {
			if iv, ok := b.intOf(v, 0, 1<<31-1); ok {
				q.ECNMin[tc] = iv
			}
		}
		if v := c.Child("max-threshold"); v != nil {
			if iv, ok := b.intOf(v, 0, 1<<31-1); ok {
				q.ECNMax[tc] = iv
			}
		}
	})
}

// applyECNMode reads dynamic ECN: `traffic-class 3 mode relative`,
// `min-threshold-percent 20`, `max-threshold-percent 80`; "When you set
// dynamic ECN mode to relative, the switch hardware ignores any configured
// byte-based thresholds" (QoS518, Dynamic ECN).
func (b *switchBuilder) applyECNMode(q *QoS, tc int, c *nvue.Node) {
	if v := c.Child("mode"); v != nil {
		switch v.Value {
		case "absolute", "relative":
			q.ECNMode[tc] = Explicit(v.Value, b.pos(v))
		default:
			b.problem(v, "congestion-control mode %q: NVUE accepts absolute or relative", v.Value)
		}
	}
	if v := c.Child("min-threshold-percent"); v != nil {
		if iv, ok := b.intOf(v, 0, 100); ok {
			q.ECNMinPct[tc] = iv
		}
	}
	if v := c.Child("max-threshold-percent"); v != nil {
		if iv, ok := b.intOf(v, 0, 100); ok {
			q.ECNMaxPct[tc] = iv
		}
	}
}

func (b *switchBuilder) applyQueueMap(q *QoS, n *nvue.Node) {
	if n == nil {
		return
	}
	b.eachInt(n.Child("switch-priority"), 0, 7, func(sp int, c *nvue.Node) {
		if v := c.Child("traffic-class"); v != nil {
			if iv, ok := b.intOf(v, 0, 7); ok {
				q.TC[sp] = iv
			}
		}
	})
}

func (b *switchBuilder) applySched(q *QoS, n *nvue.Node) {
	if n == nil {
		return
	}
	b.eachInt(n.Child("traffic-class"), 0, 7, func(tc int, c *nvue.Node) {
		if v := c.Child("mode"); v != nil {
			switch v.Value {
			case "strict", "dwrr":
				q.Sched[tc] = Explicit(v.Value, b.pos(v))
			default:
				b.problem(v, "egress-scheduler mode %q: NVUE accepts strict or dwrr", v.Value)
			}
		}
		if v := c.Child("bw-percent"); v != nil {
			if iv, ok := b.intOf(v, 0, 100); ok {
				q.SchedBW[tc] = iv
			}
		}
	})
}

// binding is the set of profiles a port uses.
type binding struct {
	mapping, pfc, ecn, sched Value[string]
}

// BuildSwitch builds the effective model of one switch. ports restricts the
// ports checked (NVUE range syntax); empty means every swp port in the
// configuration.
func BuildSwitch(name, role string, cfg *nvue.Config, show *nvue.RoceShow, ports []string) (*Switch, []*source.Error) {
	sw := &Switch{Name: name, Role: role, PortQoS: map[string]*QoS{}, PortAR: map[string]Value[bool]{}, MTU: map[string]Value[int]{}, ECMP: map[string]Value[bool]{}}
	if show != nil {
		sw.Oper = operational(show)
	}
	if cfg == nil || cfg.Root == nil {
		return sw, nil
	}
	b := &switchBuilder{file: cfg.File}
	sw.ConfigFile, sw.Version = cfg.File, cfg.Version
	sw.Syntax = detectSyntax(cfg)
	root := cfg.Root
	sw.RoCE = b.roce(root.Get("qos", "roce"))

	// Interfaces (model/interfaces.go): which ports are checked, their
	// bindings, MTU and adaptive routing.
	binds := b.interfaces(sw, root, ports)
	b.platform(sw, cfg)

	qosRoot := root.Child("qos")
	global := b.globalQoS(sw.RoCE, Release(sw.Version), qosRoot)
	sw.Pools = b.trafficPools(qosRoot)
	def := Defaulted(DefaultProfile, "no profile binding")
	b.qosRoot, b.global = qosRoot, global
	// Problems are collected once, from the global build; port builds with
	// the same profiles would only repeat them.
	sw.Global = b.portQoS(global, qosRoot, binding{def, def, def, def})
	b.shared = map[[4]string]*QoS{{DefaultProfile, DefaultProfile, DefaultProfile, DefaultProfile}: sw.Global}
	for _, p := range sw.Ports {
		sw.PortQoS[p] = b.boundQoS(*binds[p])
	}
	sw.outside = b

	sw.ECMP = b.ecmp(root.Get("system", "forwarding", "ecmp-hash"))
	sw.Forwarding = b.forwarding(root.Get("system", "forwarding"))
	sw.Trim = b.packetTrim(sw, root)
	return sw, uniqueProblems(b.problems)
}

// dedupeFrom drops the problems appended after from that repeat earlier
// ones. The texts of the problems before from are remembered across calls
// (seen, seenN), so a switch with many distinct bindings costs each problem
// once, not once per binding.
func (b *switchBuilder) dedupeFrom(from int) {
	if b.seen == nil {
		b.seen = map[string]bool{}
	}
	for _, p := range b.problems[b.seenN:from] {
		b.seen[p.Error()] = true
	}
	out := b.problems[:from]
	for _, p := range b.problems[from:] {
		if !b.seen[p.Error()] {
			b.seen[p.Error()] = true
			out = append(out, p)
		}
	}
	b.problems, b.seenN = out, len(out)
}

// dedupeProblems drops problems appended after from that repeat earlier ones.
func dedupeProblems(ps []*source.Error, from int) []*source.Error {
	seen := map[string]bool{}
	for _, p := range ps[:from] {
		seen[p.Error()] = true
	}
	out := ps[:from]
	for _, p := range ps[from:] {
		if !seen[p.Error()] {
			seen[p.Error()] = true
			out = append(out, p)
		}
	}
	return out
}

func uniqueProblems(ps []*source.Error) []*source.Error { return dedupeProblems(ps, 0) }

// stateLeaf is `enable` (≤5.14) or `state` (5.15+).
func stateLeaf(n *nvue.Node) *nvue.Node {
	if s := n.Child("state"); s != nil {
		return s
	}
	return n.Child("enable")
}

func (b *switchBuilder) roce(n *nvue.Node) RoCE {
	r := RoCE{
		Enabled: Defaulted(false, "qos roce is not configured (off by default)"),
		Mode:    Defaulted("lossless", "NVUE defaults to RoCE lossless"),
	}
	if n == nil {
		return r
	}
	// `nv set qos roce` alone turns RoCE on in lossless mode: "The command
	// `nv set qos roce` and `nv set qos roce mode lossless` are equivalent."
	// (nvue.md §1.1)
	r.Enabled = Explicit(true, b.pos(n))
	if st := stateLeaf(n); st != nil {
		if v, ok := b.boolOf(st); ok {
			r.Enabled = v
		}
	}
	if m := n.Child("mode"); m != nil {
		switch m.Value {
		case "lossless", "lossy", "lossless-single-ipool", "lossy-multi-tc", "dci-1":
			r.Mode = Explicit(m.Value, b.pos(m))
		default:
			b.problem(m, "qos roce mode %q is not an NVUE RoCE mode", m.Value)
		}
	}
	return r
}

// ECMPFields are NVUE's ecmp-hash fields and their defaults. The user guide
// table, `nv show system forwarding` and the 5.5.1 applied dump agree that
// the first six are on (nvue.md §2.1).
var ECMPFields = []struct {
	Name string
	On   bool
}{
	{"source-ip", true}, {"destination-ip", true}, {"source-port", true},
	{"destination-port", true}, {"ip-protocol", true}, {"ipv6-label", true},
	{"ingress-interface", false}, {"gtp-teid", false}, {"inner-ip-protocol", false},
	{"inner-source-ip", false}, {"inner-destination-ip", false}, {"inner-source-port", false},
	{"inner-destination-port", false}, {"inner-ipv6-label", false},
}

func (b *switchBuilder) ecmp(n *nvue.Node) map[string]Value[bool] {
	out := map[string]Value[bool]{}
	for _, f := range ECMPFields {
		out[f.Name] = Defaulted(f.On, "ecmp-hash default")
		if n == nil {
			continue
		}
		if c := n.Child(f.Name); c != nil {
			if v, ok := b.boolOf(c); ok {
				out[f.Name] = v
			}
		}
	}
	return out
}

func detectSyntax(cfg *nvue.Config) Syntax {
	if s, ok := syntaxOfVersion(cfg.Version); ok {
		return s
	}
	// Without a header (command form), the file's own spelling tells.
	old, seen := false, false
	var walk func(n *nvue.Node)
	walk = func(n *nvue.Node) {
		if seen {
			return
		}
		if n.IsLeaf {
			switch {
			case n.Key == "enable" && (n.Value == "on" || n.Value == "off"):
				old, seen = true, true
			case n.Key == "state" && (n.Value == "enabled" || n.Value == "disabled"):
				seen = true
			}
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(cfg.Root)
	if old {
		return Syntax514
	}
	return Syntax515
}

func operational(s *nvue.RoceShow) *Operational {
	o := &Operational{File: s.File, PerInterface: s.PerInterface, Pools: s.Pools}
	pos := func(line int) source.Pos { return source.Pos{File: s.File, Line: line} }
	leaf := func(k string) (nvue.Field, bool) {
		f, ok := s.Leaves[k]
		return f, ok && f.Value() != "" && f.Value() != "-"
	}
	for _, k := range []string{"state", "enable"} {
		if f, ok := leaf(k); ok {
			if v, ok := ParseBool(f.Value()); ok {
				o.Enabled = Explicit(v, pos(f.Line))
			}
			break
		}
	}
	if f, ok := leaf("mode"); ok {
		o.Mode = Explicit(f.Value(), pos(f.Line))
	}
	if f, ok := leaf("trust.trust-mode"); ok {
		o.Trust = Explicit(f.Value(), pos(f.Line))
	}
	if f, ok := s.Leaves["pfc.pfc-priority"]; ok {
		// `pfc-priority -` (lossy-multi-tc) is no priority at all.
		ps, err := ExpandInts(f.Value(), 0, 7)
		if v := f.Value(); v == "-" || v == "" {
			ps, err = nil, nil
		}
		if err == nil {
			o.PFC = Explicit(ps, pos(f.Line))
		}
	}
	for k, dst := range map[string]*Value[bool]{"pfc.rx-enabled": &o.PFCRx, "pfc.tx-enabled": &o.PFCTx} {
		if f, ok := leaf(k); ok {
			if v, ok := ParseBool(f.Value()); ok {
				*dst = Explicit(v, pos(f.Line))
			}
		}
	}
	if f, ok := leaf("congestion-control.enabled-tc"); ok {
		if ts, err := ExpandInts(f.Value(), 0, 7); err == nil {
			o.ECNTCs = Explicit(ts, pos(f.Line))
		}
	}
	for k, dst := range map[string]*Value[nvue.Size]{"congestion-control.min-threshold": &o.ECNMin, "congestion-control.max-threshold": &o.ECNMax} {
		if f, ok := leaf(k); ok {
			if v, ok := nvue.ParseSize(f.Value()); ok {
				*dst = Explicit(v, pos(f.Line))
			}
		}
	}
	operTables(o, s, pos)
	return o
}

func operTables(o *Operational, s *nvue.RoceShow, pos func(int) source.Pos) {
	if s.DSCPToSP != nil {
		o.DSCPToSP = map[int]Value[int]{}
		for d, sp := range s.DSCPToSP {
			o.DSCPToSP[d] = Explicit(sp, pos(s.DSCPLines[d]))
		}
		o.MappingPos = pos(s.MappingLine)
	}
	if s.SPToTC != nil {
		o.SPToTC, o.Sched, o.SchedBW = map[int]Value[int]{}, map[int]Value[string]{}, map[int]int{}
		for sp, tc := range s.SPToTC {
			o.SPToTC[sp] = Explicit(tc, pos(s.SPLines[sp]))
			if m, bw, ok := schedulerWeight(s.SPScheduler[sp]); ok {
				o.Sched[sp], o.SchedBW[sp] = Explicit(m, pos(s.SPLines[sp])), bw
			}
		}
		o.ETSPos = pos(s.ETSLine)
	}
	if s.PoolLine > 0 {
		o.PoolPos = pos(s.PoolLine)
	}
}

var dwrrRe = regexp.MustCompile(`^(?i:dwrr)-(\d{1,3})%$`)

// schedulerWeight reads `DWRR-50%`/`dwrr-50%` and `strict-priority`/`strict
// priority` (global and per-interface spellings of the RoCE pages).
func schedulerWeight(s string) (mode string, bw int, ok bool) {
	if m := dwrrRe.FindStringSubmatch(s); m != nil {
		bw, _ = strconv.Atoi(m[1])
		return "dwrr", bw, true
	}
	switch strings.ToLower(s) {
	case "strict-priority", "strict priority", "strict":
		return "strict", 0, true
	}
	return "", 0, false
}

// SwitchCounters are a switch's per-port counters from gNMI
// (devices/<switch>/gnmi-counters.json): pause frames per switch priority,
// ECN marks and no-buffer drops per egress queue. They are cumulative or,
// when Delta is set, their growth during the Interval between two samples.
type SwitchCounters struct {
	File     string
	Delta    bool
	Interval time.Duration
	Ports    map[string]*SwitchPortCounters
	// TransmitSeen, with Delta, is that the earlier sample counted some
	// queue's transmit-pkts above 0: the switch reports the leaf, so a
	// Transmit of 0 is no traffic rather than a leaf it does not send.
	TransmitSeen bool
}

// SwitchPortCounters are one switch port's counters.
type SwitchPortCounters struct {
	Prio [8]PrioCounters
	// ECNMarked and Drops are per traffic class (egress queue).
	ECNMarked, Drops [8]Value[uint64]
	// Transmit is each egress queue's transmit-pkts ("Number of
	// transmitted packets in the egress queue of an interface",
	// CumulusNetworks/docs content/cumulus-linux-516/
	// Monitoring-and-Troubleshooting/gNMI Streaming.md, QoS metrics):
	// whether traffic passed at all, which tells an idle interval from a
	// clean one.
	Transmit [8]Value[uint64]
}

// BuildSwitchCounters turns the gNMI view into the model's. Cumulus names its
// egress queues by traffic class ("0".."7", nvue.md §4); other names are
// not queues the model knows and are left out. in-pause counts PFC frames
// received, out-pause frames sent.
func BuildSwitchCounters(file string, c *gnmifile.Counters) *SwitchCounters {
	if c == nil {
		return nil
	}
	sc := &SwitchCounters{File: file, Ports: map[string]*SwitchPortCounters{}}
	port := func(name string) *SwitchPortCounters {
		p, ok := sc.Ports[name]
		if !ok {
			p = &SwitchPortCounters{}
			sc.Ports[name] = p
		}
		return p
	}
	for _, k := range c.QueueKeys() {
		tc, err := strconv.Atoi(k.Queue)
		if err != nil || tc < 0 || tc > 7 {
			continue
		}
		q := c.Queues[k]
		p := port(k.Interface)
		p.ECNMarked[tc] = Explicit(q.ECNMarkedPkts, q.Pos)
		p.Drops[tc] = Explicit(q.NoBufferDroppedPkts, q.Pos)
		p.Transmit[tc] = Explicit(q.TransmitPkts, q.Pos)
	}
	for _, k := range c.PrioKeys() {
		v := c.Priorities[k]
		pc := &port(k.Interface).Prio[k.Priority] // ParseCounters keeps 0..7
		pc.RxPause = Explicit(v.InPausePkts, v.Pos)
		pc.TxPause = Explicit(v.OutPausePkts, v.Pos)
		pc.RxPauseDuration = Explicit(v.InPauseDuration, v.Pos)
		pc.TxPauseDuration = Explicit(v.OutPauseDuration, v.Pos)
	}
	return sc
}
