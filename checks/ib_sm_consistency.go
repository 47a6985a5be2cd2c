package checks

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

var ibSMConsistency = &Check{
	ID:       "ib-sm-consistency",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesIBSM,
	Severity: judge.Error,
	Title:    "Every InfiniBand port holds the SL2VL and VL arbitration tables opensm.conf says",
	Doc: `With qos TRUE, OpenSM programs every port's SL2VL table, VL arbitration tables and VLHighLimit
from its qos_<class>_ options (qos_ca_ for HCA ports), falling back to the qos_ options and then to
its compiled-in defaults, and masks each VL to the port's OperVLs (linux-rdma/opensm
opensm/osm_qos.c qos_build_config, sl2vl_update_table; include/opensm/osm_base.h). A port whose
tables differ was not reached by the SM's last sweep or was reprogrammed by something else, and
its traffic does not follow the intent. With qos FALSE (the default) OpenSM programs nothing and
this check is silent. The fix is a heavy sweep: kill -HUP $(pidof opensm) on the SM host re-reads
opensm.conf and reprograms the ports. Switch ports read by LID (ibswitches.txt) are compared too:
external ports with qos_swe_ (SL2VL on every in→out row), an enhanced port 0 with qos_sw0_
(opensm/osm_qos.c qos_extports_setup, osm_qos_setup); with routing_engine torus-2QoS, which
programs its own SL2VL, the switches' SL2VL rows are not compared.`,
	Inputs: []Input{IBStat, SMPQuery, OpenSM},
	Run:    runIBSMConsistency,
}

func runIBSMConsistency(f *model.Fabric) []Finding {
	if f.IB == nil || f.IB.SM == nil || !f.IB.SM.QoS.V {
		return nil
	}
	sm := f.IB.SM
	cfg := sm.Config[model.SMClassCA]
	var out []Finding
	nc := ibPorts(f, "OpenSM consistency", needVLArb, func(h *model.IBHost, p *model.IBPort) {
		sl2vl, high, low, _ := cfg.Expected(p.OperVLs)
		var diffs, want, got []string
		if sl2vl != *p.SL2VL {
			diffs = append(diffs, fmt.Sprintf("SL2VL (%s)", cfg.SL2VL.Origin))
			want, got = append(want, "sl2vl "+fmtSL2VL(sl2vl)), append(got, "sl2vl "+fmtSL2VL(*p.SL2VL))
		}
		if w, g := fmtArb(high, p.VLArb.HighCap), fmtArb(p.VLArb.High, p.VLArb.HighCap); w != g {
			diffs = append(diffs, fmt.Sprintf("high VL arbitration (%s)", cfg.VLArbHigh.Origin))
			want, got = append(want, "vlarb_high "+w), append(got, "vlarb_high "+g)
		}
		if w, g := fmtArb(low, p.VLArb.LowCap), fmtArb(p.VLArb.Low, p.VLArb.LowCap); w != g {
			diffs = append(diffs, fmt.Sprintf("low VL arbitration (%s)", cfg.VLArbLow.Origin))
			want, got = append(want, "vlarb_low "+w), append(got, "vlarb_low "+g)
		}
		if p.HighLimit >= 0 && p.HighLimit != cfg.HighLimit.V {
			diffs = append(diffs, fmt.Sprintf("VLHighLimit (%s)", cfg.HighLimit.Origin))
			want, got = append(want, fmt.Sprintf("high_limit %d", cfg.HighLimit.V)), append(got, fmt.Sprintf("high_limit %d", p.HighLimit))
		}
		if len(diffs) == 0 {
			return
		}
		out = append(out, Finding{
			Severity: judge.Error, Device: h.Name, Interface: p.Name(),
			Message: fmt.Sprintf("%s does not hold what OpenSM on %s programs for %s ports: %s differ; the SM's last sweep did not reach it or something reprogrammed it: kill -HUP $(pidof opensm) on %s",
				p.Name(), sm.Device, cfg.Key, strings.Join(diffs, ", "), sm.Device),
			Expected: strings.Join(want, "; "), Actual: strings.Join(got, "; "),
			Source:  p.SL2VLPos,
			Changes: []Change{smReload(f)},
		})
	})
	out = append(out, nc...)
	return append(out, runIBSMConsistencySwitches(f)...)
}

// runIBSMConsistencySwitches compares every Active switch port with what
// OpenSM programs there (opensm/osm_qos.c): an external port gets
// qos_swe_'s arbitration and VLHighLimit and qos_swe_sl2vl on every
// in→out row; an enhanced port 0 gets qos_sw0_'s arbitration and
// qos_sw0_sl2vl on its in 0 row (qos_endport_setup), the other rows
// towards it qos_swe_sl2vl. Each table is masked to the output port's
// OperVLs. A routing engine with its own SL2VL (torus-2QoS sets
// update_sl2vl, opensm/osm_torus.c) overrides the SL2VL rows, so they are
// not compared then.
func runIBSMConsistencySwitches(f *model.Fabric) []Finding {
	sm := f.IB.SM
	ownSL2VL := sm.RoutingEngine.Known && len(sm.RoutingEngine.V) > 0 && sm.RoutingEngine.V[0] == "torus-2QoS"
	var out []Finding
	nc := ibSwitchPorts(f, "OpenSM consistency", false, needSwitchVLArb, func(p *model.IBSwitchPort) {
		cfg := sm.Config[p.SMClass()]
		swe := sm.Config[model.SMClassSWE]
		_, high, low, _ := cfg.Expected(p.OperVLs)
		var diffs, want, got []string
		src := p.VLArbPos
		if !ownSL2VL {
			d, w, g, pos := switchSL2VLDiff(p, cfg, swe)
			diffs, want, got = append(diffs, d...), append(want, w...), append(got, g...)
			if len(d) > 0 {
				src = pos
			}
		}
		if w, g := fmtArb(high, p.VLArb.HighCap), fmtArb(p.VLArb.High, p.VLArb.HighCap); w != g {
			diffs = append(diffs, fmt.Sprintf("high VL arbitration (%s)", cfg.VLArbHigh.Origin))
			want, got = append(want, "vlarb_high "+w), append(got, "vlarb_high "+g)
		}
		if w, g := fmtArb(low, p.VLArb.LowCap), fmtArb(p.VLArb.Low, p.VLArb.LowCap); w != g {
			diffs = append(diffs, fmt.Sprintf("low VL arbitration (%s)", cfg.VLArbLow.Origin))
			want, got = append(want, "vlarb_low "+w), append(got, "vlarb_low "+g)
		}
		if p.HighLimit >= 0 && p.HighLimit != cfg.HighLimit.V {
			diffs = append(diffs, fmt.Sprintf("VLHighLimit (%s)", cfg.HighLimit.Origin))
			want, got = append(want, fmt.Sprintf("high_limit %d", cfg.HighLimit.V)), append(got, fmt.Sprintf("high_limit %d", p.HighLimit))
		}
		if len(diffs) == 0 {
			return
		}
		out = append(out, Finding{
			Severity: judge.Error, Device: p.Switch.Host, Interface: p.Name(),
			Message: fmt.Sprintf("%s does not hold what OpenSM on %s programs for its qos_%s_ class: %s differ; the SM's last sweep did not reach it or something reprogrammed it: kill -HUP $(pidof opensm) on %s",
				p.Name(), sm.Device, p.SMClass(), strings.Join(diffs, ", "), sm.Device),
			Expected: strings.Join(want, "; "), Actual: strings.Join(got, "; "),
			Source:  src,
			Changes: []Change{smReload(f)},
		})
	})
	return append(out, nc...)
}

// switchSL2VLDiff compares p's SL2VL rows with OpenSM's: the first row
// that differs is shown, and how many do.
func switchSL2VLDiff(p *model.IBSwitchPort, cfg, swe *model.SMClassConfig) (diffs, want, got []string, first source.Pos) {
	var bad []string
	for _, row := range p.SL2VL {
		c := swe
		if p.Port == 0 && row.In == 0 {
			c = cfg
		}
		exp, _, _, _ := c.Expected(p.OperVLs)
		if exp == row.VL {
			continue
		}
		if len(bad) == 0 {
			diffs = append(diffs, fmt.Sprintf("SL2VL (%s)", c.SL2VL.Origin))
			want = append(want, fmt.Sprintf("sl2vl in %d: %s", row.In, fmtSL2VL(exp)))
			got = append(got, fmt.Sprintf("sl2vl in %d: %s", row.In, fmtSL2VL(row.VL)))
			first = row.Pos
		}
		bad = append(bad, fmt.Sprint(row.In))
	}
	if len(bad) > 1 {
		diffs[0] += fmt.Sprintf(" from input ports %s", strings.Join(bad, ","))
	}
	return diffs, want, got, first
}
