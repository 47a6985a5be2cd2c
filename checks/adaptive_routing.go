package checks

import "github.com/qoslint/qoslint/model"

var adaptiveRouting = &Check{
	ID:       "adaptive-routing",
	Device:   "switch",
	Severity: Warning,
	Title:    "Adaptive routing is on where the policy wants it, and nowhere else",
	Doc: `On Spectrum-4 switches adaptive routing moves RoCEv2 packets to the least loaded uplink
instead of hashing them, which is how Spectrum-X spreads a few elephant flows. It must be the same
across the fabric: NVIDIA warns that mixing adaptive routing and regular ECMP routes on the same
egress ports causes unexpected hashing, and the receiving NICs must accept out-of-order packets.
With the policy's adaptive_routing true, a switch without it is an error; with false, a switch that
has it on is a warning. Enabling or disabling it reloads switchd, so plan the change.`,
	Run: runAdaptiveRouting,
}

func runAdaptiveRouting(f *model.Fabric) []Finding {
	var out []Finding
	want := f.Policy.ECMP.AdaptiveRouting
	for _, sw := range configured(f) {
		v := sw.AR
		if v.V == want {
			continue
		}
		sev, msg := Error, "adaptive routing is off, but the policy spreads RoCE with it"
		if !want {
			sev, msg = Warning, "adaptive routing is on, but the policy hashes RoCE with ECMP: mixing the two on a fabric gives unexpected paths"
		}
		o, had := old(v)
		if had {
			o = sw.Syntax.OnOff(v.V)
		}
		out = append(out, Finding{
			Severity: sev, Device: sw.Name, Message: msg,
			Expected: "adaptive-routing " + sw.Syntax.OnOff(want),
			Actual:   "adaptive-routing " + sw.Syntax.OnOff(v.V) + originNote(v.Origin),
			Source:   at(v.Origin, sw.ConfigFile),
			Changes:  []Change{nvSet(o, had, sw.Syntax.OnOff(want), "router", "adaptive-routing", sw.Syntax.StateKey())},
		})
	}
	return out
}
