package checks

import "testing"

var pcpPolicy = replace("inventory.hcl", `preset = "cumulus-default"`, "preset = \"cumulus-default\"\n  trust  = \"pcp\"")

// The mapping commands are the QoS guide's Trust 802.1p Marking examples
// (CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-Switch-Ports/
// Quality-of-Service/_index.md: `nv set qos mapping default-global trust l2`,
// `... pcp 0 switch-priority 4`, `... pcp 2,3,4 switch-priority 0`).
var _ = register(switchPCPMap, func(testing.TB) []checkCase {
	const l2 = "nv set qos mapping default-global trust l2\n"
	return []checkCase{
		{name: "clean: DSCP policy"},
		{name: "DSCP policy: the PCP map is not judged", edits: []edit{appendTo(spine02C, l2+"nv set qos mapping default-global pcp 2,3,4 switch-priority 0\n")}},
		{name: "PCP policy, switches trust both: RoCEv2 is classified by DSCP", edits: []edit{pcpPolicy,
			appendTo(spine02C, "nv set qos mapping default-global pcp 2,3,4 switch-priority 0\n")}},
		{name: "PCP policy, trust l2, default map", edits: []edit{pcpPolicy, appendTo(spine02C, l2)}},
		{name: "PCP policy, trust l2, the guide's pcp 2,3,4 → 0", edits: []edit{pcpPolicy,
			appendTo(spine02C, l2+"nv set qos mapping default-global pcp 2,3,4 switch-priority 0\n")},
			want: []string{"error spine02 swp1-32"}, msg: "map PCP 3, the RoCE priority the hosts tag, to switch-priority 0"},
		{name: "PCP policy, a profile on some ports moves the CNP PCP", edits: []edit{pcpPolicy, appendTo(spine02C,
			"nv set qos mapping edge trust l2\nnv set qos mapping edge pcp 6 switch-priority 0\nnv set interface swp5-8 qos mapping profile edge\n")},
			want: []string{"error spine02 swp5-8"}, msg: "PCP 6, the CNP priority"},
		{name: "PCP policy, a profile on some ports relies on the default map", edits: []edit{pcpPolicy, appendTo(spine02C,
			"nv set qos mapping edge trust l2\nnv set interface swp5-8 qos mapping profile edge\n")}},
	}
})
