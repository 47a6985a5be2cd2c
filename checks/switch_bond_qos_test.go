package checks

import (
	"fmt"
	"testing"
)

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
