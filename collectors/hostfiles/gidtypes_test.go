package hostfiles

import (
	"testing"
	"testing/fstest"
)

// The shapes: gid_attrs/types/<index> and default_roce_mode print one of
// "IB/RoCE v1" and "RoCE v2" and a newline (Linux
// drivers/infiniband/core/sysfs.c print_gid_type, cma_configfs.c
// default_roce_mode_show); MLNX-TOOLS sbin/show_gids reads the same files
// and prints v1/v2 from them.
func TestParseRoCEType(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{"RoCE v2\n", RoCEv2, ""},
		{"IB/RoCE v1\n", RoCEv1, ""},
		{"RoCE v2", RoCEv2, ""},
		{"", "", `f:1: empty RoCE type: the RDMA core prints "IB/RoCE v1" or "RoCE v2"`},
		{"RoCE v1\n", "", `f:1: RoCE type "RoCE v1": want "IB/RoCE v1" or "RoCE v2"`},
		{"RoCE v2\nRoCE v2\n", "", `f:1: more than one line in a RoCE type file: "RoCE v2\nRoCE v2"`},
	} {
		got, err := ParseRoCEType("f", []byte(tc.in))
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("ParseRoCEType(%q) = %q, %v; want %q, %s", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestReadGIDTypes(t *testing.T) {
	dir := "sysfs/class/infiniband/mlx5_0/ports/1/gid_attrs/types/"
	fsys := fstest.MapFS{
		dir + "0":  {Data: []byte("IB/RoCE v1\n")},
		dir + "1":  {Data: []byte("RoCE v2\n")},
		dir + "3":  {Data: []byte("bogus\n")},
		dir + "16": {Data: []byte("RoCE v2\n")}, // beyond what is read
		"sysfs/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode": {Data: []byte("RoCE v2\n")},
	}
	g, errs := ReadGIDTypes(fsys, "sysfs", "mlx5_0", 1)
	if len(errs) != 1 || errs[0].Error() != `sysfs/class/infiniband/mlx5_0/ports/1/gid_attrs/types/3:1: RoCE type "bogus": want "IB/RoCE v1" or "RoCE v2"` {
		t.Errorf("errors %v", errs)
	}
	if g == nil || len(g.ByIndex) != 2 || g.ByIndex[0].Type != RoCEv1 || g.ByIndex[1].Type != RoCEv2 || g.ByIndex[1].File != dir+"1" ||
		g.Dir != "sysfs/class/infiniband/mlx5_0/ports/1/gid_attrs/types" {
		t.Errorf("ReadGIDTypes = %+v", g)
	}
	if g, errs := ReadGIDTypes(fsys, "sysfs", "mlx5_1", 1); g != nil || errs != nil {
		t.Errorf("not captured: %+v %v, want nil", g, errs)
	}
	m, errs := ReadRoCEMode(fsys, "sysfs", "mlx5_0", 1)
	if m == nil || m.Type != RoCEv2 || len(errs) != 0 {
		t.Errorf("ReadRoCEMode = %+v %v", m, errs)
	}
	if m, _ := ReadRoCEMode(fsys, "sysfs", "mlx5_0", 2); m != nil {
		t.Errorf("absent default_roce_mode read as %+v", m)
	}
}
