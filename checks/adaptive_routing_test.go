package checks

import (
	"strings"
	"testing"
)

// The limits of adaptive routing on the ECMP page of CumulusNetworks/docs
// content/cumulus-linux-519/Layer-3/Routing/Equal-Cost-Multipath-Load-
// Sharing.md (commands `nv set router adaptive-routing state enabled`, `nv
// set interface swp51 router adaptive-routing state enabled`, `nv set system
// forwarding resilient-hash state enabled`). spine02 has no header, so its
// platform is unknown; leaf01 is an MSN4700, a Spectrum-3.
var arOnSpine02 = appendTo(spine02C, "nv set router adaptive-routing state enabled\nnv set interface swp1-2 router adaptive-routing state enabled\n")

// arOnSpine01 makes spine01 a platform of a release with adaptive routing
// on globally and on swp1-32 at a link speed (the 5.15+ YAML keys of
// `nv set router adaptive-routing state enabled` and `nv set interface
// swp51 router adaptive-routing state enabled`).
func arOnSpine01(platform, release, speed string) []edit {
	return []edit{
		replace(spine01Y, "model: MSN4700", "model: "+platform),
		replace(spine01Y, "version: Cumulus Linux 5.15.0", "version: Cumulus Linux "+release),
		replace(spine01Y, "        link:\n          mtu: 9216\n", "        link:\n          mtu: 9216\n          speed: "+speed+"\n"),
		replace(spine01Y, "        type: swp\n", "        router:\n          adaptive-routing:\n            state: enabled\n        type: swp\n"),
		replace(spine01Y, "    router:\n      bgp:\n", "    router:\n      adaptive-routing:\n        state: enabled\n      bgp:\n"),
	}
}

var _ = register(adaptiveRouting, func(testing.TB) []checkCase {
	with := func(es []edit, more ...edit) []edit { return append(es, more...) }
	// The policy hashes (cumulus-default): adaptive routing on spine01 is
	// always the policy's warning; the limits add errors beside it.
	return []checkCase{
		// No page ties adaptive routing to a RoCE mode; lossy-multi-tc is the
		// RoCE pages' Spectrum-X profile with packet trimming.
		{name: "lossy RoCE is no limit", edits: []edit{arOnSpine02, appendTo(spine02C, "nv set qos roce mode lossy\n")},
			want: []string{"warning spine02"}},
		{name: "lossy-multi-tc on a Spectrum-4 is no limit", edits: with(arOnSpine01("SN5600", "5.19.0", "400G"),
			replace(spine01Y, "mode: lossless", "mode: lossy-multi-tc")),
			want: []string{"warning spine01"}},
		{name: "limits: AR on a Spectrum-3", edits: []edit{
			replace(leaf01Y, "    router:\n      bgp:\n", "    router:\n      adaptive-routing:\n        enable: on\n      bgp:\n")},
			want: []string{"error leaf01", "info leaf01"}, msg: "MSN4700 is a Spectrum-3 switch: Cumulus Linux supports adaptive routing on switches with the Spectrum-4 and later ASIC"},
		// 5.12 "restarts the switchd service, which causes all network
		// ports to reset"; 5.13 on "reloads the switchd service".
		{name: "limits: a 5.12 switch restarts switchd for the fix", edits: arOnSpine01("MSN4700", "5.12.1", "400G"),
			want: []string{"error spine01", "warning spine01"}, msg: "on Cumulus Linux 5.12 changing adaptive routing restarts switchd, resetting every port"},
		{name: "limits: AR on a bond", edits: []edit{appendTo(spine02C,
			"nv set interface bond1 bond member swp5-6\nnv set interface bond1 router adaptive-routing state enabled\n")},
			want: []string{"error spine02 bond1"}, msg: "does not support adaptive routing on bonds"},
		// "The Spectrum-4 switch does not support adaptive routing on 800G
		// links" (5.12 to 5.19): Spectrum-4's limit alone.
		{name: "limits: a Spectrum-4 at 800G", edits: arOnSpine01("SN5600", "5.19.0", "800G"),
			want: []string{"error spine01 swp1-32", "warning spine01"}, msg: "the Spectrum-4 switch does not support adaptive routing on 800G links"},
		{name: "a Spectrum-6 at 800G is no limit", edits: arOnSpine01("SN6600", "5.19.0", "800G"),
			want: []string{"warning spine01"}},
		{name: "an unknown platform at 800G is not judged", edits: []edit{arOnSpine02, appendTo(spine02C, "nv set interface swp1 link speed 800G\n")},
			want: []string{"warning spine02"}},
		// spine02's commands form has no header: the inventory names it.
		{name: "limits: the inventory's platform names a commands-form Spectrum-4", edits: []edit{arOnSpine02, appendTo(spine02C, "nv set interface swp1 link speed 800G\n"),
			replace("inventory.hcl", "switch \"spine02\" {\n  role    = \"spine\"", "switch \"spine02\" {\n  platform = \"SN5600\"\n  role    = \"spine\"")},
			want: []string{"error spine02 swp1", "warning spine02"}, msg: "adaptive routing is on at link speed 800G on SN5600 (Spectrum-4)"},
		// 5.12 to 5.18: "Switches with the Spectrum-4 ASIC at 400G and 200G
		// speeds"; 5.19: "Switches with the Spectrum-4 and later ASIC".
		{name: "limits: a Spectrum-4 at 100G up to 5.18", edits: arOnSpine01("SN5600", "5.18.1", "100G"),
			want: []string{"error spine01 swp1-32", "warning spine01"}, msg: "Cumulus Linux 5.18 supports adaptive routing on Spectrum-4 at 400G and 200G speeds"},
		{name: "a Spectrum-4 at 100G on 5.19", edits: arOnSpine01("SN5600", "5.19.0", "100G"),
			want: []string{"warning spine01"}},
		{name: "limits: AR at 400G passes", edits: arOnSpine01("SN5600", "5.15.0", "400G"),
			want: []string{"warning spine01"}},
		{name: "limits: AR with resilient hashing", edits: []edit{arOnSpine02, appendTo(spine02C, "nv set system forwarding resilient-hash state enabled\n")},
			want: []string{"error spine02", "warning spine02"}, msg: "adaptive routing does not make use of resilient hashing"},
	}
})

func TestARUnknownPlatformNote(t *testing.T) {
	f := fabric(t, arOnSpine02)
	want := "spine02: devices/spine02/nv-config-commands.txt:23: adaptive routing is on, but the configuration names no platform (an inventory switch's platform names it where the configuration has no header): whether the switch is a Spectrum-4 or later (which adaptive routing needs) is not checked"
	for _, n := range f.Notes {
		if n.Error() == want {
			return
		}
	}
	t.Errorf("no note %q in %v", want, f.Notes)
}

// A documented limit's fix turns adaptive routing off only where the
// policy hashes: under a policy that wants it, turning it off would be the
// next run's arWanted error, so the finding says what to change instead.
func TestARLimitFixFollowsPolicy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edits []edit
		fix   bool
	}{
		{"the policy hashes: adaptive routing off on the 800G ports", arOnSpine01("SN5600", "5.19.0", "800G"), true},
		{"the policy wants it: no command", append(arOnSpine01("SN5600", "5.19.0", "800G"), wantAR), false},
		{"a Spectrum-3 under a policy that wants it: no command", append(arOnSpine01("MSN4700", "5.15.0", "400G"), wantAR), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var limit []Finding
			for _, fd := range adaptiveRouting.Run(fabric(t, tc.edits...)) {
				if fd.Device == "spine01" && (strings.Contains(fd.Message, "800G links") || strings.Contains(fd.Message, "Spectrum-3 switch")) {
					limit = append(limit, fd)
				}
			}
			if len(limit) != 1 {
				t.Fatalf("limit findings %+v, want one", limit)
			}
			if got := len(limit[0].Changes) > 0; got != tc.fix {
				t.Errorf("changes %v, want a fix: %v", limit[0].Changes, tc.fix)
			}
			if !tc.fix && !strings.Contains(limit[0].Message, "qoslint prints no command: the policy wants adaptive routing") {
				t.Errorf("message %q says no why", limit[0].Message)
			}
		})
	}
}

// The per-port commands are the ECMP page's: `nv set interface swp51 router
// adaptive-routing state enabled` (CumulusNetworks/docs content/
// cumulus-linux-515/Layer-3/Routing/Equal-Cost-Multipath-Load-Sharing.md),
// `enable on` up to 5.14 (content/cumulus-linux-514/... same page). spine02
// routes on swp1-2 (BGP unnumbered), leaf01 and leaf02 on swp31-32.
var _ = register(adaptiveRouting, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "on for the switch, on no port: nothing routes adaptively",
			edits: []edit{appendTo(spine02C, "nv set router adaptive-routing state enabled\n")},
			want:  []string{"info spine02"}, msg: "on none of its links to the leaves (swp1-2)"},
		{name: "on for the switch and on one of two routed ports: mixed",
			edits: []edit{appendTo(spine02C, "nv set router adaptive-routing state enabled\nnv set interface swp1 router adaptive-routing state enabled\n")},
			want:  []string{"warning spine02"}, msg: "on for swp1 but off for swp2, links to the leaves of the same ECMP group"},
		{name: "on for the switch and every routed port", edits: []edit{appendTo(spine02C,
			"nv set router adaptive-routing state enabled\nnv set interface swp1-2 router adaptive-routing state enabled\n")},
			want: []string{"warning spine02"}, msg: "on for swp1-2, but the policy hashes"},
		{name: "ports alone do nothing from 5.13 on", edits: []edit{appendTo(spine02C, "nv set interface swp1-2 router adaptive-routing state enabled\n")}},
		{name: "up to 5.12 a port turns the feature on", edits: []edit{leaf01SN5600,
			replace(leaf01Y, "version: Cumulus Linux 5.14.0", "version: Cumulus Linux 5.12.0"),
			replace(leaf01Y, "      swp31:\n        description: uplink-spine01\n", "      swp31:\n        description: uplink-spine01\n        router:\n          adaptive-routing:\n            enable: on\n")},
			want: []string{"warning leaf01"}, msg: "on for swp31 but off for swp32"},
		{name: "policy wants it: switch and routed ports", edits: []edit{wantAR, appendTo(spine02C,
			"nv set router adaptive-routing state enabled\nnv set interface swp1-2 router adaptive-routing state enabled\n")},
			want: []string{"error leaf01", "error leaf01 swp31-32", "error leaf02", "error leaf02 swp31-32", "error spine01", "error spine01 swp1-2"},
			msg:  "adaptive routing is off"},
		{name: "policy wants it: one port turned off", edits: []edit{wantAR, appendTo(spine02C,
			"nv set router adaptive-routing state enabled\nnv set interface swp1 router adaptive-routing state enabled\nnv set interface swp2 router adaptive-routing state disabled\n")},
			want: []string{"error leaf01", "error leaf01 swp31-32", "error leaf02", "error leaf02 swp31-32", "error spine01", "error spine01 swp1-2", "error spine02 swp2"}},
		{name: "policy wants it: bonds, bridge members and subinterfaces are not asked", edits: []edit{wantAR, appendTo(spine02C,
			"nv set router adaptive-routing state enabled\nnv set interface swp1-2 router adaptive-routing state enabled\n"+
				"nv set interface bond1 bond member swp5-6\nnv set interface bond1 ip address 10.0.0.1/31\n"+
				"nv set interface swp7 bridge domain br_default\nnv set interface swp8.100 ip address 10.0.1.1/31\n")},
			want: []string{"error leaf01", "error leaf01 swp31-32", "error leaf02", "error leaf02 swp31-32", "error spine01", "error spine01 swp1-2"}},
		{name: "policy wants it: a routed split port cabled to no switch is no fabric link", edits: []edit{wantAR, appendTo(spine02C,
			"nv set router adaptive-routing state enabled\nnv set interface swp1-2 router adaptive-routing state enabled\n"+
				"nv set interface swp9 link breakout 2x\nnv set interface swp9s1 ip address 10.0.2.1/31\n")},
			want: []string{"error leaf01", "error leaf01 swp31-32", "error leaf02", "error leaf02 swp31-32", "error spine01", "error spine01 swp1-2"}},
		{name: "policy wants it: without lldp.json a routed split port is in the approximated group", edits: []edit{wantAR,
			remove(dev("spine02", "lldp.json")), appendTo(spine02C,
				"nv set router adaptive-routing state enabled\nnv set interface swp1-2 router adaptive-routing state enabled\n"+
					"nv set interface swp9 link breakout 2x\nnv set interface swp9s1 ip address 10.0.2.1/31\n")},
			want: []string{"error leaf01", "error leaf01 swp31-32", "error leaf02", "error leaf02 swp31-32", "error spine01", "error spine01 swp1-2", "error spine02 swp9s1"}},
	}
})

// The ECMP group of adaptive routing from the cabling: leaf01 of the clean
// pod reaches spine01 and spine02 on swp31 and swp32 (its lldp.json, in the
// shape of lldpcli -f json0 show neighbors details, lldpd/lldpd), and in
// these cases also routes on swp30, a BGP unnumbered port cabled to no
// inventory switch. leaf01 runs CL 5.14, so the settings are `enable: on`
// (CumulusNetworks/docs content/cumulus-linux-514/Layer-3/Routing/
// Equal-Cost-Multipath-Load-Sharing.md). The spines and leaf02 are left
// without adaptive routing, and their findings are the same in every case.
// leaf01 is made a Spectrum-4 SN5600 whenever it turns adaptive routing on,
// which the clean pod's Spectrum-3 MSN4700 does not support
// (adaptive_routing_limits.go).
var (
	leaf01ARGlobal = edits(replace(leaf01Y, "    router:\n      bgp:\n", "    router:\n      adaptive-routing:\n        enable: on\n      bgp:\n"), leaf01SN5600)
	leaf01Swp30    = replace(leaf01Y, "            neighbor:\n              swp31:\n",
		"            neighbor:\n              swp30:\n                remote-as: external\n                type: unnumbered\n              swp31:\n")
	leaf01ARPort = func(port string) edit {
		return replace(leaf01Y, "      "+port+":\n        description: uplink-", "      "+port+":\n        router:\n          adaptive-routing:\n            enable: on\n        description: uplink-")
	}
	othersWithoutAR = []string{"error leaf02", "error leaf02 swp31-32", "error spine01", "error spine01 swp1-2", "error spine02", "error spine02 swp1-2"}
)

var _ = register(adaptiveRouting, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "policy wants it: on for both uplinks, a routed non-uplink without it passes",
			edits: []edit{wantAR, leaf01ARGlobal, leaf01Swp30, leaf01ARPort("swp31"), leaf01ARPort("swp32")},
			want:  othersWithoutAR},
		{name: "policy wants it: on for one uplink of two",
			edits: []edit{wantAR, leaf01ARGlobal, leaf01Swp30, leaf01ARPort("swp31")},
			want:  append([]string{"error leaf01 swp32"}, othersWithoutAR...),
			msg:   "adaptive routing is off on these uplinks to the spines but on for swp31: mixing"},
		{name: "policy wants it: without leaf01's lldp.json its routed ports stand in, and the finding says so",
			edits: []edit{wantAR, remove(dev("leaf01", "lldp.json")), leaf01ARGlobal, leaf01Swp30, leaf01ARPort("swp31"), leaf01ARPort("swp32")},
			want:  append([]string{"error leaf01 swp30"}, othersWithoutAR...),
			msg:   "off on these routed ports but on for swp31-32: mixing adaptive routing and ECMP hashing in one group gives unexpected route hashing (the ECMP group is approximated by the routed ports: lldp.json not collected)"},
		{name: "policy hashes: on for the switch and one uplink of leaf01",
			edits: []edit{leaf01ARGlobal, leaf01Swp30, leaf01ARPort("swp31")},
			want:  []string{"warning leaf01"}, msg: "on for swp31 but off for swp32, uplinks to the spines of the same ECMP group"},
	}
})

// leaf01SN5600 makes leaf01 a Spectrum-4 ("NVIDIA SN5600 (Spectrum-4)",
// CumulusNetworks/docs content/cumulus-linux-54/Whats-New/rn.md).
var leaf01SN5600 = replace(leaf01Y, "model: MSN4700", "model: SN5600")
