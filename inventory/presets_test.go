package inventory

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/qoslint/qoslint/internal/policy"
)

// TestPresetsValid: every preset passes the inventory's own validation and
// keeps CNP apart from RoCE.
func TestPresetsValid(t *testing.T) {
	for _, name := range policy.PresetNames() {
		inv, err := Parse("x.yaml", []byte("fabric: a\npolicy: {preset: "+name+"}\n"))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		want, _ := policy.Preset(name)
		if inv.Policy.Preset != name || !reflect.DeepEqual(inv.Policy.RoCE, want.RoCE) {
			t.Errorf("%s: got %+v, want %+v", name, inv.Policy, want)
		}
	}
}

func TestPresetsAndOverrides(t *testing.T) {
	def, _ := policy.Preset(policy.DefaultPreset)
	// spectrum-x-ra2.0: RA2.0.yaml's "Type of Service" 96 is DSCP 24, its
	// PFC "00010000" priority 3, its "RoCE Adaptive Routing" true.
	spx := def
	spx.Preset = "spectrum-x-ra2.0"
	spx.RoCE.DSCP = []int{24}
	spx.ECMP.AdaptiveRouting = true
	// cumulus-lossy-multi-tc: the 5.18 lossy-multi-tc table's rows
	// "3  3    5,6  3", "5  5    41,...,50  5" and "3  3  3  DWRR-22%".
	lmt := def
	lmt.Preset = "cumulus-lossy-multi-tc"
	lmt.RoCE = policy.RoCEPolicy{DSCP: []int{5, 6}, Priority: 3, TrafficClass: 3, Mode: "lossy-multi-tc", MinBandwidth: 22, HostTSA: "ets"}
	lmt.CNP = policy.CNPPolicy{DSCP: 48, Priority: 5}
	bp := def
	bp.Preset = "custom-dscp46"
	bp.RoCE.DSCP = []int{46}
	override := policy.Policy{
		Preset: "spectrum-x-ra2.0",
		// Sorted and deduplicated from [26, 24, 26].
		RoCE:  policy.RoCEPolicy{DSCP: []int{24, 26}, Priority: 4, TrafficClass: 5, Mode: "lossy", MinBandwidth: 40, HostTSA: "strict"},
		CNP:   spx.CNP,
		Trust: "pcp",
		MTU:   policy.MTUPolicy{Host: 9000, Switch: 9216},
		ECMP:  policy.ECMPPolicy{HashFields: []string{"ip-protocol", "source-ip"}},
		PFC:   policy.PFCPolicy{CableLength: 300},
	}
	scalar := def
	scalar.RoCE.DSCP = []int{30}
	scalar.CNP.DSCP = 46

	for _, tc := range []struct {
		name string
		want policy.Policy
		keys []string // Policy.Pos keys: only what the file writes
	}{
		{"none", def, nil},
		{"spectrum-x-ra2.0", spx, []string{"preset"}},
		{"cumulus-lossy-multi-tc", lmt, []string{"preset"}},
		{"custom-dscp46", bp, []string{"preset"}},
		{"override", override, []string{"ecmp.adaptive_routing", "ecmp.hash_fields", "mtu.host", "pfc.cable_length", "preset",
			"roce.dscp", "roce.host_tsa", "roce.min_bandwidth", "roce.mode", "roce.priority", "roce.traffic_class", "trust"}},
		{"scalar", scalar, []string{"cnp.dscp", "roce.dscp"}},
	} {
		for _, ext := range []string{".yaml", ".hcl"} {
			t.Run(tc.name+ext, func(t *testing.T) {
				path := "testdata/presets/" + tc.name + ext
				inv, err := LoadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				got := inv.Policy
				got.Pos = nil
				if !reflect.DeepEqual(got, tc.want) {
					t.Errorf("policy:\ngot  %+v\nwant %+v", got, tc.want)
				}
				if keys := slices.Sorted(maps.Keys(inv.Policy.Pos)); !slices.Equal(keys, tc.keys) {
					t.Errorf("Pos keys = %v, want %v", keys, tc.keys)
				}
				for k, pos := range inv.Policy.Pos {
					if pos.File != path || pos.Line < 2 {
						t.Errorf("Pos[%s] = %v", k, pos)
					}
				}
			})
		}
	}
}

// TestDSCPForms: one value or a list, flow or block, in both formats.
func TestDSCPForms(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []int
		line      int
	}{
		{"x.yaml", "fabric: a\npolicy:\n  roce: {dscp: 24}\n", []int{24}, 3},
		{"x.yaml", "fabric: a\npolicy:\n  roce: {dscp: [30, 24]}\n", []int{24, 30}, 3},
		{"x.yaml", "fabric: a\npolicy:\n  roce:\n    dscp:\n      - 26\n      - 24\n      - 26\n", []int{24, 26}, 4},
		{"x.yaml", "fabric: a\npolicy:\n  roce:\n    dscp: ~\n", []int{26}, 0}, // null: the default
		{"x.hcl", "fabric = \"a\"\npolicy {\n  roce { dscp = 24 }\n}\n", []int{24}, 3},
		{"x.hcl", "fabric = \"a\"\npolicy {\n  roce { dscp = [30, 24] }\n}\n", []int{24, 30}, 3},
		{"x.hcl", "fabric = \"a\"\npolicy {\n  roce {\n    dscp = [\n      26,\n      24,\n    ]\n  }\n}\n", []int{24, 26}, 4},
		{"x.hcl", "fabric = \"a\"\npolicy {\n  roce { dscp = null }\n}\n", []int{26}, 0},
	} {
		inv, err := Parse(tc.name, []byte(tc.src))
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		if !slices.Equal(inv.Policy.RoCE.DSCP, tc.want) {
			t.Errorf("%q: DSCP = %v, want %v", tc.src, inv.Policy.RoCE.DSCP, tc.want)
		}
		if got := inv.Policy.Pos["roce.dscp"].Line; got != tc.line {
			t.Errorf("%q: Pos[roce.dscp] line = %d, want %d", tc.src, got, tc.line)
		}
	}
}

// TestElementLines: a bad element of a multi-line list is reported on its
// own line.
func TestElementLines(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"x.yaml", "fabric: a\npolicy:\n  roce:\n    dscp:\n      - 26\n      - 99\n",
			"x.yaml:6: roce.dscp 99 out of range 0..63"},
		{"x.hcl", "fabric = \"a\"\npolicy {\n  roce {\n    dscp = [\n      26,\n      99,\n    ]\n  }\n}\n",
			"x.hcl:6: roce.dscp 99 out of range 0..63"},
		{"x.yaml", "fabric: a\nhosts:\n  - name: gpu01\n    nics:\n      - ens1\n      - a/b\n",
			`x.yaml:6: host "gpu01": invalid NIC name "a/b" (want a netdev name: 1-15 letters, digits, '.', '_' or '-')`},
		{"x.hcl", "fabric = \"a\"\nhost \"gpu01\" {\n  nics = [\n    \"ens1\",\n    \"a/b\",\n  ]\n}\n",
			`x.hcl:5: host "gpu01": invalid NIC name "a/b" (want a netdev name: 1-15 letters, digits, '.', '_' or '-')`},
	} {
		if _, err := Parse(tc.name, []byte(tc.src)); err == nil || err.Error() != tc.want {
			t.Errorf("%q:\ngot  %v\nwant %s", tc.src, err, tc.want)
		}
	}
}

// TestRenamedPresets: a former preset name is an error at its line that
// names what replaces it, in both formats.
func TestRenamedPresets(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"x.yaml", "fabric: a\npolicy:\n  preset: spectrum-x\n",
			`x.yaml:3: preset "spectrum-x" was renamed: it named no one document: use spectrum-x-ra2.0 (the Spectrum-X RA2.0 NIC profile: lossless, DSCP 24, adaptive routing) or cumulus-lossy-multi-tc (the switches' lossy-multi-tc profile)`},
		{"x.hcl", "fabric = \"a\"\npolicy {\n  preset = \"basepod-ef\"\n}\n",
			`x.hcl:3: preset "basepod-ef" was renamed: no public NVIDIA document states its DSCP 46: use custom-dscp46 (the same values)`},
	} {
		if _, err := Parse(tc.name, []byte(tc.src)); err == nil || err.Error() != tc.want {
			t.Errorf("%q:\ngot  %v\nwant %s", tc.src, err, tc.want)
		}
	}
}
