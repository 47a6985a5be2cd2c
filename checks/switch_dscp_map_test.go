package checks

import (
	"testing"
)

var _ = register(switchDSCPMap, func(t testing.TB) []checkCase {
	return []checkCase{
		{name: "every port's roce and cnp rows agree"},
		{name: "a port's roce row", edits: []edit{replace(spine01St("swp5"), "roce  3    26    3", "roce  3    26    0")},
			want: []string{"warning spine01 swp5"}, msg: "the port maps DSCP 26 to switch-priority 0 but its configuration says 3"},
		{name: "a port's cnp row", edits: []edit{replace(spine01St("swp6"), "cnp   6    48    6", "cnp   6    48    0")},
			want: []string{"warning spine01 swp6"}, msg: "maps DSCP 48 to switch-priority 0"},
		{name: "a port's status missing", edits: []edit{remove(spine01St("swp32"))},
			want: []string{"info spine01"}, msg: "of swp32 not collected"},
		// A mapping profile bound on swp5-8 moves 26 to priority 1: those
		// ports' roce rows must show 1, the others keep default-global's 3.
		{name: "a profile bound on some ports, applied", edits: append(spine01EdgeMap(),
			applied("swp5"), applied("swp6"), applied("swp7"), applied("swp8")),
			want: []string{"error spine01 swp5-8"}},
		{name: "a profile bound on some ports, not applied on one", edits: append(spine01EdgeMap(),
			applied("swp5"), applied("swp6"), applied("swp8")),
			want: []string{"error spine01 swp5-8", "warning spine01 swp7"}, msg: "DSCP 26 maps to switch-priority 1"},
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
