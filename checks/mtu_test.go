package checks

import (
	"testing"
)

var _ = register(mtu, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "1500", edits: []edit{replace(dev("gpu01", "ip-link.json"), `"ifname":"ens1f0np0","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":9000`, `"ifname":"ens1f0np0","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":1500`)},
			want: []string{"error gpu01 ens1f0np0"}, msg: "path MTU drops to 1024"},
		{name: "not collected", edits: []edit{remove(dev("gpu01", "ip-link.json"))},
			want: []string{"info gpu01"}},
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
