package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/model"
)

// The documented limits of adaptive routing, whatever the policy. Sources:
// CumulusNetworks/docs content/cumulus-linux-519/Layer-3/Routing/
// Equal-Cost-Multipath-Load-Sharing.md ("Cumulus Linux supports adaptive
// routing with: Switches with the Spectrum-4 ASIC at 400G and 200G
// speeds"; "Adaptive routing does not make use of resilient hashing";
// "Cumulus Linux does not support adaptive routing on layer 3
// subinterfaces, SVIs, bonds or bond members"; "The Spectrum-4 switch does
// not support adaptive routing on 800G links"), and NetQ's adaptive
// routing validation, test 1 "AR and RoCE config consistency" (content/
// cumulus-netq-53/Validate-Operations/Validation-Checks.md), whose AR data
// needs "RoCE lossless mode" (content/cumulus-netq-48/Monitor-Operations/
// Monitor-Adaptive-Routing.md).

// arSpeeds are the port speeds adaptive routing is supported at.
var arSpeeds = map[string]bool{"400G": true, "200G": true}

func arLimits(f *model.Fabric, sw *model.Switch) []Finding {
	var out []Finding
	for _, p := range sw.Flow.ARUnsupported {
		out = append(out, Finding{
			Severity: Error, Device: sw.Name, Interface: p.Port,
			Message:  fmt.Sprintf("adaptive routing is set on %s, but Cumulus Linux does not support adaptive routing on %s", p.Port, p.What),
			Expected: "no adaptive routing on " + p.What,
			Actual:   "router adaptive-routing " + sw.Syntax.OnOff(true) + originNote(p.V.Origin),
			Source:   at(p.V.Origin, sw.ConfigFile),
			Changes:  []Change{nvSet(sw.Syntax.OnOff(true), true, sw.Syntax.OnOff(false), "interface", p.Port, "router", "adaptive-routing", sw.Syntax.StateKey())},
		})
	}
	if !sw.AR.V {
		return out
	}
	if sw.RoCE.Enabled.V && !sw.RoCE.Lossless() {
		out = append(out, arLossy(f, sw))
	}
	if fd, ok := arASIC(sw); ok {
		out = append(out, fd)
	}
	out = append(out, arSpeed(sw)...)
	if rh := sw.Forwarding.ResilientHash; rh.V {
		out = append(out, Finding{
			Severity: Error, Device: sw.Name,
			Message:  "adaptive routing and resilient hashing are both on: adaptive routing does not make use of resilient hashing",
			Expected: "resilient-hash state " + sw.Syntax.OnOff(false),
			Actual:   "resilient-hash state " + sw.Syntax.OnOff(true) + originNote(rh.Origin),
			Source:   at(rh.Origin, sw.ConfigFile),
			Changes:  []Change{nvSet(sw.Syntax.OnOff(true), true, sw.Syntax.OnOff(false), "system", "forwarding", "resilient-hash", "state")},
		})
	}
	return out
}

// arLossy: adaptive routing sprays a flow's packets over paths; NetQ
// checks it against a lossless RoCE mode. The fix moves RoCE to lossless
// when the policy wants lossless, else turns adaptive routing off.
func arLossy(f *model.Fabric, sw *model.Switch) Finding {
	m := sw.RoCE.Mode
	fd := Finding{
		Severity: Error, Device: sw.Name,
		Message: fmt.Sprintf("adaptive routing is on while qos roce is in the lossy mode %s: NetQ's adaptive routing "+
			"validation (AR and RoCE config consistency) expects RoCE lossless", m.V),
		Expected: "adaptive routing with qos roce mode lossless",
		Actual:   "qos roce mode " + m.V + originNote(m.Origin),
		Source:   at(m.Origin, sw.ConfigFile),
	}
	if f.Policy.RoCE.Lossless() {
		o, had := old(m)
		fd.Changes = []Change{nvSet(o, had, f.Policy.RoCE.Mode, "qos", "roce", "mode")}
	} else {
		o, had := old(sw.AR)
		if had {
			o = sw.Syntax.OnOff(true)
		}
		fd.Changes = []Change{nvSet(o, had, sw.Syntax.OnOff(false), "router", "adaptive-routing", sw.Syntax.StateKey())}
	}
	return fd
}

// arASIC: a platform whose ASIC the docs name and that is older than
// Spectrum-4. An unknown platform is left to the model's note.
func arASIC(sw *model.Switch) (Finding, bool) {
	gen := model.SpectrumGen(sw.Flow.ASIC)
	if gen == 0 || gen >= 4 {
		return Finding{}, false
	}
	o, had := old(sw.AR)
	if had {
		o = sw.Syntax.OnOff(true)
	}
	return Finding{
		Severity: Error, Device: sw.Name,
		Message: fmt.Sprintf("adaptive routing is on, but %s is a %s switch: Cumulus Linux supports adaptive routing on "+
			"Spectrum-4 switches at 400G and 200G", sw.Flow.Platform, sw.Flow.ASIC),
		Expected: "a Spectrum-4 switch",
		Actual:   sw.Flow.Platform + " (" + sw.Flow.ASIC + ")",
		Source:   at(sw.AR.Origin, sw.ConfigFile),
		Changes:  []Change{nvSet(o, had, sw.Syntax.OnOff(false), "router", "adaptive-routing", sw.Syntax.StateKey())},
	}, true
}

// arSpeed: ports with adaptive routing at a configured speed other than
// 400G or 200G; a port without `link speed` is not judged.
func arSpeed(sw *model.Switch) []Finding {
	var ports []string
	for _, p := range sw.Ports {
		sp, ok := sw.Flow.Speed[p]
		if ok && portAR(sw, p).V && !arSpeeds[sp.V] {
			ports = append(ports, p)
		}
	}
	groups := groupByValue(ports, func(p string) model.Value[string] { return sw.Flow.Speed[p] },
		func(model.Value[string]) bool { return true })
	var out []Finding
	for _, g := range groups {
		iface := model.CompressNames(g.ports)
		out = append(out, Finding{
			Severity: Error, Device: sw.Name, Interface: iface,
			Message: fmt.Sprintf("adaptive routing is on at link speed %s: Cumulus Linux supports it at 400G and 200G "+
				"(and not on the 800G links of Spectrum-4)", g.v.V),
			Expected: "link speed 400G or 200G",
			Actual:   "link speed " + g.v.V + originNote(g.v.Origin),
			Source:   at(g.v.Origin, sw.ConfigFile),
			Changes: []Change{nvSet(sw.Syntax.OnOff(true), true, sw.Syntax.OnOff(false),
				"interface", iface, "router", "adaptive-routing", sw.Syntax.StateKey())},
		})
	}
	return out
}
