package hostfiles

import (
	"testing"
	"testing/fstest"
)

// A capture written with the formatters reads back through ReadSysfs the
// way the real files do (spiderpool's values, spidernet-io/spiderpool docs/usage/roce-qos.md,
// and the NIC operator's roceOptimized CNP settings,
// Mellanox/nic-configuration-operator README.md).
func TestFormatSysfsRoundTrip(t *testing.T) {
	const root = "sys"
	fsys := fstest.MapFS{}
	for p := range 8 {
		fsys[root+"/class/net/eth0/ecn/roce_np/enable/"+string(rune('0'+p))] = &fstest.MapFile{Data: FormatSysfsInt(p % 2)}
	}
	fsys[root+"/class/net/eth0/ecn/roce_np/cnp_dscp"] = &fstest.MapFile{Data: FormatSysfsInt(48)}
	fsys[root+"/class/net/eth0/ecn/roce_np/cnp_802p_prio"] = &fstest.MapFile{Data: FormatSysfsInt(6)}
	fsys[root+"/class/infiniband/mlx5_0/tc/1/traffic_class"] = &fstest.MapFile{Data: FormatTrafficClass(160)}
	s, errs := ReadSysfs(fsys, root, "eth0", "mlx5_0", 1)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	for p := range 8 {
		if s.ECNNP[p] == nil || s.ECNNP[p].Value != p%2 {
			t.Errorf("ECNNP[%d] = %+v", p, s.ECNNP[p])
		}
	}
	if s.CNPDSCP.Value != 48 || s.CNP802pPrio.Value != 6 || s.TrafficClass.Global != 160 {
		t.Errorf("got %+v %+v %+v", s.CNPDSCP, s.CNP802pPrio, s.TrafficClass)
	}
}

func TestFormatSysfsInt(t *testing.T) {
	for v, want := range map[int]string{0: "0\n", 1: "1\n", 48: "48\n", -1: "-1\n"} {
		if got := string(FormatSysfsInt(v)); got != want {
			t.Errorf("FormatSysfsInt(%d) = %q, want %q", v, got, want)
		}
	}
}

func TestFormatTrafficClass(t *testing.T) {
	tests := []struct {
		global int
		want   string
	}{
		{-1, ""}, // unset: the driver's initial tcd->val = -1
		{-5, ""},
		{0, "Global tclass=0\n"},
		{106, "Global tclass=106\n"}, // lshca's expected value
		{255, "Global tclass=255\n"},
	}
	for _, tt := range tests {
		got := FormatTrafficClass(tt.global)
		if string(got) != tt.want {
			t.Errorf("FormatTrafficClass(%d) = %q, want %q", tt.global, got, tt.want)
		}
		tc, err := ParseTrafficClass("traffic_class", got)
		if err != nil {
			t.Fatal(err)
		}
		if want := max(tt.global, -1); tc.Global != want || len(tc.Rules) != 0 {
			t.Errorf("ParseTrafficClass(%q) = %+v, want Global %d", got, tc, want)
		}
	}
	// The driver refuses > 0xff; a preview holding one must not lint clean.
	if _, err := ParseTrafficClass("traffic_class", FormatTrafficClass(256)); err == nil {
		t.Error("Global tclass=256 parsed")
	}
}
