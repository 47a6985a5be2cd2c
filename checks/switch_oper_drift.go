package checks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

// operView is one operational view and the configuration it must show:
// `nv show qos roce` and the QoS of a port without bindings (Global), or a
// port's `nv show interface <port> qos roce status` and that port's own
// QoS, its bound profiles applied.
type operView struct {
	o     *model.Operational
	q     *model.QoS
	iface string // "" for the switch-wide view
}

// who names the view in a message: the switch, or the port the finding's
// Interface names.
func (v operView) who() string {
	if v.iface != "" {
		return "the port"
	}
	return "the switch"
}

// operViews are the switch-wide view, when collected, then each checked
// port's that was. missing names the checked ports whose status was not
// collected or could not be read, for one "not collected" finding; with no
// roce-status folder at all the reader's note says so instead.
func operViews(sw *model.Switch) (views []operView, missing []string) {
	if sw.Oper != nil {
		views = append(views, operView{o: sw.Oper, q: sw.Global})
	}
	if sw.OperPorts == nil {
		return views, nil
	}
	var absent, bad []string
	for _, p := range sw.Ports {
		switch o, ok := sw.OperPorts[p]; {
		case !ok:
			absent = append(absent, p)
		case o == nil:
			bad = append(bad, p)
		default:
			views = append(views, operView{o: o, q: sw.PortQoS.At(p), iface: p})
		}
	}
	file := layout.RoceStatusFile("<port>")
	if len(absent) > 0 {
		missing = append(missing, fmt.Sprintf("%s of %s not collected", file, model.CompressNames(absent)))
	}
	if len(bad) > 0 {
		missing = append(missing, fmt.Sprintf("%s of %s unreadable", file, model.CompressNames(bad)))
	}
	return views, missing
}

// operDrift compares each operational view with its configuration table by
// table: mode, trust, PFC, ECN, SP→TC with the scheduler, and the RoCE
// pools. Each difference is a warning at the row of the output that shows
// it. The layouts are those of CumulusNetworks/docs content/cumulus-linux-5{3,12,14,
// 15,18}/Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md.
func operDrift(sw *model.Switch) []Finding {
	views, missing := operViews(sw)
	var out []Finding
	for _, v := range views {
		out = append(out, operViewDrift(sw, v)...)
	}
	if len(missing) > 0 {
		out = append(out, notCollected(sw.Name, missing, "the ports' operational RoCE state"))
	}
	return out
}

func operViewDrift(sw *model.Switch, v operView) []Finding {
	o := v.o
	out := operModeDrift(sw, v)
	if !sw.RoCE.Enabled.V || (o.Enabled.Known && !o.Enabled.V) {
		return out // no RoCE tables to compare
	}
	g := v.q
	drift := func(what, want, got string, at model.Value[string]) {
		out = append(out, Finding{
			Severity: judge.Warning, Device: sw.Name, Interface: v.iface,
			Message:  fmt.Sprintf("%s reports %s %s but its configuration says %s"+notApplied, v.who(), what, got, want),
			Expected: want + " (" + sw.ConfigFile + ")", Actual: got,
			Source: pickPos(at.Origin.Pos(), at.Origin.Pos(), o.File),
		})
	}
	pos := func(v any) model.Value[string] {
		switch x := v.(type) {
		case model.Value[[]int]:
			return model.Value[string]{Origin: x.Origin}
		case model.Value[bool]:
			return model.Value[string]{Origin: x.Origin}
		case model.Value[int]:
			return model.Value[string]{Origin: x.Origin}
		}
		return v.(model.Value[string])
	}
	// The view's rows as Values, each at its line of the view's file.
	trust, pfc, ecnTCs := o.Trust.Value(o.File), o.PFC.Value(o.File), o.ECNTCs.Value(o.File)
	// "trust-mode pcp,dscp" is `trust both`: inferred from the change-RoCE
	// recipe's `nv set qos mapping default-global trust both`.
	if trust.Known && trustShown(g.Trust.V) != "" && trust.V != trustShown(g.Trust.V) {
		drift("trust-mode", trustShown(g.Trust.V), trust.V, trust)
	}
	if cfg := setOf(g.PFC[:]); pfc.Known && !slices.Equal(sorted(pfc.V), cfg) {
		drift("PFC on switch-priority", judge.PrioList(cfg), judge.PrioList(pfc.V), pos(pfc))
	}
	for _, d := range []struct {
		name string
		op   model.Value[bool]
		cfg  bool
	}{{"PFC rx", o.PFCRx.Value(o.File), g.PFCRx.V}, {"PFC tx", o.PFCTx.Value(o.File), g.PFCTx.V}} {
		if d.op.Known && len(setOf(g.PFC[:])) > 0 && d.op.V != d.cfg {
			drift(d.name, onOff(d.cfg), onOff(d.op.V), pos(d.op))
		}
	}
	cfgECN := setOf(g.ECN[:])
	if ecnTCs.Known && !slices.Equal(sorted(ecnTCs.V), cfgECN) {
		drift("ECN on traffic-class", judge.PrioList(cfgECN), judge.PrioList(ecnTCs.V), pos(ecnTCs))
	}
	out = append(out, operThresholdDrift(sw, v, cfgECN)...)
	out = append(out, operETSDrift(sw, v)...)
	out = append(out, operPoolDrift(sw, v)...)
	return out
}

func operModeDrift(sw *model.Switch, v operView) []Finding {
	o := v.o
	cfgMode := "off"
	if sw.RoCE.Enabled.V {
		cfgMode = sw.RoCE.Mode.V
	}
	operMode := ""
	switch {
	case o.Enabled.Known && !o.Enabled.V:
		operMode = "off"
	case o.Mode.Known:
		operMode = o.Mode.V
	}
	if operMode == "" || operMode == cfgMode {
		return nil
	}
	return []Finding{{
		Severity: judge.Warning, Device: sw.Name, Interface: v.iface,
		Message:  fmt.Sprintf("%s runs RoCE %s but its configuration says %s"+notApplied, v.who(), operMode, cfgMode),
		Expected: cfgMode + " (" + sw.ConfigFile + ")", Actual: operMode,
		Source: pickPos(o.Mode.Value(o.File).Origin.Pos(), o.Enabled.Value(o.File).Origin.Pos(), o.File),
	}}
}

// operThresholdDrift compares the printed thresholds with those of the
// configured ECN classes, within the display's rounding. A per-interface
// view is not compared at all: an interface-level view shows what the ASIC
// programmed ("the interface-level command reflects the actual
// hardware-programmed value, which is 159,744 bytes", for a configured
// 150,000, the RoCE515/RoCE518 note on `nv show interface <id> qos
// congestion-control`; the pages' `qos roce status` example prints 153.00
// KB for that default), and how the ASIC rounds is not published, so no
// tolerance can be derived; the model notes this once per switch.
func operThresholdDrift(sw *model.Switch, v operView, tcs []int) []Finding {
	o, g := v.o, v.q
	var out []Finding
	if o.PerInterface || len(tcs) == 0 {
		return nil
	}
	for _, t := range []struct {
		name string
		op   model.Value[model.ByteSize]
		cfg  [8]model.Value[int]
	}{{"ECN min-threshold", o.ECNMin.Value(o.File), g.ECNMin}, {"ECN max-threshold", o.ECNMax.Value(o.File), g.ECNMax}} {
		if !t.op.Known {
			continue
		}
		var want []string
		match := false
		for _, tc := range tcs {
			if g.ECNMode[tc].V == "relative" {
				match = true // byte thresholds are ignored in relative mode
			}
			match = match || t.op.V.Matches(t.cfg[tc].V)
			want = append(want, fmt.Sprintf("%d B on traffic-class %d", t.cfg[tc].V, tc))
		}
		if match {
			continue
		}
		out = append(out, Finding{
			Severity: judge.Warning, Device: sw.Name, Interface: v.iface,
			Message:  fmt.Sprintf("%s reports %s %.0f B but its configuration says %s"+notApplied, v.who(), t.name, t.op.V.Bytes, strings.Join(want, ", ")),
			Expected: strings.Join(want, ", "), Actual: fmt.Sprintf("%.0f B (±%.0f, as printed)", t.op.V.Bytes, t.op.V.Tol),
			Source: pickPos(t.op.Origin.Pos(), t.op.Origin.Pos(), o.File),
		})
	}
	return out
}

// operETSDrift compares each SP→TC row and its scheduler weight (all eight
// globally; the roce and cnp rows per interface).
func operETSDrift(sw *model.Switch, v operView) []Finding {
	o, g := v.o, v.q
	var out []Finding
	if o.SPToTC == nil {
		return nil
	}
	for sp := range o.SPToTC {
		tc := o.SPToTC[sp].Value(o.File)
		if !tc.Known {
			continue
		}
		at := pickPos(tc.Origin.Pos(), o.ETSPos(), o.File)
		if tc.V != g.TC[sp].V {
			out = append(out, Finding{
				Severity: judge.Warning, Device: sw.Name, Interface: v.iface,
				Message:  fmt.Sprintf("%s maps switch-priority %d to traffic-class %d but its configuration says %d"+notApplied, v.who(), sp, tc.V, g.TC[sp].V),
				Expected: fmt.Sprintf("switch-priority %d → traffic-class %s", sp, why(g.TC[sp])),
				Actual:   fmt.Sprintf("switch-priority %d → traffic-class %d", sp, tc.V),
				Source:   at,
			})
			continue
		}
		s := o.Sched[sp].Value(o.File)
		if !s.Known || tc.V < 0 || tc.V > 7 {
			continue
		}
		want, got := schedText(g.Sched[tc.V].V, g.SchedBW[tc.V].V), schedText(s.V, o.SchedBW[sp])
		if want != got {
			out = append(out, Finding{
				Severity: judge.Warning, Device: sw.Name, Interface: v.iface,
				Message:  fmt.Sprintf("%s schedules traffic-class %d %s but its configuration says %s"+notApplied, v.who(), tc.V, got, want),
				Expected: fmt.Sprintf("%s (%s)", want, g.Sched[tc.V].Origin), Actual: got, Source: at,
			})
		}
	}
	return out
}

// operPoolDrift: "Switch priority 3 allocated to RoCE lossless traffic pool
// | Lossy NO | Lossless YES" (RoCE518 default table), which the lossless and
// lossless-single-ipool examples print as a `roce-reserved-egress` pool and
// the lossy-multi-tc example does not. Which classes that pool holds once
// the PFC priority moves is not documented, so only its presence is
// compared there; membership is compared only in the documented layout
// (operPoolMembers).
func operPoolDrift(sw *model.Switch, v operView) []Finding {
	o := v.o
	if o.PoolPos().IsZero() {
		return nil
	}
	at, reserved := o.PoolPos(), ""
	for _, p := range o.Pools {
		if strings.HasPrefix(p.Name, "roce-reserved") {
			at.Line, reserved = p.Line, p.Name
			break
		}
	}
	switch lossless := sw.RoCE.Lossless(); {
	case lossless && reserved == "":
		return []Finding{{
			Severity: judge.Warning, Device: sw.Name, Interface: v.iface,
			Message:  fmt.Sprintf("%s has no RoCE lossless pool but its configuration is RoCE %s"+notApplied, v.who(), sw.RoCE.Mode.V),
			Expected: "a roce-reserved pool", Actual: "none", Source: at,
		}}
	case !lossless && reserved != "":
		return []Finding{{
			Severity: judge.Warning, Device: sw.Name, Interface: v.iface,
			Message:  fmt.Sprintf("%s has the RoCE lossless pool %s but its configuration is RoCE %s"+notApplied, v.who(), reserved, sw.RoCE.Mode.V),
			Expected: "no roce-reserved pool", Actual: reserved, Source: at,
		}}
	case lossless:
		return operPoolMembers(sw, v)
	}
	return nil
}

// operPoolMembers compares which classes the reserved pools hold where
// NVIDIA documents it: a configuration that keeps NVUE's lossless layout
// (PFC on switch-priority 3 alone, 3 → traffic-class 3) has "Switch priority
// 3 allocated to RoCE lossless traffic pool" (RoCE518 default table), which
// the lossless examples print as roce-reserved-ingress switch-priorities 3
// and roce-reserved-egress traffic-class 3. lossless-single-ipool has no
// reserved ingress pool ("combine lossy and lossless traffic on the same
// ingress buffer pool"), so only its egress pool is compared.
func operPoolMembers(sw *model.Switch, v operView) []Finding {
	const sp, tc = 3, 3
	if !slices.Equal(setOf(v.q.PFC[:]), []int{sp}) || v.q.TC[sp].V != tc {
		return nil
	}
	var out []Finding
	check := func(name, what string, members func(model.RocePool) []int, want int) {
		for _, p := range v.o.Pools {
			if p.Name != name || slices.Contains(members(p), want) {
				continue
			}
			at := v.o.PoolPos()
			at.Line = p.Line
			out = append(out, Finding{
				Severity: judge.Warning, Device: sw.Name, Interface: v.iface,
				Message: fmt.Sprintf("%s's pool %s holds %s %s, not %d, but its configuration keeps PFC on switch-priority %d in traffic-class %d"+notApplied,
					v.who(), name, what, model.IntList(members(p)), want, sp, tc),
				Expected: fmt.Sprintf("%s %s includes %d", name, what, want), Actual: fmt.Sprintf("%s %s %s", name, what, model.IntList(members(p))), Source: at,
			})
		}
	}
	if sw.RoCE.Mode.V != "lossless-single-ipool" {
		check("roce-reserved-ingress", "switch-priorities", func(p model.RocePool) []int { return p.SPs }, sp)
	}
	check("roce-reserved-egress", "traffic-class", func(p model.RocePool) []int { return p.TCs }, tc)
	return out
}

func trustShown(t string) string {
	return map[string]string{"both": "pcp,dscp", "l3": "dscp", "l2": "pcp", "port": "port"}[t]
}

func schedText(mode string, bw int) string {
	if mode == "strict" {
		return "strict"
	}
	return fmt.Sprintf("dwrr %d%%", bw)
}

func setOf(vs []model.Value[bool]) []int {
	var out []int
	for i, v := range vs {
		if v.V {
			out = append(out, i)
		}
	}
	return out
}

func sorted(xs []int) []int {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}

func onOff(b bool) string { return model.EnableDisable(b) }

// notApplied ends every finding where a switch's show output differs from
// its configuration.
const notApplied = ": configuration not applied, or changed since"
