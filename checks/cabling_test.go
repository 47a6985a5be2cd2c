package checks

import (
	"testing"
)

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
