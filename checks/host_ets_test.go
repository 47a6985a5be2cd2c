package checks

import (
	"testing"
)

// The tc lines are in the shape mlnx_qos pretty_print prints
// (Mellanox/mlnx-tools python/mlnx_qos: "tc: %d ratelimit: %s, tsa: " then
// "ets, bw: %s%%", "strict" or "vendor"), as the clean pod's hosts print
// them.
const (
	roceTC    = "tc: 3 ratelimit: unlimited, tsa: ets, bw: 50%"
	otherTC   = "tc: 0 ratelimit: unlimited, tsa: ets, bw: 50%"
	strictTSA = `preset = "cumulus-default"
  roce {
    host_tsa = "strict"
  }`
)

var _ = register(hostETS, func(testing.TB) []checkCase {
	strict := replace("inventory.hcl", `preset = "cumulus-default"`, strictTSA)
	return []checkCase{
		{name: "clean"},
		{name: "a larger share", edits: []edit{
			replace(gpu01Q0, roceTC, "tc: 3 ratelimit: unlimited, tsa: ets, bw: 70%"),
			replace(gpu01Q0, otherTC, "tc: 0 ratelimit: unlimited, tsa: ets, bw: 30%")}},
		{name: "zero share", edits: []edit{
			replace(gpu01Q0, roceTC, "tc: 3 ratelimit: unlimited, tsa: ets, bw: 0%"),
			replace(gpu01Q0, otherTC, "tc: 0 ratelimit: unlimited, tsa: ets, bw: 100%")},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "priority 3's traffic class 3 is ETS with a 0% share"},
		// mlx5's default: every class vendor, sharing the link equally
		// (en_dcbnl.c mlx5e_build_tc_group); the shape of the published
		// captures of a NIC nobody configured (mlnx_qos "tsa: vendor").
		{name: "vendor default", edits: []edit{
			replace(gpu01Q0, roceTC, "tc: 3 ratelimit: unlimited, tsa: vendor"),
			replace(gpu01Q0, otherTC, "tc: 0 ratelimit: unlimited, tsa: vendor")}},
		{name: "vendor but strict wanted", edits: []edit{strict,
			replace(gpu01Q0, roceTC, "tc: 3 ratelimit: unlimited, tsa: vendor"),
			replace(gpu01Q0, otherTC, "tc: 0 ratelimit: unlimited, tsa: vendor")},
			want: []string{"warning gpu01 ens1f0np0", "warning gpu01 ens1f1np1", "warning gpu02 ens1f0np0",
				"warning gpu02 ens1f1np1", "warning gpu03 ens1f0np0", "warning gpu03 ens1f1np1",
				"warning gpu04 ens1f0np0", "warning gpu04 ens1f1np1"},
			msg: "vendor scheduling, which shares the link equally"},
		{name: "strict but ets wanted", edits: []edit{
			replace(gpu01Q0, roceTC, "tc: 3 ratelimit: unlimited, tsa: strict"),
			replace(gpu01Q0, otherTC, "tc: 0 ratelimit: unlimited, tsa: ets, bw: 100%")},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "is strict, the policy wants ets"},
		{name: "ets but strict wanted", edits: []edit{strict},
			want: []string{"warning gpu01 ens1f0np0", "warning gpu01 ens1f1np1", "warning gpu02 ens1f0np0",
				"warning gpu02 ens1f1np1", "warning gpu03 ens1f0np0", "warning gpu03 ens1f1np1",
				"warning gpu04 ens1f0np0", "warning gpu04 ens1f1np1"},
			msg: "is ets, the policy wants strict"},
		{name: "not collected", edits: []edit{remove(gpu01Q0)},
			want: []string{"info gpu01"}, msg: "mlnx_qos-ens1f0np0.txt not collected: ETS not checked"},
	}
})

// TestHostETSFix holds the fix and its rollback to what mlnx_qos and mlx5
// accept: 8 items each, no share for a class that is not ETS, and ETS
// shares that add up to 100 (python/mlnx_qos; mlx5e_dbcnl_validate_ets).
func TestHostETSFix(t *testing.T) {
	for _, tc := range []struct {
		name            string
		edits           []edit
		tsa, bw, oldTSA string
		oldBW           string
	}{
		{"zero share: RoCE takes half, TC 0 the rest",
			[]edit{replace(gpu01Q0, roceTC, "tc: 3 ratelimit: unlimited, tsa: ets, bw: 0%"),
				replace(gpu01Q0, otherTC, "tc: 0 ratelimit: unlimited, tsa: ets, bw: 100%")},
			"ets,vendor,vendor,ets,vendor,vendor,strict,vendor", "50,0,0,50,0,0,0,0",
			"ets,vendor,vendor,ets,vendor,vendor,strict,vendor", "100,0,0,0,0,0,0,0"},
		{"vendor everywhere, strict wanted: RoCE strict, no ETS class left",
			[]edit{replace("inventory.hcl", `preset = "cumulus-default"`, strictTSA),
				replace(gpu01Q0, roceTC, "tc: 3 ratelimit: unlimited, tsa: vendor"),
				replace(gpu01Q0, otherTC, "tc: 0 ratelimit: unlimited, tsa: vendor")},
			"vendor,vendor,vendor,strict,vendor,vendor,strict,vendor", "0,0,0,0,0,0,0,0",
			"vendor,vendor,vendor,vendor,vendor,vendor,strict,vendor", "0,0,0,0,0,0,0,0"},
		{"strict wanted: TC 0 takes RoCE's share",
			[]edit{replace("inventory.hcl", `preset = "cumulus-default"`, strictTSA)},
			"ets,vendor,vendor,strict,vendor,vendor,strict,vendor", "100,0,0,0,0,0,0,0",
			"ets,vendor,vendor,ets,vendor,vendor,strict,vendor", "50,0,0,50,0,0,0,0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, fs := summary(hostETS, fabric(t, tc.edits...))
			if len(fs) == 0 || len(fs[0].Changes) != 1 {
				t.Fatalf("findings %v: want one with one change", fs)
			}
			c := fs[0].Changes[0]
			if c.Kind != MlnxQos || c.Flag != "--tsa" || c.Flag2 != "--tcbw" || c.Target != "ens1f0np0" || !c.HasOld {
				t.Errorf("change %+v: want mlnx_qos -i ens1f0np0 --tsa ... --tcbw ...", c)
			}
			if c.Value != tc.tsa || c.Value2 != tc.bw || c.Old != tc.oldTSA || c.Old2 != tc.oldBW {
				t.Errorf("--tsa %s --tcbw %s (rollback %s / %s), want %s / %s (rollback %s / %s)",
					c.Value, c.Value2, c.Old, c.Old2, tc.tsa, tc.bw, tc.oldTSA, tc.oldBW)
			}
		})
	}
}

func TestRebalanceETS(t *testing.T) {
	ets := [8]string{"ets", "ets", "ets", "ets", "vendor", "vendor", "strict", "vendor"}
	for _, tc := range []struct {
		name string
		tsa  [8]string
		cur  [8]int
		want [8]int
	}{
		{"proportional, remainder to the lowest", ets, [8]int{10, 20, 40, 30}, [8]int{8, 14, 28, 50}},
		{"all zero: equal", ets, [8]int{0, 0, 0, 100}, [8]int{18, 16, 16, 50}},
		{"strict RoCE gives its share away", [8]string{"ets", "ets", "vendor", "strict"}, [8]int{30, 20, 0, 50}, [8]int{60, 40}},
		{"strict RoCE, no ETS class left", [8]string{"vendor", "vendor", "vendor", "strict"}, [8]int{}, [8]int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ETSShares(tc.tsa, tc.cur, 3)
			if got != tc.want {
				t.Errorf("ETSShares = %v, want %v", got, tc.want)
			}
		})
	}
}
