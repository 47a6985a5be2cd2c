package checks

import (
	"testing"
)

// edgeProfile binds leaf01 swp2 alone to a mapping profile that trusts l2.
var edgeProfile = []edit{
	replace(leaf01Y, "      swp31:\n        description: uplink-spine01", "      swp2:\n        qos:\n          mapping:\n            profile: EDGE\n      swp31:\n        description: uplink-spine01"),
	replace(leaf01Y, "    qos:\n      roce:", "    qos:\n      mapping:\n        EDGE:\n          trust: l2\n      roce:"),
}

var _ = register(linkQoS, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "one port on a profile that trusts l2", edits: edgeProfile,
			want: []string{"info leaf01 swp2"}, msg: "gpu02 ens1f0np0 plugs into leaf01:swp2, whose profiles (mapping EDGE"},
		{name: "default-global moves 26 on a leaf", edits: []edit{replace(dev("leaf02", "nv-config.yaml"), "'26':\n              switch-priority: 3", "'26':\n              switch-priority: 4")},
			want: []string{"info leaf02 swp1", "info leaf02 swp2", "info leaf02 swp3", "info leaf02 swp4"}, msg: "DSCP 26 maps to switch-priority 4"},
		{name: "spine ports carry no host", edits: []edit{appendTo(spine02C, "nv set qos mapping default-global trust l2\n")}},
		{name: "not collected", edits: []edit{remove(dev("leaf01", "lldp.json"))}, want: []string{"info leaf01"}},
	}
})

var _ = register(linkQoS, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "a NIC on a port outside the inventory's ports list, with the RoCE policy", edits: []edit{leaf01PortsWithoutSwp4}},
		{name: "a NIC on a port outside the inventory's ports list, trusting l2",
			edits: append([]edit{leaf01PortsWithoutSwp4}, leaf01Swp4Edge...),
			want:  []string{"error leaf01 swp4"},
			msg:   "swp4 is outside leaf01's ports list in the inventory, so no switch check judges it: add it there"},
	}
})
