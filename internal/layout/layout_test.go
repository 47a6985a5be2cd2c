package layout

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The paths are those MLNX_OFED and the kernel create (MLNX_OFED
// en_sysfs.c/en_ecn.c: /sys/class/net/<netdev>/ecn/roce_{np,rp}/enable/<prio>
// and roce_np/cnp_dscp, cnp_802p_prio; main_ext.c:
// /sys/class/infiniband/<ibdev>/tc/<port>/traffic_class; Linux
// drivers/infiniband/core/sysfs.c: .../ports/<port>/hw_counters), so the
// literals are the assertion.
func TestPaths(t *testing.T) {
	for got, want := range map[string]string{
		ECNEnablePath(SysRoot, "ens1f0np0", PointNP, 3):                 "/sys/class/net/ens1f0np0/ecn/roce_np/enable/3",
		ECNEnablePath("devices/h/sysfs", "eth0", PointRP, 0):            "devices/h/sysfs/class/net/eth0/ecn/roce_rp/enable/0",
		CNPPath(SysRoot, "eth0", CNPDSCP):                               "/sys/class/net/eth0/ecn/roce_np/cnp_dscp",
		CNPPath(SysRoot, "eth0", CNP802pPrio):                           "/sys/class/net/eth0/ecn/roce_np/cnp_802p_prio",
		TrafficClassPath(SysRoot, "mlx5_0", "1"):                        "/sys/class/infiniband/mlx5_0/tc/1/traffic_class",
		TrafficClassPath("sysfs", "*", "*"):                             "sysfs/class/infiniband/*/tc/*/traffic_class",
		HWCountersDir(SysRoot, "mlx5_1", 2):                             "/sys/class/infiniband/mlx5_1/ports/2/hw_counters",
		DeviceFile("leaf01", NVUEYAMLFile):                              "devices/leaf01/nv-config.yaml",
		DeviceDir("gpu01"):                                              "devices/gpu01",
		MlnxQosFile("ens1f0np0"):                                        "mlnx_qos-ens1f0np0.txt",
		EthtoolFile("ens1f0np0"):                                        "ethtool-S-ens1f0np0.txt",
		EthtoolBeforeFile("ens1f0np0"):                                  "ethtool-S-ens1f0np0.before.txt",
		DeviceFile("gpu01", SysfsBeforeDir+"/class/infiniband/x/ports"): "devices/gpu01/sysfs.before/class/infiniband/x/ports",
		DeviceFile("leaf01", RoceStatusFile("swp16")):                   "devices/leaf01/roce-status/swp16.txt",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

func TestNames(t *testing.T) {
	for _, tc := range []struct {
		base, netdev string
		ok           bool
	}{
		{"ethtool-S-eth0.txt", "eth0", true},
		{"ethtool-S-eth0.before.txt", "", false},
		{"ethtool-S-.txt", "", false},
		{"mlnx_qos-eth0.txt", "", false},
		{"ethtool-S-eth0.json", "", false},
	} {
		if nd, ok := EthtoolNetdev(tc.base); nd != tc.netdev || ok != tc.ok {
			t.Errorf("EthtoolNetdev(%q) = %q, %v; want %q, %v", tc.base, nd, ok, tc.netdev, tc.ok)
		}
	}
	for base, want := range map[string]string{"swp16.txt": "swp16", "bond1.txt": "bond1", ".txt": "", "swp16.json": "", "swp16": ""} {
		if p, ok := RoceStatusPort(base); ok != (want != "") || ok && p != want {
			t.Errorf("RoceStatusPort(%q) = %q, %v; want %q", base, p, ok, want)
		}
	}
	if nd, ok := MlnxQosNetdev("mlnx_qos-ens1f0np0.txt"); nd != "ens1f0np0" || !ok {
		t.Errorf("MlnxQosNetdev = %q, %v", nd, ok)
	}
	if _, ok := MlnxQosNetdev("mlnx_qos-eth0.before.json"); ok {
		t.Error("MlnxQosNetdev accepted a .json")
	}
	if ib, port, name, ok := HWCounter("class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent"); !ok || ib != "mlx5_0" || port != "1" || name != "np_cnp_sent" {
		t.Errorf("HWCounter = %q %q %q %v", ib, port, name, ok)
	}
	for _, rel := range []string{"class/infiniband/mlx5_0/tc/1/traffic_class", "class/infiniband/mlx5_0/ports/1/hw_counters"} {
		if _, _, _, ok := HWCounter(rel); ok {
			t.Errorf("HWCounter(%q) ok", rel)
		}
	}
}

func TestSysRel(t *testing.T) {
	for p, want := range map[string]string{
		"/sys/class/net/eth0/ecn/roce_np/enable/3": "class/net/eth0/ecn/roce_np/enable/3",
		"/sys/":              "",
		"/sys":               "",
		"/etc/nccl.conf":     "",
		"/sys/class/../../x": "",
		"/sys/class//net":    "",
		"/sys/a\\b":          "",
	} {
		got, ok := SysRel(p)
		if got != want || ok != (want != "") {
			t.Errorf("SysRel(%q) = %q, %v; want %q", p, got, ok, want)
		}
	}
}

// handBuilt are the names no code outside this package may spell: a
// collector, the model, a check, a renderer or the simulator that spells
// one would drift from the others when the layout changes.
var handBuilt = regexp.MustCompile(`"(nv-config\.yaml|nv-config-commands\.txt|nv-show-qos-roce\.txt|mlnx_qos-|ethtool-S-|ibdev2netdev\.txt|nccl\.conf|home-nccl\.conf|nccl-env\.txt|ip-link\.json|sysfs\.before|gnmi-counters\.json|gnmi-counters\.before\.json|counters-interval\.txt|roce-status|\.qoslint/capture\.json|/etc/nccl\.conf)"|"/sys/`)

// TestNoHandBuiltNames keeps the one vocabulary one: tests may spell
// names (a literal is then the assertion), other code takes them from here.
func TestNoHandBuiltNames(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "internal/layout" || strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			code, _, _ := strings.Cut(line, "//")
			if m := handBuilt.FindString(code); m != "" {
				t.Errorf("%s:%d spells %s by hand: use package layout", rel, i+1, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
