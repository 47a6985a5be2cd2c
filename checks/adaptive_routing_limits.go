package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

// The documented limits of adaptive routing, whatever the policy. Sources,
// the ECMP pages of CumulusNetworks/docs content/cumulus-linux-5NN/Layer-3/
// Routing/Equal-Cost-Multipath-Load-Sharing.md:
//
//   - 5.12 to 5.18: "Cumulus Linux supports adaptive routing with: Switches
//     with the Spectrum-4 ASIC at 400G and 200G speeds"; 5.19: "Switches
//     with the Spectrum-4 and later ASIC". Every release from 5.12: "The
//     Spectrum-4 switch does not support adaptive routing on 800G links".
//     The 800G limit is Spectrum-4's alone: a Spectrum-5 or -6 switch at
//     800G is not limited by any of these pages.
//   - "Adaptive routing does not make use of resilient hashing"; "Cumulus
//     Linux does not support adaptive routing on layer 3 subinterfaces,
//     SVIs, bonds or bond members" (5.12 to 5.19).
//
// No page of 5.12 to 5.19 (ECMP, RoCE, Packet Trimming) ties adaptive
// routing to a RoCE mode: the ECMP pages support it for "RoCE2 unicast
// traffic", and the RoCE pages' lossy-multi-tc profile (Spectrum-X's lossy
// RoCE with packet trimming) runs beside it. The only lossless condition
// NVIDIA states is NetQ's, for its display: "RoCE lossless mode must be
// enabled to display adaptive routing data. Switches with RoCE lossy mode
// enabled will appear in the UI and CLI, but will not display adaptive
// routing data" (content/cumulus-netq-48/Monitor-Operations/
// Monitor-Adaptive-Routing.md). That is a limit of the monitoring, not of
// the fabric, so a lossy RoCE mode with adaptive routing is no finding.

// spectrum4Speeds are the port speeds 5.12 to 5.18 support adaptive
// routing at on Spectrum-4.
var spectrum4Speeds = map[string]bool{"400G": true, "200G": true}

func arLimits(f *model.Fabric, sw *model.Switch) []Finding {
	var out []Finding
	for _, p := range sw.Flow.ARUnsupported {
		out = append(out, Finding{
			Severity: judge.Error, Device: sw.Name, Interface: p.Port,
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
	wanted := f.Policy.ECMP.AdaptiveRouting
	if fd, ok := arASIC(sw, wanted); ok {
		out = append(out, fd)
	}
	out = append(out, arSpeed(sw, wanted)...)
	if rh := sw.Forwarding.ResilientHash; rh.V {
		out = append(out, Finding{
			Severity: judge.Error, Device: sw.Name,
			Message:  "adaptive routing and resilient hashing are both on: adaptive routing does not make use of resilient hashing",
			Expected: "resilient-hash state " + sw.Syntax.OnOff(false),
			Actual:   "resilient-hash state " + sw.Syntax.OnOff(true) + originNote(rh.Origin),
			Source:   at(rh.Origin, sw.ConfigFile),
			Changes:  []Change{nvSet(sw.Syntax.OnOff(true), true, sw.Syntax.OnOff(false), "system", "forwarding", "resilient-hash", "state")},
		})
	}
	return out
}

// arASIC: a platform whose ASIC the docs name and that is older than
// Spectrum-4. An unknown platform is left to the model's note.
func arASIC(sw *model.Switch, wanted bool) (Finding, bool) {
	gen := model.SpectrumGen(sw.Flow.ASIC)
	if gen == 0 || gen >= 4 {
		return Finding{}, false
	}
	o, had := old(sw.AR)
	if had {
		o = sw.Syntax.OnOff(true)
	}
	fd := Finding{
		Severity: judge.Error, Device: sw.Name,
		Message: fmt.Sprintf("adaptive routing is on, but %s is a %s switch: Cumulus Linux supports adaptive routing on "+
			"switches with the Spectrum-4 and later ASIC%s", sw.Flow.Platform, sw.Flow.ASIC, arSwitchd(sw)),
		Expected: "a Spectrum-4 or later switch",
		Actual:   sw.Flow.Platform + " (" + sw.Flow.ASIC + ")",
		Source:   at(sw.AR.Origin, sw.ConfigFile),
	}
	if wanted {
		// Turning it off would break the policy the next run judges by:
		// the hardware is what cannot meet it.
		fd.Message += "; qoslint prints no command: the policy wants adaptive routing, which this switch cannot run"
	} else {
		fd.Changes = []Change{nvSet(o, had, sw.Syntax.OnOff(false), "router", "adaptive-routing", sw.Syntax.StateKey())}
	}
	return fd, true
}

// arSpeed: the speeds a Spectrum-4 does not support adaptive routing at:
// 800G in every release, and up to 5.18 any speed but 400G and 200G (5.19
// no longer names them). Ports without `link speed`, and switches whose ASIC
// is not known (the model notes it) or is Spectrum-5 and later, are not
// judged: no page limits their speeds.
func arSpeed(sw *model.Switch, wanted bool) []Finding {
	if model.SpectrumGen(sw.Flow.ASIC) != 4 {
		return nil
	}
	upTo518 := sw.Version != "" && sw.Before(5, 19)
	unsupported := func(speed string) bool {
		return speed == "800G" || upTo518 && !spectrum4Speeds[speed]
	}
	var ports []string
	for _, p := range sw.Ports {
		sp, ok := sw.Flow.Speed[p]
		if ok && portAR(sw, p).V && unsupported(sp.V) {
			ports = append(ports, p)
		}
	}
	groups := groupByValue(ports, func(p string) model.Value[string] { return sw.Flow.Speed[p] },
		func(model.Value[string]) bool { return true })
	var out []Finding
	for _, g := range groups {
		iface := model.CompressNames(g.ports)
		why := "the Spectrum-4 switch does not support adaptive routing on 800G links"
		if g.v.V != "800G" {
			why = "Cumulus Linux " + model.Release(sw.Version) + " supports adaptive routing on Spectrum-4 at 400G and 200G speeds"
		}
		fd := Finding{
			Severity: judge.Error, Device: sw.Name, Interface: iface,
			Message:  fmt.Sprintf("adaptive routing is on at link speed %s on %s (%s): %s%s", g.v.V, sw.Flow.Platform, sw.Flow.ASIC, why, arSwitchd(sw)),
			Expected: "no adaptive routing at " + g.v.V + " on a Spectrum-4",
			Actual:   "link speed " + g.v.V + originNote(g.v.Origin),
			Source:   at(g.v.Origin, sw.ConfigFile),
		}
		if wanted {
			// Turning adaptive routing off on these ports would split the
			// ECMP group the policy wants adaptive: the ports' speed is
			// the design to change.
			fd.Message += "; qoslint prints no command: the policy wants adaptive routing, so run these ports at 400G or 200G " +
				"(an 800G port split in two, link breakout 2x) instead"
		} else {
			fd.Changes = []Change{nvSet(sw.Syntax.OnOff(true), true, sw.Syntax.OnOff(false),
				"interface", iface, "router", "adaptive-routing", sw.Syntax.StateKey())}
		}
		out = append(out, fd)
	}
	return out
}

// arSwitchd says what a change of adaptive routing does to a switch whose
// release restarts switchd for it: "Enabling or disabling adaptive routing
// restarts the switchd service, which causes all network ports to reset,
// interrupts network services, and resets the switch hardware
// configuration" (content/cumulus-linux-512/Layer-3/Routing/Equal-Cost-
// Multipath-Load-Sharing.md); from 5.13 it "reloads the switchd service"
// (the same page of 5.13 to 5.19). Nothing for those, or an unknown release.
func arSwitchd(sw *model.Switch) string {
	if sw.Version != "" && sw.Before(5, 13) {
		return "; on Cumulus Linux " + model.Release(sw.Version) + " changing adaptive routing restarts switchd, resetting every port"
	}
	return ""
}
