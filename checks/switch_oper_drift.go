package checks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/model"
)

// operDrift compares `nv show qos roce` with the configuration table by
// table: mode, trust, PFC, ECN, SP→TC with the scheduler, and the RoCE pools.
// Each difference is a warning at the row of the output that shows it. The
// layouts are those of CumulusNetworks/docs content/cumulus-linux-5{3,12,14,
// 15,18}/Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md.
func operDrift(sw *model.Switch) []Finding {
	o := sw.Oper
	if o == nil {
		return nil
	}
	out := operModeDrift(sw)
	if !sw.RoCE.Enabled.V || (o.Enabled.Known && !o.Enabled.V) {
		return out // no RoCE tables to compare
	}
	g := sw.Global
	drift := func(what, want, got string, at model.Value[string]) {
		out = append(out, Finding{
			Severity: Warning, Device: sw.Name,
			Message:  fmt.Sprintf("the switch reports %s %s but its configuration says %s: configuration not applied, or changed since", what, got, want),
			Expected: want + " (" + sw.ConfigFile + ")", Actual: got,
			Source: pickPos(at.Origin.Pos, at.Origin.Pos, o.File),
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
	// "trust-mode pcp,dscp" is `trust both`: inferred from the change-RoCE
	// recipe's `nv set qos mapping default-global trust both`.
	if o.Trust.Known && trustShown(g.Trust.V) != "" && o.Trust.V != trustShown(g.Trust.V) {
		drift("trust-mode", trustShown(g.Trust.V), o.Trust.V, o.Trust)
	}
	if cfg := setOf(g.PFC[:]); o.PFC.Known && !slices.Equal(sorted(o.PFC.V), cfg) {
		drift("PFC on switch-priority", prioList(cfg), prioList(o.PFC.V), pos(o.PFC))
	}
	for _, d := range []struct {
		name string
		op   model.Value[bool]
		cfg  bool
	}{{"PFC rx", o.PFCRx, g.PFCRx.V}, {"PFC tx", o.PFCTx, g.PFCTx.V}} {
		if d.op.Known && len(setOf(g.PFC[:])) > 0 && d.op.V != d.cfg {
			drift(d.name, onOff(d.cfg), onOff(d.op.V), pos(d.op))
		}
	}
	cfgECN := setOf(g.ECN[:])
	if o.ECNTCs.Known && !slices.Equal(sorted(o.ECNTCs.V), cfgECN) {
		drift("ECN on traffic-class", prioList(cfgECN), prioList(o.ECNTCs.V), pos(o.ECNTCs))
	}
	out = append(out, operThresholdDrift(sw, cfgECN)...)
	out = append(out, operETSDrift(sw)...)
	out = append(out, operPoolDrift(sw)...)
	return out
}

func operModeDrift(sw *model.Switch) []Finding {
	o := sw.Oper
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
		Severity: Warning, Device: sw.Name,
		Message:  fmt.Sprintf("the switch runs RoCE %s but its configuration says %s: configuration not applied, or changed since", operMode, cfgMode),
		Expected: cfgMode + " (" + sw.ConfigFile + ")", Actual: operMode,
		Source: pickPos(o.Mode.Origin.Pos, o.Enabled.Origin.Pos, o.File),
	}}
}

// operThresholdDrift compares the printed thresholds with those of the
// configured ECN classes, within the display's rounding. The per-interface
// view is skipped: it shows what the ASIC programmed ("the interface-level
// command reflects the actual hardware-programmed value, which is 159,744
// bytes", RoCE518 note), not the configuration.
func operThresholdDrift(sw *model.Switch, tcs []int) []Finding {
	o := sw.Oper
	var out []Finding
	if o.PerInterface || len(tcs) == 0 {
		return nil
	}
	for _, t := range []struct {
		name string
		op   model.Value[nvue.Size]
		cfg  [8]model.Value[int]
	}{{"ECN min-threshold", o.ECNMin, sw.Global.ECNMin}, {"ECN max-threshold", o.ECNMax, sw.Global.ECNMax}} {
		if !t.op.Known {
			continue
		}
		var want []string
		match := false
		for _, tc := range tcs {
			if sw.Global.ECNMode[tc].V == "relative" {
				match = true // byte thresholds are ignored in relative mode
			}
			match = match || t.op.V.Matches(t.cfg[tc].V)
			want = append(want, fmt.Sprintf("%d B on traffic-class %d", t.cfg[tc].V, tc))
		}
		if match {
			continue
		}
		out = append(out, Finding{
			Severity: Warning, Device: sw.Name,
			Message:  fmt.Sprintf("the switch reports %s %.0f B but its configuration says %s: configuration not applied, or changed since", t.name, t.op.V.Bytes, strings.Join(want, ", ")),
			Expected: strings.Join(want, ", "), Actual: fmt.Sprintf("%.0f B (±%.0f, as printed)", t.op.V.Bytes, t.op.V.Tol),
			Source: pickPos(t.op.Origin.Pos, t.op.Origin.Pos, o.File),
		})
	}
	return out
}

// operETSDrift compares each SP→TC row and its scheduler weight.
func operETSDrift(sw *model.Switch) []Finding {
	o, g := sw.Oper, sw.Global
	var out []Finding
	for sp := 0; sp < 8; sp++ {
		tc, ok := o.SPToTC[sp]
		if !ok {
			continue
		}
		at := pickPos(tc.Origin.Pos, o.ETSPos, o.File)
		if tc.V != g.TC[sp].V {
			out = append(out, Finding{
				Severity: Warning, Device: sw.Name,
				Message:  fmt.Sprintf("the switch maps switch-priority %d to traffic-class %d but its configuration says %d: configuration not applied, or changed since", sp, tc.V, g.TC[sp].V),
				Expected: fmt.Sprintf("switch-priority %d → traffic-class %s", sp, why(g.TC[sp])),
				Actual:   fmt.Sprintf("switch-priority %d → traffic-class %d", sp, tc.V),
				Source:   at,
			})
			continue
		}
		s, ok := o.Sched[sp]
		if !ok || tc.V < 0 || tc.V > 7 {
			continue
		}
		want, got := schedText(g.Sched[tc.V].V, g.SchedBW[tc.V].V), schedText(s.V, o.SchedBW[sp])
		if want != got {
			out = append(out, Finding{
				Severity: Warning, Device: sw.Name,
				Message:  fmt.Sprintf("the switch schedules traffic-class %d %s but its configuration says %s: configuration not applied, or changed since", tc.V, got, want),
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
// the PFC priority moves is not documented, so only its presence is compared.
func operPoolDrift(sw *model.Switch) []Finding {
	o := sw.Oper
	if o.PoolPos.IsZero() {
		return nil
	}
	at, reserved := o.PoolPos, ""
	for _, p := range o.Pools {
		if strings.HasPrefix(p.Name, "roce-reserved") {
			at.Line, reserved = p.Line, p.Name
			break
		}
	}
	switch lossless := sw.RoCE.Lossless(); {
	case lossless && reserved == "":
		return []Finding{{
			Severity: Warning, Device: sw.Name,
			Message:  fmt.Sprintf("the switch has no RoCE lossless pool but its configuration is RoCE %s: configuration not applied, or changed since", sw.RoCE.Mode.V),
			Expected: "a roce-reserved pool", Actual: "none", Source: at,
		}}
	case !lossless && reserved != "":
		return []Finding{{
			Severity: Warning, Device: sw.Name,
			Message:  fmt.Sprintf("the switch has the RoCE lossless pool %s but its configuration is RoCE %s: configuration not applied, or changed since", reserved, sw.RoCE.Mode.V),
			Expected: "no roce-reserved pool", Actual: reserved, Source: at,
		}}
	}
	return nil
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
