package checks

import (
	"fmt"
	"slices"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var adaptiveRouting = &Check{
	ID:       "adaptive-routing",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Error,
	Title:    "Adaptive routing is on where the policy wants it, and alike on every port of an ECMP group",
	Doc: `On Spectrum-4 switches adaptive routing moves RoCEv2 packets to the least loaded uplink
instead of hashing them, which is how Spectrum-X spreads a few elephant flows. A port is adaptive
when the switch has it on (nv set router adaptive-routing) and the port has it on too (nv set
interface swpN router adaptive-routing; enable on up to 5.14, state enabled from 5.15); up to
Cumulus Linux 5.12 the port setting also turned the switch setting on. NVIDIA warns that
"unexpected route hashing might occur when mixing adaptive routing traffic and regular ECMP routes
egressing ports that do not have adaptive routing enabled", so every port of an ECMP group must
have it, or none.

The ECMP group is read from the cabling when the switch's lldp.json was collected: its links to
switches of the next tier up (a leaf's or border leaf's links to the spines, a spine's to the
super-spines), and for a switch of the inventory's top tier its links to the tier below (a spine
without super-spines spreads traffic from one leaf towards another over its leaf links, as far as
its routes have several next hops there). Links to hosts and to switches of the same tier (an MLAG
peer link) are not in it, nor are bond members: Cumulus Linux does not support adaptive routing
on bonds or bond members. NVIDIA's page names no tiers; the tiers are the inventory roles.
Without the switch's own lldp.json (its neighbours' may miss links), or when LLDP shows no link
to the next tier, the group falls back to the configuration and the report's notes and findings
say so: the checked swp ports (split ports included) that route in the default VRF, i.e. are a
BGP neighbor under vrf default router bgp neighbor (BGP unnumbered), carry an ip address, or run
OSPF, and are neither bridge nor bond members. Bonds, bond members, subinterfaces and SVIs are
never asked for it. That approximation takes all routed ports of a switch as one group, though
the real groups are the next hops of each route, which only the routing table knows. A switch
where no group is found is judged on its global setting alone.

With the policy's adaptive_routing true: the switch setting off is an error, and so is every
port of the group without it. With false: adaptive routing in effect on some port is a warning (and
says when the group mixes it with hashing); on for the switch but on no port is info, as no port
routes adaptively. Enabling or disabling it reloads switchd from Cumulus Linux 5.13 ("reloads the
switchd service", the ECMP page of 5.13 to 5.19); up to 5.12 it "restarts the switchd service,
which causes all network ports to reset, interrupts network services, and resets the switch hardware
configuration" (5.12), and the findings of such a switch say so. Plan the change.

Whatever the policy, the documented limits are errors (the ECMP pages of Cumulus Linux 5.12 to
5.19): adaptive routing set on a subinterface, SVI, bond or bond member ("Cumulus Linux does not
support adaptive routing on layer 3 subinterfaces, SVIs, bonds or bond members"); on a switch whose
platform the docs name as older than Spectrum-4 (5.19: "Switches with the Spectrum-4 and later
ASIC"; the platform is the configuration header's model, and its ASIC is what NVIDIA's pages name
for it; another platform is not guessed and the notes say so); on a Spectrum-4 port whose configured
link speed is 800G ("The Spectrum-4 switch does not support adaptive routing on 800G links") or, up
to 5.18, neither 400G nor 200G ("Switches with the Spectrum-4 ASIC at 400G and 200G speeds"; 5.19
no longer names the speeds); a Spectrum-5 or later switch has no speed limit on these pages, and a
port without link speed is not judged; and together with resilient hashing, nv set system
forwarding resilient-hash state enabled (5.19; "Adaptive routing does not make use of resilient
hashing"; earlier releases set resilient hashing in traffic.conf only, which the NVUE configuration
does not show). A limit's fix turns adaptive routing off only where the policy hashes; where it wants
adaptive routing, that fix would be the next run's error, so the finding names what to change (the
ports' speed, the hardware) and prints no command.

Adaptive routing in a lossy RoCE mode is not a finding: no Cumulus Linux page ties it to a RoCE mode
(the ECMP pages support it for "RoCE2 unicast traffic", and lossy-multi-tc, the RoCE pages' profile
with packet trimming, is Spectrum-X's lossy RoCE beside it). NetQ needs lossless mode only to show
its adaptive routing data: "Switches with RoCE lossy mode enabled will appear in the UI and CLI, but
will not display adaptive routing data" (content/cumulus-netq-48/Monitor-Operations/
Monitor-Adaptive-Routing.md).`,
	Inputs: []Input{NVConfig, LLDP},
	Run:    runAdaptiveRouting,
}

func runAdaptiveRouting(f *model.Fabric) []Finding {
	var out []Finding
	want := f.Policy.ECMP.AdaptiveRouting
	for _, sw := range f.ConfiguredSwitches() {
		out = append(out, arLimits(f, sw)...)
		if want {
			out = append(out, arWanted(sw)...)
		} else if fd, ok := arUnwanted(sw); ok {
			out = append(out, fd)
		}
	}
	return out
}

// portAR is a port's own adaptive-routing setting, off by default.
func portAR(sw *model.Switch, p string) model.Value[bool] {
	if v, ok := sw.PortAR[p]; ok {
		return v
	}
	return model.Defaulted(false, "not set on the port (off by default)")
}

// groupSource says where the group came from, for a message: nothing
// when LLDP gave it, else that the routed ports stand in for it and why.
func groupSource(g model.ECMPGroup) string {
	if g.FromLLDP {
		return ""
	}
	return " (the ECMP group is approximated by the routed ports: " + g.Why + ")"
}

// arWanted: the switch setting and every port of the ECMP group must be on.
func arWanted(sw *model.Switch) []Finding {
	var out []Finding
	on := sw.Syntax.OnOff(true)
	if !sw.AR.V {
		o, had := old(sw.AR)
		if had {
			o = sw.Syntax.OnOff(sw.AR.V)
		}
		out = append(out, Finding{
			Severity: judge.Error, Device: sw.Name,
			Message:  "adaptive routing is off, but the policy spreads RoCE with it",
			Expected: "adaptive-routing " + on,
			Actual:   "adaptive-routing " + sw.Syntax.OnOff(false) + originNote(sw.AR.Origin),
			Source:   at(sw.AR.Origin, sw.ConfigFile),
			Changes:  []Change{nvSet(o, had, on, "router", "adaptive-routing", sw.Syntax.StateKey())},
		})
	}
	g := sw.ECMPGroup
	var onPorts []string
	for _, p := range g.Ports {
		if portAR(sw, p).V {
			onPorts = append(onPorts, p)
		}
	}
	groups := groupByValue(g.Ports, func(p string) model.Value[bool] { return portAR(sw, p) },
		func(v model.Value[bool]) bool { return !v.V })
	for _, pg := range groups {
		ports := model.CompressNames(pg.ports)
		msg := fmt.Sprintf("adaptive routing is off on these %s, but the policy spreads RoCE with it", g.Describe())
		if len(onPorts) > 0 {
			msg = fmt.Sprintf("adaptive routing is off on these %s but on for %s: mixing adaptive routing and "+
				"ECMP hashing in one group gives unexpected route hashing", g.Describe(), model.CompressNames(onPorts))
		}
		o, had := old(pg.v)
		if had {
			o = sw.Syntax.OnOff(false)
		}
		out = append(out, Finding{
			Severity: judge.Error, Device: sw.Name, Interface: ports, Message: msg + groupSource(g),
			Expected: "router adaptive-routing " + on,
			Actual:   "router adaptive-routing " + sw.Syntax.OnOff(false) + originNote(pg.v.Origin),
			Source:   at(pg.v.Origin, sw.ConfigFile),
			Changes:  []Change{nvSet(o, had, on, "interface", ports, "router", "adaptive-routing", sw.Syntax.StateKey())},
		})
	}
	return out
}

// arUnwanted: adaptive routing in effect anywhere goes against a policy
// that hashes.
func arUnwanted(sw *model.Switch) (Finding, bool) {
	if !sw.AR.V {
		return Finding{}, false
	}
	g := sw.ECMPGroup
	var on, off []string
	for _, p := range g.Ports {
		if portAR(sw, p).V {
			on = append(on, p)
		} else {
			off = append(off, p)
		}
	}
	for _, p := range sw.Ports {
		if v, ok := sw.PortAR[p]; ok && v.V && !slices.Contains(g.Ports, p) && model.IsFrontPanel(p) {
			on = append(on, p)
		}
	}
	model.SortNames(on)
	sev := judge.Warning
	msg := "adaptive routing is on, but the policy hashes RoCE with ECMP: mixing the two on a fabric gives unexpected paths"
	switch {
	case len(on) > 0 && len(off) > 0:
		msg = fmt.Sprintf("adaptive routing is on for %s but off for %s, %s of the same ECMP group, and the policy hashes RoCE with ECMP: "+
			"mixing adaptive routing and ECMP hashing gives unexpected route hashing", model.CompressNames(on), model.CompressNames(off), g.Describe())
	case len(on) > 0:
		msg = fmt.Sprintf("adaptive routing is on for %s, but the policy hashes RoCE with ECMP: mixing the two on a fabric gives unexpected paths",
			model.CompressNames(on))
	case len(g.Ports) > 0:
		sev = judge.Info
		msg = fmt.Sprintf("adaptive routing is on for the switch but on none of its %s (%s): no port routes adaptively yet, "+
			"and the policy hashes RoCE with ECMP", g.Describe(), model.CompressNames(g.Ports))
	}
	o, had := old(sw.AR)
	if had {
		o = sw.Syntax.OnOff(true)
	}
	return Finding{
		Severity: sev, Device: sw.Name, Message: msg + groupSource(g),
		Expected: "adaptive-routing " + sw.Syntax.OnOff(false),
		Actual:   "adaptive-routing " + sw.Syntax.OnOff(true) + originNote(sw.AR.Origin),
		Source:   at(sw.AR.Origin, sw.ConfigFile),
		Changes:  []Change{nvSet(o, had, sw.Syntax.OnOff(false), "router", "adaptive-routing", sw.Syntax.StateKey())},
	}, true
}
