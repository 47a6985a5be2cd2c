package hostfiles

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/internal/source"
)

// captureFS mirrors what spiderpool's script shows (spidernet-io/spiderpool docs/usage/roce-qos.md):
// ECN enabled on every priority, CNP DSCP 48, Global tclass=160.
func captureFS(root string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for _, p := range "01234567" {
		fsys[root+"/class/net/eth0/ecn/roce_np/enable/"+string(p)] = &fstest.MapFile{Data: []byte("1\n")}
		fsys[root+"/class/net/eth0/ecn/roce_rp/enable/"+string(p)] = &fstest.MapFile{Data: []byte("1\n")}
	}
	fsys[root+"/class/net/eth0/ecn/roce_np/cnp_dscp"] = &fstest.MapFile{Data: []byte("48\n")}
	fsys[root+"/class/net/eth0/ecn/roce_np/cnp_802p_prio"] = &fstest.MapFile{Data: []byte("6\n")}
	fsys[root+"/class/infiniband/mlx5_0/tc/1/traffic_class"] = &fstest.MapFile{Data: []byte("Global tclass=160\n")}
	return fsys
}

func TestReadSysfs(t *testing.T) {
	const root = "fabric/hosts/gpu1/sys"
	s, errs := ReadSysfs(captureFS(root), root, "eth0", "mlx5_0", 1)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	for p := range 8 {
		np, rp := s.ECNNP[p], s.ECNRP[p]
		if np == nil || np.Value != 1 || np.File != root+"/class/net/eth0/ecn/roce_np/enable/"+string(rune('0'+p)) {
			t.Errorf("ECNNP[%d] = %+v", p, np)
		}
		if rp == nil || rp.Value != 1 || !strings.HasSuffix(rp.File, "roce_rp/enable/"+string(rune('0'+p))) {
			t.Errorf("ECNRP[%d] = %+v", p, rp)
		}
	}
	if want := (&SysfsInt{48, root + "/class/net/eth0/ecn/roce_np/cnp_dscp"}); !reflect.DeepEqual(s.CNPDSCP, want) {
		t.Errorf("CNPDSCP = %+v", s.CNPDSCP)
	}
	if s.CNP802pPrio == nil || s.CNP802pPrio.Value != 6 {
		t.Errorf("CNP802pPrio = %+v", s.CNP802pPrio)
	}
	want := &TrafficClass{File: root + "/class/infiniband/mlx5_0/tc/1/traffic_class", Global: 160}
	if !reflect.DeepEqual(s.TrafficClass, want) {
		t.Errorf("TrafficClass = %+v", s.TrafficClass)
	}
}

func TestReadSysfsMissing(t *testing.T) {
	fsys := captureFS("sys")
	t.Run("root missing", func(t *testing.T) {
		s, errs := ReadSysfs(fsys, "nothere", "eth0", "mlx5_0", 1)
		if len(errs) != 0 || !reflect.DeepEqual(s, &Sysfs{}) {
			t.Errorf("got %+v %v", s, errs)
		}
	})
	t.Run("other netdev and port", func(t *testing.T) {
		s, errs := ReadSysfs(fsys, "sys", "eth1", "mlx5_0", 2)
		if len(errs) != 0 || !reflect.DeepEqual(s, &Sysfs{}) {
			t.Errorf("got %+v %v", s, errs)
		}
	})
	t.Run("no ibdev", func(t *testing.T) {
		s, errs := ReadSysfs(fsys, "sys", "eth0", "", 1)
		if len(errs) != 0 || s.TrafficClass != nil || s.CNPDSCP == nil {
			t.Errorf("got %+v %v", s, errs)
		}
	})
	t.Run("absolute root", func(t *testing.T) {
		s, errs := ReadSysfs(fsys, "/sys", "eth0", "mlx5_0", 1)
		if len(errs) != 0 || s.CNPDSCP == nil || s.CNPDSCP.File != "/sys/class/net/eth0/ecn/roce_np/cnp_dscp" {
			t.Errorf("got %+v %v", s.CNPDSCP, errs)
		}
	})
}

func TestReadSysfsBadValues(t *testing.T) {
	fsys := captureFS("sys")
	bad := map[string]string{
		"sys/class/net/eth0/ecn/roce_np/enable/3":        "",    // query failed: 0 bytes
		"sys/class/net/eth0/ecn/roce_rp/enable/5":        "2\n", // not 0/1
		"sys/class/net/eth0/ecn/roce_np/cnp_dscp":        "64\n",
		"sys/class/net/eth0/ecn/roce_np/cnp_802p_prio":   "six\n",
		"sys/class/infiniband/mlx5_0/tc/1/traffic_class": "Global tclass=300\n",
	}
	for name, v := range bad {
		fsys[name] = &fstest.MapFile{Data: []byte(v)}
	}
	s, errs := ReadSysfs(fsys, "sys", "eth0", "mlx5_0", 1)
	if len(errs) != len(bad) {
		t.Fatalf("got %d errors %v, want %d", len(errs), errs, len(bad))
	}
	for _, err := range errs {
		var se *source.Error
		if !errors.As(err, &se) || se.Line != 1 {
			t.Errorf("error %v: want a *source.Error at line 1", err)
			continue
		}
		if _, ok := bad[se.File]; !ok {
			t.Errorf("error %v names an unexpected file", err)
		}
	}
	if s.ECNNP[3] != nil || s.ECNRP[5] != nil || s.CNPDSCP != nil || s.CNP802pPrio != nil || s.TrafficClass != nil {
		t.Errorf("bad fields not nil: %+v", s)
	}
	if s.ECNNP[2] == nil || s.ECNRP[4] == nil {
		t.Errorf("good fields were not read: %+v", s)
	}
}

func TestReadSysfsInvalidNames(t *testing.T) {
	fsys := captureFS("sys")
	for _, tt := range []struct{ netdev, ibdev string }{{"../eth0", ""}, {"", "mlx5_0/../x"}, {"", ".."}} {
		_, errs := ReadSysfs(fsys, "sys", tt.netdev, tt.ibdev, 1)
		if len(errs) != 1 {
			t.Errorf("%q %q: got %v, want one error", tt.netdev, tt.ibdev, errs)
		}
	}
	if _, errs := ReadSysfs(fsys, "sys", "", "mlx5_0", 0); len(errs) != 1 {
		t.Errorf("port 0: got %v, want one error", errs)
	}
}

func TestParseTrafficClass(t *testing.T) {
	tests := []struct {
		name, in string
		want     TrafficClass
	}{
		// Empty before `echo 106 > .../traffic_class` (att/netarbiter nvmf/OUTPUTSAMPLE.setup-nic-lossless-layer3.sh.md).
		{"unset", "", TrafficClass{Global: -1}},
		{"global", "Global tclass=106\n", TrafficClass{Global: 106}},
		{"global and rule", "Global tclass=106\ndst_ip=10.0.0.0/8,tclass=106\n", TrafficClass{Global: 106, Rules: []TClassRule{
			{Match: "dst_ip=10.0.0.0/8", TClass: 106, Line: 2},
		}}},
		{"rules only", "src_ip=192.168.1.2,dst_ip=192.168.2.0/24,tclass=96\n" +
			"src_ip6=fe80:0000:0000:0000:0ac0:ebff:fe21:03da,dst_ip6=2001:0db8:0000:0000:0000:0000:0000:0001,tclass=0\n",
			TrafficClass{Global: -1, Rules: []TClassRule{
				{Match: "src_ip=192.168.1.2,dst_ip=192.168.2.0/24", TClass: 96, Line: 1},
				{Match: "src_ip6=fe80:0000:0000:0000:0ac0:ebff:fe21:03da,dst_ip6=2001:0db8:0000:0000:0000:0000:0000:0001", TClass: 0, Line: 2},
			}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTrafficClass("traffic_class", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			want.File = "traffic_class"
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("got  %+v\nwant %+v", *got, want)
			}
		})
	}
}

func TestParseTrafficClassErrors(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
	}{
		{"global > 255", "Global tclass=256\n", 1},
		{"global negative", "Global tclass=-1\n", 1},
		{"rule > 255", "Global tclass=1\ndst_ip=10.0.0.0/8,tclass=300\n", 2},
		{"garbage", "106\n", 1},
		{"global not first", "dst_ip=10.0.0.0/8,tclass=1\nGlobal tclass=3\n", 2},
		{"unknown key", "vlan=3,tclass=3\n", 1},
		{"bad ip", "src_ip=300.1.1.1,tclass=3\n", 1},
		{"v6 in v4 key", "src_ip=fe80::1,tclass=3\n", 1},
		{"no match", ",tclass=3\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTrafficClass("traffic_class", []byte(tt.in))
			var se *source.Error
			if !errors.As(err, &se) {
				t.Fatalf("got %+v, %v; want a *source.Error", got, err)
			}
			if se.File != "traffic_class" || se.Line != tt.line {
				t.Errorf("got %v, want line %d", se, tt.line)
			}
		})
	}
}

// A capture where a directory is a file (a broken copy) reads as "not
// captured" rather than as 18 read errors.
func TestReadSysfsNotDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sys/class/net"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sys/class/net/eth0"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, errs := ReadSysfs(os.DirFS(dir), "sys", "eth0", "", 1)
	if len(errs) != 0 || !reflect.DeepEqual(s, &Sysfs{}) {
		t.Errorf("got %+v %v", s, errs)
	}
}
