package checks

import (
	"testing"
)

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
