package checks

import "testing"

// The clean pod's lldp.json files (lldpd's json0 and json forms) cable
// gpuN ens1f0np0 to leaf01 swpN, ens1f1np1 to leaf02 swpN, and each leaf's
// swp31/swp32 to spine01/spine02; leaf02 sees gpu04 through ConnectX
// firmware LLDP (MAC port ID, no system name).
const nicUp = `"flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":9000`

func hostMTU(host, nic, mtu string) edit {
	return replace(dev(host, "ip-link.json"), `"ifname":"`+nic+`",`+nicUp,
		`"ifname":"`+nic+`",`+nicUp[:len(nicUp)-4]+mtu)
}

// edgeProfile binds leaf01 swp2 alone to a mapping profile that trusts l2.
var edgeProfile = []edit{
	replace(leaf01Y, "      swp31:\n        description: uplink-spine01", "      swp2:\n        qos:\n          mapping:\n            profile: EDGE\n      swp31:\n        description: uplink-spine01"),
	replace(leaf01Y, "    qos:\n      roce:", "    qos:\n      mapping:\n        EDGE:\n          trust: l2\n      roce:"),
}

var _ = register(linkMTU, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		// The hosts are at 9000: RoCE sends at most 4192-byte packets
		// (path MTU 4096 plus the 96 bytes iboe_get_mtu budgets).
		{name: "host above its switch port", edits: []edit{hostMTU("gpu01", "ens1f0np0", "9500")},
			want: []string{"warning leaf01 swp1"}, msg: "switch port MTU 9216 is below the host's 9500: RoCE's packets (at most 4192 bytes) fit both ends"},
		{name: "a switch port below RoCE's packets", edits: []edit{
			replace(leaf01Y, "      swp31:\n        description: uplink-spine01", "      swp1:\n        link:\n          mtu: 4000\n      swp31:\n        description: uplink-spine01")},
			want: []string{"error leaf01 swp1"}, msg: "switch port MTU 4000 is below the host's 9000: RoCE packets of up to 4192 bytes (path MTU 4096 plus 96 bytes of headers) are dropped"},
		{name: "leaf-spine mismatch", edits: []edit{appendTo(spine02C, "nv set interface swp2 link mtu 9000\n")},
			// 9000 is also below the 9216 minimum: that is the mtu check's
			// finding; this one is the mismatch across the cable, which
			// nothing the hosts (at 9000) send reaches.
			want: []string{"info spine02 swp2"}, msg: "the switch ports' MTUs differ (9216 and 9000): nothing the hosts send is that large"},
		{name: "leaf-spine differ above the minimum", edits: []edit{replace("inventory.hcl", "switch = 9216", "switch = 9000"),
			appendTo(spine02C, "nv set interface swp2 link mtu 9100\n")},
			want: []string{"info spine02 swp2"}, msg: "the switch ports' MTUs differ (9216 and 9100)"},
		{name: "leaf-spine below RoCE's packets", edits: []edit{appendTo(spine02C, "nv set interface swp2 link mtu 4000\n")},
			want: []string{"error spine02 swp2"}, msg: "the switch ports' MTUs differ (9216 and 4000): RoCE packets of up to 4192 bytes"},
		// A host below its minimum is the mtu check's finding alone: its
		// switch port still takes its frames.
		{name: "host below the minimum", edits: []edit{hostMTU("gpu03", "ens1f1np1", "1500")}},
		// Without gpu04's own LLDP, leaf02 still sees its NIC through the
		// firmware's MAC port ID, resolved through gpu04's ip-link.json.
		{name: "one-sided, by MAC", edits: []edit{remove(dev("gpu04", "lldp.json")), hostMTU("gpu04", "ens1f1np1", "9500")},
			want: []string{"info gpu04", "warning leaf02 swp4"}, msg: "lldp.json not collected"},
		{name: "no LLDP anywhere", edits: []edit{remove(dev("gpu01", "lldp.json")), remove(dev("gpu02", "lldp.json")),
			remove(dev("gpu03", "lldp.json")), remove(dev("gpu04", "lldp.json")), remove(dev("leaf01", "lldp.json")),
			remove(dev("leaf02", "lldp.json")), remove(dev("spine01", "lldp.json")), remove(dev("spine02", "lldp.json")),
			hostMTU("gpu01", "ens1f0np0", "9500")},
			want: []string{"info gpu01", "info gpu02", "info gpu03", "info gpu04", "info leaf01", "info leaf02", "info spine01", "info spine02"},
			msg:  "lldp.json not collected"},
	}
})

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

var _ = register(linkPFC, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "spine PFC on 4", edits: []edit{appendTo(spine02C, "nv set qos pfc default-global switch-priority 4\n")},
			want: []string{"info leaf01 swp32", "info leaf02 swp32"}, msg: "spine02:swp1: PFC is on switch-priority 4 instead of 3"},
		{name: "host PFC on 4", edits: []edit{replace(dev("gpu02", "mlnx_qos-ens1f1np1.txt"), "enabled     0   0   0   1   0   0   0   0", "enabled     0   0   0   0   1   0   0   0")},
			want: []string{"info gpu02 ens1f1np1"}, msg: "gpu02:ens1f1np1: PFC is on priority 4 instead of 3"},
		{name: "a second PFC priority is no link break", edits: []edit{replace(dev("leaf02", "nv-config.yaml"), "'3': {}", "'3': {}\n            '4': {}")}},
		{name: "not collected", edits: []edit{remove(dev("spine01", "lldp.json"))}, want: []string{"info spine01"}},
	}
})

// The clean pod's topology.dot plans every cable its LLDP reports.
const topoDot = "topology.dot"

var _ = register(cabling, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "no plan", edits: []edit{remove(topoDot), remove(dev("gpu01", "lldp.json"))}},
		// The plan swaps gpu01's and gpu02's first NICs: LLDP sees each
		// on the other's port, one swap.
		{name: "swapped", edits: []edit{
			replace(topoDot, `"leaf01":"swp1" -- "gpu01"`, `"leaf01":"swp1" -- "gpuX"`),
			replace(topoDot, `"leaf01":"swp2" -- "gpu02"`, `"leaf01":"swp2" -- "gpu01"`),
			replace(topoDot, `"leaf01":"swp1" -- "gpuX"`, `"leaf01":"swp1" -- "gpu02"`)},
			want: []string{"error leaf01 swp1"}, msg: "cables swapped: the plan has gpu02:ens1f0np0 - leaf01:swp1 (topology.dot:10) and gpu01:ens1f0np0 - leaf01:swp2 (topology.dot:11); LLDP sees gpu02:ens1f0np0 - leaf01:swp2"},
		{name: "miscabled", edits: []edit{replace(topoDot, `"leaf02":"swp4" -- "gpu04"`, `"leaf02":"swp5" -- "gpu04"`)},
			want: []string{"error gpu04 ens1f1np1"}, msg: "miscabled: gpu04:ens1f1np1 goes to leaf02:swp4 (LLDP devices/gpu04/lldp.json:"},
		{name: "missing and unexpected", edits: []edit{
			replace(topoDot, `"spine02":"swp2" -- "leaf02":"swp32";`, `"spine02":"swp2" -- "leaf02":"swp32";
    "spine02":"swp9" -- "leaf02":"swp29";`),
			remove(dev("gpu03", "lldp.json")),
			replace(topoDot, `    "leaf01":"swp3" -- "gpu03":"ens1f0np0";`+"\n", "")},
			want: []string{"error gpu03 ens1f0np0", "info gpu03", "error leaf02 swp29"}},
		// Without leaf02's and gpu04's LLDP nobody reports their cable:
		// not collected, never missing.
		{name: "not collected", edits: []edit{remove(dev("leaf02", "lldp.json")), remove(dev("gpu04", "lldp.json"))},
			want: []string{"info gpu04", "info leaf02"}},
		{name: "fqdn node names", edits: []edit{replace(topoDot, `"gpu01":"ens1f0np0"`, `"gpu01.example.com":"ens1f0np0"`)}},
	}
})

// The clean pod's rail rule: NIC 0 (ens1f0np0 in ibdev2netdev order) on
// leaf01, NIC 1 on leaf02.
var _ = register(railAlignment, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "no rule", edits: []edit{replace("inventory.hcl", `groups = [["leaf01"], ["leaf02"]]`, `groups = [["leaf02"], ["leaf01"]]`),
			replace("inventory.hcl", "  rails {\n    groups = [[\"leaf02\"], [\"leaf01\"]]\n  }\n", "")}},
		// ibdev2netdev lists gpu02's NICs the other way round: its NIC 0
		// is ens1f1np1, on leaf02.
		{name: "NIC order from ibdev2netdev", edits: []edit{write(dev("gpu02", "ibdev2netdev.txt"),
			"mlx5_1 port 1 ==> ens1f1np1 (Up)\nmlx5_0 port 1 ==> ens1f0np0 (Up)\n")},
			want: []string{"error gpu02 ens1f0np0", "error gpu02 ens1f1np1"},
			msg:  "NIC 1 (ens1f0np0, order from devices/gpu02/ibdev2netdev.txt:2) is on leaf01:swp2"},
		{name: "NIC order from the inventory", edits: []edit{replace("inventory.hcl", `host "gpu03" { address = "198.51.100.13" }`,
			`host "gpu03" {
  address = "198.51.100.13"
  nics    = ["ens1f1np1", "ens1f0np0"]
}`)},
			want: []string{"error gpu03 ens1f0np0", "error gpu03 ens1f1np1"}, msg: "NIC 1 (ens1f0np0, order from inventory.hcl:41) is on leaf01:swp3 (LLDP devices/gpu03/lldp.json:5, devices/leaf01/lldp.json:127), not on rail 1 (leaf02)"},
		{name: "two planes", edits: []edit{replace("inventory.hcl", `groups = [["leaf01"], ["leaf02"]]`, `groups = [["spine01", "leaf01"], ["leaf02", "spine02"]]`)}},
		{name: "ibdev2netdev not collected", edits: []edit{remove(dev("gpu04", "ibdev2netdev.txt"))}, want: []string{"info gpu04"}},
	}
})
