// Package nvuemodel is the NVUE builder: it reads a Cumulus Linux switch's
// NVUE configuration and `nv show` outputs (parsed by collectors/nvue) into
// the model's vendor-neutral switch types, every value with its origin, a
// file line or one of NVUE's documented defaults (named in the model:
// model/roce_modes.go, model/profiles.go). fabric.Build calls it per switch;
// what a check reads is the model, never an NVUE node.
package nvuemodel

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/nvrange"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

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
	// Switch until fabric.Build has given QoS to the ports outside the
	// inventory's list that RoCE NICs plug into (model/outside.go).
	ifaces  *ifaceSet
	qosRoot *nvue.Node
	global  *model.QoS
	shared  map[[4]string]*model.QoS
	// kept is what the built switch keeps for AddPort (keep).
	kept *outsidePorts
}

// boundQoS is the QoS of a set of bindings, built once per distinct set:
// ports bound alike share it.
func (b *switchBuilder) boundQoS(bd binding) *model.QoS {
	if q, ok := b.shared[bd.key()]; ok {
		return q
	}
	saved := len(b.problems)
	q := b.portQoS(b.global, b.qosRoot, bd)
	b.dedupeFrom(saved)
	b.shared[bd.key()] = q
	b.problems = append(b.problems, b.undefinedProfiles(bd)...)
	return q
}

func (bd binding) key() [4]string { return [4]string{bd.mapping.V, bd.pfc.V, bd.ecn.V, bd.sched.V} }

// undefinedProfiles are the problems of bd's profiles that the
// configuration does not define.
func (b *switchBuilder) undefinedProfiles(bd binding) []*source.Error {
	var out []*source.Error
	for _, v := range []struct {
		feature string
		val     model.Value[string]
	}{{"mapping", bd.mapping}, {"pfc", bd.pfc}, {"congestion-control", bd.ecn}, {"egress-scheduler", bd.sched}} {
		if v.val.V != model.DefaultProfile && b.profile(b.qosRoot.Child(v.feature), v.val.V) == nil {
			out = append(out, source.Errorf(b.file, v.val.Origin.Pos().Line,
				"qos %s profile %q is bound but not defined", v.feature, v.val.V))
		}
	}
	return out
}

func (b *switchBuilder) pos(n *nvue.Node) source.Pos {
	return source.Pos{File: b.file, Line: n.Line, Column: n.Column}
}

func (b *switchBuilder) problem(n *nvue.Node, format string, a ...any) {
	b.problems = append(b.problems, source.Errorf(b.file, n.Line, format, a...))
}

func (b *switchBuilder) boolOf(n *nvue.Node) (model.Value[bool], bool) {
	v, ok := model.ParseBool(n.Value)
	if !ok {
		b.problem(n, "%s: %q is not an NVUE boolean (on/off, enable/disable, enabled/disabled)", n.Key, n.Value)
		return model.Value[bool]{}, false
	}
	return model.Explicit(v, b.pos(n)), true
}

func (b *switchBuilder) intOf(n *nvue.Node, lo, hi int) (model.Value[int], bool) {
	v, err := strconv.Atoi(n.Value)
	if err != nil || v < lo || v > hi {
		b.problem(n, "%s: %q is not a number in %d-%d", n.Key, n.Value, lo, hi)
		return model.Value[int]{}, false
	}
	return model.Explicit(v, b.pos(n)), true
}

// expandKeys calls f for each integer a child's key stands for.
func (b *switchBuilder) eachInt(parent *nvue.Node, lo, hi int, f func(i int, n *nvue.Node)) {
	if parent == nil {
		return
	}
	for _, c := range parent.Children {
		ids, err := nvrange.ExpandInts(c.Key, lo, hi)
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
		ids, err := nvrange.ExpandInts(n.Value, lo, hi)
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
			names, err := nvrange.ExpandNames(c.Key)
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

func (b *switchBuilder) applyMapping(q *model.QoS, n *nvue.Node) {
	if n == nil {
		return
	}
	if t := n.Child("trust"); t != nil {
		if trustValues[t.Value] {
			q.Trust = model.Explicit(t.Value, b.pos(t))
		} else {
			// "You can specify l2, l3, port, or both." (CumulusNetworks/docs content/
			// cumulus-linux-514/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md;
			// quote not verified)
			b.problem(t, "trust %q: NVUE accepts l2, l3, port or both", t.Value)
		}
	}
	b.eachInt(n.Child("dscp"), 0, 63, func(d int, c *nvue.Node) {
		if sp := c.Child("switch-priority"); sp != nil {
			if v, ok := b.intOf(sp, 0, 7); ok {
				q.DSCP.Set(d, v)
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

func (b *switchBuilder) applyPFC(q *model.QoS, n *nvue.Node) {
	if n == nil {
		return
	}
	if sp := n.Child("switch-priority"); sp != nil {
		// An explicit set replaces the default one: the change-RoCE recipe
		// moves PFC with a single `nv set qos pfc default-global
		// switch-priority 2` (CumulusNetworks/docs content/cumulus-linux-515/
		// Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md).
		on := map[int]bool{}
		for _, p := range b.members(sp, 0, 7) {
			on[p] = true
		}
		for p := range q.PFC {
			q.PFC[p] = model.Explicit(on[p], b.pos(sp))
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

func (b *switchBuilder) applyECN(q *model.QoS, n *nvue.Node) {
	if n == nil {
		return
	}
	b.eachInt(n.Child("traffic-class"), 0, 7, func(tc int, c *nvue.Node) {
		// Listing a class enables ECN on it: "The commands enable ECN on
		// egress queue 4, 5, and 7" for commands that set only thresholds
		// and red (QoS518, Congestion Control).
		q.ECN[tc] = model.Explicit(true, b.pos(c))
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
func (b *switchBuilder) applyECNMode(q *model.QoS, tc int, c *nvue.Node) {
	if v := c.Child("mode"); v != nil {
		switch v.Value {
		case "absolute", "relative":
			q.ECNMode[tc] = model.Explicit(v.Value, b.pos(v))
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

func (b *switchBuilder) applyQueueMap(q *model.QoS, n *nvue.Node) {
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

func (b *switchBuilder) applySched(q *model.QoS, n *nvue.Node) {
	if n == nil {
		return
	}
	b.eachInt(n.Child("traffic-class"), 0, 7, func(tc int, c *nvue.Node) {
		if v := c.Child("mode"); v != nil {
			switch v.Value {
			case "strict", "dwrr":
				q.Sched[tc] = model.Explicit(v.Value, b.pos(v))
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
	mapping, pfc, ecn, sched model.Value[string]
}

// Switch builds the effective model of one switch. ports restricts the
// ports checked (NVUE range syntax); empty means every swp port in the
// configuration.
func Switch(name, role string, cfg *nvue.Config, show *nvue.RoceShow, ports []string) (*model.Switch, []*source.Error) {
	sw := &model.Switch{Name: name, Role: role, PortAR: map[string]model.Value[bool]{}, ECMP: map[string]model.Value[bool]{}}
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

	// Interfaces (interfaces.go): which ports are checked, their
	// bindings, MTU and adaptive routing.
	binds := b.interfaces(sw, root, ports)
	b.platform(sw, cfg)

	qosRoot := root.Child("qos")
	global := b.globalQoS(sw.RoCE, model.Release(sw.Version), qosRoot)
	sw.Pools = b.trafficPools(qosRoot)
	b.qosRoot, b.global = qosRoot, global
	// Problems are collected once, from the global build; port builds with
	// the same profiles would only repeat them. With every feature bound
	// to default-global, portQoS would return a copy of global itself
	// (globalQoS binds all four to def): the switch keeps global, and
	// every port build copies it, so it is never written again (a QoS is
	// 10 KB, one per switch while the fabric is read: TestLintScale).
	sw.Global = global
	b.shared = map[[4]string]*model.QoS{{model.DefaultProfile, model.DefaultProfile, model.DefaultProfile, model.DefaultProfile}: sw.Global}
	sw.PortQoS.Grow(len(sw.Ports))
	for _, p := range sw.Ports {
		sw.PortQoS.Set(p, b.boundQoS(*binds[p]))
	}
	sw.SetConfigPorts(b)

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

func (b *switchBuilder) roce(n *nvue.Node) model.RoCE {
	r := model.RoCE{
		Enabled: model.Defaulted(false, "qos roce is not configured (off by default)"),
		Mode:    model.Defaulted("lossless", "NVUE defaults to RoCE lossless"),
	}
	if n == nil {
		return r
	}
	// `nv set qos roce` alone turns RoCE on in lossless mode: "The command
	// `nv set qos roce` and `nv set qos roce mode lossless` are equivalent."
	// (CumulusNetworks/docs content/cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md)
	r.Enabled = model.Explicit(true, b.pos(n))
	if st := stateLeaf(n); st != nil {
		if v, ok := b.boolOf(st); ok {
			r.Enabled = v
		}
	}
	if m := n.Child("mode"); m != nil {
		switch m.Value {
		case "lossless", "lossy", "lossless-single-ipool", "lossy-multi-tc", "dci-1":
			r.Mode = model.Explicit(m.Value, b.pos(m))
		default:
			b.problem(m, "qos roce mode %q is not an NVUE RoCE mode", m.Value)
		}
	}
	return r
}

func (b *switchBuilder) ecmp(n *nvue.Node) map[string]model.Value[bool] {
	out := map[string]model.Value[bool]{}
	for _, f := range model.ECMPFields {
		out[f.Name] = model.Defaulted(f.On, "ecmp-hash default")
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

func detectSyntax(cfg *nvue.Config) model.Syntax {
	if r, ok := model.ParseCLRelease(cfg.Version); ok {
		return r.Syntax()
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
		return model.Syntax514
	}
	return model.Syntax515
}

func operational(s *nvue.RoceShow) *model.Operational {
	// The show's strings are cut from the whole file's text: cloned, the
	// model keeps only what it holds, not every roce-status file.
	st := &model.OperState{Pools: rocePools(s.Pools)}
	o := &model.Operational{File: s.File, PerInterface: s.PerInterface, OperState: st}
	row := func(f nvue.Field) model.OperRow[string] {
		return model.OperRow[string]{V: strings.Clone(f.Value()), Line: f.Line, Known: true}
	}
	leaf := func(k string) (nvue.Field, bool) {
		f, ok := s.Leaves[k]
		return f, ok && f.Value() != "" && f.Value() != "-"
	}
	flag := func(k string, dst *model.OperRow[bool]) {
		if f, ok := leaf(k); ok {
			if v, ok := model.ParseBool(f.Value()); ok {
				*dst = model.OperRow[bool]{V: v, Line: f.Line, Known: true}
			}
		}
	}
	for _, k := range []string{"state", "enable"} {
		if _, ok := leaf(k); ok {
			flag(k, &st.Enabled)
			break
		}
	}
	if f, ok := leaf("mode"); ok {
		st.Mode = row(f)
	}
	if f, ok := leaf("trust.trust-mode"); ok {
		st.Trust = row(f)
	}
	if f, ok := s.Leaves["pfc.pfc-priority"]; ok {
		// `pfc-priority -` (lossy-multi-tc) is no priority at all.
		ps, err := nvrange.ExpandInts(f.Value(), 0, 7)
		if v := f.Value(); v == "-" || v == "" {
			ps, err = nil, nil
		}
		if err == nil {
			st.PFC = model.OperRow[[]int]{V: ps, Line: f.Line, Known: true}
		}
	}
	flag("pfc.rx-enabled", &st.PFCRx)
	flag("pfc.tx-enabled", &st.PFCTx)
	if f, ok := leaf("congestion-control.enabled-tc"); ok {
		if ts, err := nvrange.ExpandInts(f.Value(), 0, 7); err == nil {
			st.ECNTCs = model.OperRow[[]int]{V: ts, Line: f.Line, Known: true}
		}
	}
	for k, dst := range map[string]*model.OperRow[model.ByteSize]{"congestion-control.min-threshold": &st.ECNMin, "congestion-control.max-threshold": &st.ECNMax} {
		if f, ok := leaf(k); ok {
			if v, ok := nvue.ParseSize(f.Value()); ok {
				*dst = model.OperRow[model.ByteSize]{V: model.ByteSize{Bytes: v.Bytes, Tol: v.Tol}, Line: f.Line, Known: true}
			}
		}
	}
	operTables(st, s)
	return o
}

// rocePools copies the pool table's rows into the model's.
func rocePools(ps []nvue.RocePool) []model.RocePool {
	if ps == nil {
		return nil
	}
	out := make([]model.RocePool, len(ps))
	for i, p := range ps {
		out[i] = model.RocePool{Name: strings.Clone(p.Name), Mode: strings.Clone(p.Mode), Size: strings.Clone(p.Size),
			SPs: p.SPs, TCs: p.TCs, Line: p.Line}
	}
	return out
}

// operTables reads the view's two tables into o, each row table one the
// process shares (rowTables.of).
func operTables(o *model.OperState, s *nvue.RoceShow) {
	// A row outside the DSCPs (0-63) or the switch priorities (0-7) is
	// none a check reads.
	if s.DSCPToSP != nil {
		var dscp [64]model.OperRow[int]
		for d, sp := range s.DSCPToSP {
			if d >= 0 && d < len(dscp) {
				dscp[d] = model.OperRow[int]{V: sp, Line: s.DSCPLines[d], Known: true}
			}
		}
		o.DSCPToSP = dscpTables.of(dscp)
		o.MappingLine = s.MappingLine
	}
	if s.SPToTC != nil {
		var tcs [8]model.OperRow[int]
		var sched [8]model.OperRow[string]
		var bws [8]int
		for sp, tc := range s.SPToTC {
			if sp < 0 || sp >= len(tcs) {
				continue
			}
			tcs[sp] = model.OperRow[int]{V: tc, Line: s.SPLines[sp], Known: true}
			if m, bw, ok := schedulerWeight(s.SPScheduler[sp]); ok {
				sched[sp], bws[sp] = model.OperRow[string]{V: m, Line: s.SPLines[sp], Known: true}, bw
			}
		}
		o.SPToTC, o.Sched, o.SchedBW = tcTables.of(tcs), schedTables.of(sched), bwTables.of(bws)
		o.ETSLine = s.ETSLine
	}
	o.PoolLine = s.PoolLine
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
