package checks

import "testing"

var (
	spine01Y = dev("spine01", "nv-config.yaml")
	spine02C = dev("spine02", "nv-config-commands.txt")
	leaf01Y  = dev("leaf01", "nv-config.yaml") // CL 5.14 syntax
	leaf02Y  = dev("leaf02", "nv-config.yaml") // CL 5.18, custom profiles on swp1-32
	leaf01S  = dev("leaf01", "nv-show-qos-roce.txt")
)

func TestSwitchRoCEMode(t *testing.T) {
	runCases(t, switchRoCEMode, []checkCase{
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
	})
}

func TestSwitchTrust(t *testing.T) {
	runCases(t, switchTrust, []checkCase{
		{name: "clean"},
		{name: "profile trusts l2", edits: []edit{replace(leaf02Y, "trust: both", "trust: l2")},
			want: []string{"error leaf02 swp1-32"}, msg: "ports trust l2"},
		{name: "default-global trusts port", edits: []edit{appendTo(spine02C, "nv set qos mapping default-global trust port\n")},
			want: []string{"error spine02 swp1-32"}},
		{name: "l3 is fine", edits: []edit{appendTo(spine02C, "nv set qos mapping default-global trust l3\n")}},
	})
}

func TestSwitchDSCPMap(t *testing.T) {
	runCases(t, switchDSCPMap, []checkCase{
		{name: "clean"},
		{name: "default-global moves 26", edits: []edit{appendTo(spine02C, "nv set qos mapping default-global dscp 26 switch-priority 0\n")},
			want: []string{"error spine02 swp1-32", "warning spine02"}, msg: "DSCP 26 maps to switch-priority 0"},
		{name: "a list key moves 26 on some ports", edits: []edit{appendTo(spine02C,
			"nv set qos mapping edge dscp 10,26,36 switch-priority 1\nnv set interface swp5-8 qos mapping profile edge\n")},
			want: []string{"error spine02 swp5-8"}},
		{name: "profile map", edits: []edit{replace(leaf02Y, "'26':\n              switch-priority: 3", "'26':\n              switch-priority: 4")},
			want: []string{"error leaf02 swp1-32"}},
		{name: "operational table disagrees", edits: []edit{replace(leaf01S, "24,25,26,27,28,29,30,31  3", "24,25,26,27,28,29,30,31  0")},
			want: []string{"warning leaf01"}, msg: "configuration not applied"},
	})
}

func TestSwitchPFC(t *testing.T) {
	runCases(t, switchPFC, []checkCase{
		{name: "clean"},
		{name: "moved to 4", edits: []edit{appendTo(spine02C, "nv set qos pfc default-global switch-priority 4\n")},
			want: []string{"error spine02 swp1-32"}, msg: "instead of 3"},
		{name: "extra priority", edits: []edit{replace(leaf02Y, "'3': {}", "'3': {}\n            '4': {}")},
			want: []string{"warning leaf02 swp1-32"}, msg: "also on switch-priority 4"},
		{name: "tx disabled", edits: []edit{replace(leaf02Y, "tx: enable", "tx: disable")},
			want: []string{"error leaf02 swp1-32"}, msg: "PFC tx is disabled"},
		{name: "lossy RoCE has no PFC", edits: []edit{replace(spine01Y, "mode: lossless", "mode: lossy")},
			want: []string{"error spine01 swp1-32"}, msg: "not on switch-priority 3"},
	})
}

func TestSwitchQueueMap(t *testing.T) {
	runCases(t, switchQueueMap, []checkCase{
		{name: "clean"},
		{name: "RoCE to TC 0", edits: []edit{appendTo(spine02C, "nv set qos egress-queue-mapping default-global switch-priority 3 traffic-class 0\n")},
			want: []string{"error spine02"}, msg: "traffic-class 0"},
		{name: "another priority shares TC 3", edits: []edit{appendTo(spine02C, "nv set qos egress-queue-mapping default-global switch-priority 0 traffic-class 3\n")},
			want: []string{"warning spine02"}, msg: "shares the RoCE traffic-class"},
	})
}

func TestSwitchECN(t *testing.T) {
	runCases(t, switchECN, []checkCase{
		{name: "clean"},
		{name: "profile disables ECN", edits: []edit{replace(leaf02Y, "ecn: enable", "ecn: disable")},
			want: []string{"error leaf02 swp1-32"}, msg: "ECN is off on traffic-class 3"},
		{name: "default-global disables ECN (5.15 spelling)", edits: []edit{appendTo(spine02C, "nv set qos congestion-control default-global traffic-class 3 ecn disabled\n")},
			want: []string{"error spine02 swp1-32"}},
		{name: "thresholds inverted", edits: []edit{replace(leaf02Y, "min-threshold: 150000", "min-threshold: 2000000")},
			want: []string{"warning leaf02 swp1-32"}, msg: "not below max-threshold"},
	})
}

func TestSwitchCNP(t *testing.T) {
	runCases(t, switchCNP, []checkCase{
		{name: "clean"},
		{name: "CNP DSCP to 0", edits: []edit{appendTo(spine02C, "nv set qos mapping default-global dscp 48 switch-priority 0\n")},
			want: []string{"error spine02 swp1-32"}, msg: "CNP DSCP 48 maps to switch-priority 0"},
	})
	runCases(t, switchCNP, []checkCase{
		{name: "CNP priority into the RoCE queue", edits: []edit{appendTo(spine02C, "nv set qos egress-queue-mapping default-global switch-priority 6 traffic-class 3\n")},
			want: []string{"error spine02"}, msg: "CNPs wait behind"},
		{name: "CNP queue not strict", edits: []edit{appendTo(spine02C, "nv set qos egress-scheduler default-global traffic-class 6 mode dwrr\n")},
			want: []string{"warning spine02 swp1-32"}, msg: "not strict"},
	})
}

func TestECMPHash(t *testing.T) {
	runCases(t, ecmpHash, []checkCase{
		{name: "clean"},
		{name: "source-port off (5.15)", edits: []edit{replace(spine02C, "ecmp-hash source-port enabled", "ecmp-hash source-port disabled")},
			want: []string{"error spine02"}, msg: "UDP source port"},
		{name: "source-port off (5.14)", edits: []edit{replace(leaf01Y, "source-port: on", "source-port: off")},
			want: []string{"error leaf01"}},
		{name: "policy field off", edits: []edit{replace(leaf01Y, "ip-protocol: on", "ip-protocol: off")},
			want: []string{"warning leaf01"}, msg: "ip-protocol"},
	})
}

func TestAdaptiveRouting(t *testing.T) {
	runCases(t, adaptiveRouting, []checkCase{
		{name: "clean"},
		{name: "on where the policy says off", edits: []edit{appendTo(spine02C, "nv set router adaptive-routing state enabled\n")},
			want: []string{"warning spine02"}},
		{name: "policy wants it everywhere", edits: []edit{replace("inventory.hcl", "preset = \"cumulus-default\"", "preset = \"cumulus-default\"\n  ecmp {\n    adaptive_routing = true\n  }"),
			appendTo(spine02C, "nv set router adaptive-routing state enabled\n")},
			want: []string{"error leaf01", "error leaf02", "error spine01"}, msg: "adaptive routing is off"},
	})
}

func TestMTUSwitch(t *testing.T) {
	runCases(t, mtu, []checkCase{
		{name: "clean"},
		{name: "two ports at 1500", edits: []edit{appendTo(spine02C, "nv set interface swp5,swp7 link mtu 1500\n")},
			want: []string{"error spine02 swp5,swp7"}, msg: "MTU 1500"},
	})
}
