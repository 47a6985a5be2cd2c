package checks

import (
	"fmt"
	"testing"
)

var (
	spine01Y = dev("spine01", "nv-config.yaml")
	spine02C = dev("spine02", "nv-config-commands.txt")
	leaf01Y  = dev("leaf01", "nv-config.yaml") // CL 5.14 syntax
	leaf02Y  = dev("leaf02", "nv-config.yaml") // CL 5.18, custom profiles on swp1-32
	leaf01S  = dev("leaf01", "nv-show-qos-roce.txt")
)

var _ = register(switchRoCEMode, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "lossy", edits: []edit{replace(leaf01Y, "mode: lossless", "mode: lossy"),
			replace(leaf01S, "mode                lossless     lossless", "mode                lossy        lossy")},
			// The edited show still prints pfc-priority 3 and the
			// roce-reserved pools of lossless mode: two drifts at their rows.
			want: []string{"error leaf01", "warning leaf01", "warning leaf01"}, msg: "RoCE mode is lossy"},
		{name: "off (5.14 enable off)", edits: []edit{replace(leaf01Y, "enable: on\n        mode", "enable: off\n        mode")},
			want: []string{"error leaf01", "warning leaf01"}, msg: "RoCE QoS is off"},
		{name: "absent", edits: []edit{replace(spine02C, "nv set qos roce mode lossless\nnv set qos roce state enabled\n", "")},
			// spine02's `nv show qos roce` still reports lossless: drift too.
			want: []string{"error spine02", "warning spine02"}},
		{name: "not applied", edits: []edit{replace(leaf01S, "mode                lossless     lossless", "mode                lossy        lossless")},
			want: []string{"warning leaf01"}, msg: "configuration not applied"},
		{name: "lossless-single-ipool is lossless", edits: []edit{}, want: nil},
	}
})

var _ = register(switchTrust, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "profile trusts l2", edits: []edit{replace(leaf02Y, "trust: both", "trust: l2")},
			want: []string{"error leaf02 swp1-32"}, msg: "ports trust l2"},
		{name: "default-global trusts port", edits: []edit{appendTo(spine02C, "nv set qos mapping default-global trust port\n")},
			want: []string{"error spine02 swp1-32"}},
		{name: "l3 is fine", edits: []edit{appendTo(spine02C, "nv set qos mapping default-global trust l3\n")}},
	}
})

var _ = register(switchDSCPMap, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "default-global moves 26", edits: []edit{appendTo(spine02C, "nv set qos mapping default-global dscp 26 switch-priority 0\n")},
			want: []string{"error spine02 swp1-32", "warning spine02"}, msg: "DSCP 26 maps to switch-priority 0"},
		{name: "a list key moves 26 on some ports", edits: []edit{appendTo(spine02C,
			"nv set qos mapping edge dscp 10,26,36 switch-priority 1\nnv set interface swp5-8 qos mapping profile edge\n")},
			want: []string{"error spine02 swp5-8"}},
		// Ports grouped by the mapping profile alone: swp5's own pfc
		// profile does not split default-global's map into two findings
		// with one fix.
		{name: "another feature's profile on one port does not split the finding", edits: []edit{appendTo(spine02C,
			"nv set qos mapping default-global dscp 26 switch-priority 0\nnv set qos pfc storage-pfc switch-priority 3\nnv set interface swp5 qos pfc profile storage-pfc\n")},
			want: []string{"error spine02 swp1-32", "warning spine02"}},
		{name: "profile map", edits: []edit{replace(leaf02Y, "'26':\n              switch-priority: 3", "'26':\n              switch-priority: 4")},
			want: []string{"error leaf02 swp1-32"}},
		{name: "operational table disagrees", edits: []edit{replace(leaf01S, "24,25,26,27,28,29,30,31  3", "24,25,26,27,28,29,30,31  0")},
			want: []string{"warning leaf01"}, msg: "configuration not applied"},
	}
})

var _ = register(switchPFC, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "moved to 4", edits: []edit{appendTo(spine02C, "nv set qos pfc default-global switch-priority 4\n")},
			want: []string{"error spine02 swp1-32"}, msg: "instead of 3"},
		{name: "extra priority", edits: []edit{replace(leaf02Y, "'3': {}", "'3': {}\n            '4': {}")},
			want: []string{"warning leaf02 swp1-32"}, msg: "also on switch-priority 4"},
		// A port bound to a pfc profile written for other traffic (the
		// broken pod's defect 20): the finding is that port's, named after
		// the profile, the others keep default-global's PFC on 3.
		{name: "one port's own pfc profile without the RoCE priority", edits: []edit{appendTo(spine02C,
			"nv set qos pfc storage-pfc switch-priority 2\nnv set interface swp5 qos pfc profile storage-pfc\n")},
			want: []string{"error spine02 swp5"}, msg: "PFC is on switch-priority 2 instead of 3"},
		{name: "tx disabled", edits: []edit{replace(leaf02Y, "tx: enable", "tx: disable")},
			want: []string{"error leaf02 swp1-32"}, msg: "PFC tx is disabled"},
		{name: "lossy RoCE has no PFC", edits: []edit{replace(spine01Y, "mode: lossless", "mode: lossy")},
			want: []string{"error spine01 swp1-32"}, msg: "not on switch-priority 3"},
	}
})

var _ = register(switchQueueMap, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "RoCE to TC 0", edits: []edit{appendTo(spine02C, "nv set qos egress-queue-mapping default-global switch-priority 3 traffic-class 0\n")},
			want: []string{"error spine02"}, msg: "traffic-class 0"},
		{name: "another priority shares TC 3", edits: []edit{appendTo(spine02C, "nv set qos egress-queue-mapping default-global switch-priority 0 traffic-class 3\n")},
			want: []string{"warning spine02"}, msg: "shares the RoCE traffic-class"},
	}
})

var _ = register(switchECN, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "profile disables ECN", edits: []edit{replace(leaf02Y, "ecn: enable", "ecn: disable")},
			want: []string{"error leaf02 swp1-32"}, msg: "ECN is off on traffic-class 3"},
		{name: "default-global disables ECN (5.15 spelling)", edits: []edit{appendTo(spine02C, "nv set qos congestion-control default-global traffic-class 3 ecn disabled\n")},
			want: []string{"error spine02 swp1-32"}},
		{name: "thresholds inverted", edits: []edit{replace(leaf02Y, "min-threshold: 150000", "min-threshold: 2000000")},
			want: []string{"warning leaf02 swp1-32"}, msg: "not below max-threshold"},
	}
})

var _ = register(switchCNP, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "CNP DSCP to 0", edits: []edit{appendTo(spine02C, "nv set qos mapping default-global dscp 48 switch-priority 0\n")},
			want: []string{"error spine02 swp1-32"}, msg: "CNP DSCP 48 maps to switch-priority 0"},
		{name: "CNP priority into the RoCE queue", edits: []edit{appendTo(spine02C, "nv set qos egress-queue-mapping default-global switch-priority 6 traffic-class 3\n")},
			want: []string{"error spine02"}, msg: "CNPs wait behind"},
		{name: "CNP queue not strict", edits: []edit{appendTo(spine02C, "nv set qos egress-scheduler default-global traffic-class 6 mode dwrr\n")},
			want: []string{"warning spine02 swp1-32"}, msg: "not strict"},
	}
})

var _ = register(ecmpHash, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "source-port off (5.15)", edits: []edit{replace(spine02C, "ecmp-hash source-port enabled", "ecmp-hash source-port disabled")},
			want: []string{"error spine02"}, msg: "UDP source port"},
		{name: "source-port off (5.14)", edits: []edit{replace(leaf01Y, "source-port: on", "source-port: off")},
			want: []string{"error leaf01"}},
		{name: "policy field off", edits: []edit{replace(leaf01Y, "ip-protocol: on", "ip-protocol: off")},
			want: []string{"warning leaf01"}, msg: "ip-protocol"},
	}
})

// wantAR is the inventory edit that makes the policy ask for adaptive
// routing.
var wantAR = replace("inventory.hcl", "preset = \"cumulus-default\"", "preset = \"cumulus-default\"\n  ecmp {\n    adaptive_routing = true\n  }")

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

// Bonds in the startup.yaml shape of CumulusNetworks/docs content/
// cumulus-linux-515/Layer-2/Multi-Chassis-Link-Aggregation-MLAG.md
// (`bond1: bond: member: swp1: {}` with `type: bond`) and the commands of
// Bonding-Link-Aggregation.md (`nv set interface bond1 bond member swp1-4`).
var _ = register(switchBondQoS, func(testing.TB) []checkCase {
	bondOnLeaf02 := replace(leaf02Y, "      swp31:\n", "      bond1:\n        bond:\n          member:\n            swp1: {}\n            swp2: {}\n        type: bond\n      swp31:\n")
	return []checkCase{
		{name: "clean"},
		{name: "members bound through a range", edits: []edit{bondOnLeaf02},
			want: []string{"error leaf02 swp1-2", "error leaf02 swp1-2", "error leaf02 swp1-2"}, msg: "NVUE rejects QoS on bond members"},
		{name: "the bond bound, its members not", edits: []edit{appendTo(spine02C,
			"nv set interface bond1 bond member swp5-6\nnv set interface bond1 qos pfc profile default-global\n")}},
		{name: "one member bound (commands)", edits: []edit{appendTo(spine02C,
			"nv set interface bond1 bond member swp5-6\nnv set interface swp6 qos mapping profile default-global\n")},
			want: []string{"error spine02 swp6"}, msg: "qos mapping profile default-global is bound on swp6, a member of bond1"},
	}
})

func TestBondFix(t *testing.T) {
	f := fabric(t, appendTo(spine02C, "nv set qos mapping HOSTS trust both\nnv set interface bond1 bond member swp5-6\nnv set interface swp5-6 qos mapping profile HOSTS\n"))
	fs := switchBondQoS.Run(f)
	if len(fs) != 1 {
		t.Fatalf("findings %+v", fs)
	}
	want := []Change{
		{Kind: NVUEUnset, Path: []string{"interface", "swp5-6", "qos", "mapping", "profile"}, Old: "HOSTS", HasOld: true},
		{Kind: NVUE, Path: []string{"interface", "bond1", "qos", "mapping", "profile"}, Value: "HOSTS"},
	}
	if fmt.Sprint(fs[0].Changes) != fmt.Sprint(want) {
		t.Errorf("changes %+v, want %+v", fs[0].Changes, want)
	}
}

// A bond is a port of its own: findings name it, ranges still compress.
var _ = register(switchDSCPMap, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "a bond and two ports share a profile", edits: []edit{appendTo(spine02C,
			"nv set interface bond1 bond member swp5-6\nnv set qos mapping edge dscp 26 switch-priority 1\nnv set interface bond1,swp7-8 qos mapping profile edge\n")},
			want: []string{"error spine02 bond1,swp7-8"}},
		{name: "an MLAG peerlink is a bond too", edits: []edit{appendTo(spine02C,
			"nv set interface peerlink bond member swp29-30\nnv set interface peerlink type peerlink\nnv set qos mapping edge dscp 26 switch-priority 1\nnv set interface peerlink qos mapping profile edge\n")},
			want: []string{"error spine02 peerlink"}},
	}
})

var _ = register(mtu, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "two ports at 1500", edits: []edit{appendTo(spine02C, "nv set interface swp5,swp7 link mtu 1500\n")},
			want: []string{"error spine02 swp5,swp7"}, msg: "MTU 1500"},
		// "configure the MTU value directly under the bond interface; the
		// member links or slave interfaces inherit the configured value"
		// (CumulusNetworks/docs content/cumulus-linux-515/Layer-1-and-
		// Switch-Ports/Interface-Configuration-and-Management/
		// Switch-Port-Attributes.md).
		{name: "a bond at 1500", edits: []edit{appendTo(spine02C, "nv set interface bond1 bond member swp5-6\nnv set interface bond1 link mtu 1500\n")},
			want: []string{"error spine02 bond1"}, msg: "MTU 1500"},
		{name: "a member's own MTU does not count", edits: []edit{appendTo(spine02C, "nv set interface bond1 bond member swp5-6\nnv set interface swp5 link mtu 1500\n")}},
		{name: "a split port at 1500, its parent not a port", edits: []edit{appendTo(spine02C,
			"nv set interface swp9 link breakout 4x\nnv set interface swp9 link mtu 1500\nnv set interface swp9s1 link mtu 1500\n")},
			want: []string{"error spine02 swp9s1"}},
	}
})
