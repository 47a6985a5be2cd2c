package hostfiles

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// The mlxconfig fixtures reproduce the two layouts of real `mlxconfig q`
// output (one-column: the ConnectX-5 DCQCN walk-through and skyao.io's
// CX-4 SR-IOV note; Default/Current/Next Boot with '*' rows:
// Mellanox/nic-configuration-operator pkg/host/utils_test.go), with our
// own values.
func TestParseMlxConfig(t *testing.T) {
	for _, c := range []struct {
		file       string
		current    bool
		device     string
		name, next string
		cur        string
		line       int
	}{
		{"constructed_next_boot.txt", false, "mlx5_0", "CNP_DSCP_P1", "48", "", 16},
		{"constructed_next_boot.txt", false, "mlx5_0", "LINK_TYPE_P1", "ETH(2)", "", 11},
		{"constructed_default_current_next.txt", true, "mlx5_1", "CNP_DSCP_P1", "46", "48", 14},
		{"constructed_default_current_next.txt", true, "mlx5_1", "ROCE_CC_PRIO_MASK_P1", "8", "8", 12},
		{"constructed_crlf.txt", false, "/dev/mst/mt4119_pciconf0", "CNP_DSCP_P1", "48", "", 8},
	} {
		data, err := os.ReadFile("testdata/mlxconfig/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ParseMlxConfig("f", data)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		p := m.Params[c.name]
		if m.HasCurrent != c.current || m.Device != c.device || p.Next != c.next || p.Current != c.cur || p.Line != c.line {
			t.Errorf("%s %s: got current=%v device=%q %+v", c.file, c.name, m.HasCurrent, m.Device, p)
		}
	}
}

func TestParseMlxConfigErrors(t *testing.T) {
	for _, c := range []struct {
		in, msg string
		line    int
	}{
		{"-E- Failed to open device: mlx5_9\n", "mlxconfig failed", 1},
		{"Device #1:\nConfigurations:   Next Boot\n  CNP_DSCP_P1   48   49\n", "want a parameter name and 1 value", 3},
		{"Configurations:   Default  Next Boot\n", "unknown Configurations columns", 1},
		{"Configurations:   Next Boot\n  CNP_DSCP_P1 48\n  CNP_DSCP_P1 48\n", "printed twice", 3},
		{"hello\n", "before the Configurations table", 1},
		{"Device #1:\n", "no Configurations table", 1},
		{"Device #1:\nDevice #2:\n", "a second device", 2},
	} {
		_, err := ParseMlxConfig("f.txt", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "f.txt:"+strconv.Itoa(c.line)) {
			t.Errorf("%q: got %v, want f.txt:%d ... %s", c.in, err, c.line, c.msg)
		}
	}
}

// The lspci fixture reproduces pciutils' `lspci -vvv` shapes (the ACS
// lines as leptonai/gpud pkg/pci/pci.go quotes them, AMD GPP bridges in a
// linux-pci post, -nn class codes) on a constructed PLX switch holding a
// ConnectX and a GPU.
func TestParseLspci(t *testing.T) {
	data, err := os.ReadFile("testdata/lspci/constructed_plx_switch.txt")
	if err != nil {
		t.Fatal(err)
	}
	devs, err := ParseLspci("f", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(devs) != 6 {
		t.Fatalf("%d devices", len(devs))
	}
	rp, usp, nic, gpu := devs[0], devs[1], devs[4], devs[5]
	if rp.Addr != "0000:3a:00.0" || rp.PortType != "Root Port" || !rp.ACSCtl["ReqRedir"] || rp.ACSCtl["EgressCtrl"] || rp.ACSLine != 7 {
		t.Errorf("root port %+v", rp)
	}
	if usp.PortType != "Upstream Port" || usp.ACSCtl != nil || usp.Secondary != 0x3c || usp.Subordinate != 0x3e {
		t.Errorf("upstream port %+v", usp)
	}
	if nic.Class != "Ethernet controller" || nic.Driver != "mlx5_core" || gpu.Class != "3D controller" || gpu.Driver != "nvidia" {
		t.Errorf("nic %+v gpu %+v", nic, gpu)
	}
	nr, err := os.ReadFile("testdata/lspci/constructed_no_root.txt")
	if err != nil {
		t.Fatal(err)
	}
	devs, err = ParseLspci("f", nr)
	if err != nil || len(devs) != 1 || !devs[0].AccessDenied || devs[0].Addr != "3b:00.0" || devs[0].Class != "PCI bridge" {
		t.Errorf("no root: %v %+v", err, devs)
	}
}

func TestParseLspciErrors(t *testing.T) {
	for _, c := range []struct {
		in, msg string
		line    int
	}{
		{"\tBus: primary=00, secondary=01, subordinate=01\n", "before the first device", 1},
		{"00:01.0 PCI bridge: x\n\tCapabilities: [2a0 v1] Access Control Services\n\t\tACSCtl:\tSrcValid? TransBlk-\n", "is not Name+ or Name-", 3},
		{"garbage\n", "not an lspci device line", 1},
	} {
		_, err := ParseLspci("f.txt", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "f.txt:"+strconv.Itoa(c.line)) {
			t.Errorf("%q: got %v, want f.txt:%d ... %s", c.in, err, c.line, c.msg)
		}
	}
}

// /proc/cpuinfo "flags" lines (Linux arch/x86/kernel/cpu/proc.c show_cpuinfo
// prints "flags\t\t:" and each feature name).
func TestParseCPUInfo(t *testing.T) {
	for _, c := range []struct {
		in         string
		flags, hyp bool
		line       int
	}{
		{"processor\t: 0\nflags\t\t: fpu vme de pse hypervisor lahf_lm\n", true, true, 2},
		{"processor\t: 0\nflags\t\t: fpu vme de pse\n\nprocessor\t: 1\nflags\t\t: fpu vme\n", true, false, 2},
		{"processor\t: 0\nFeatures\t: fp asimd evtstrm\n", false, false, 0},
	} {
		ci, err := ParseCPUInfo("f", []byte(c.in))
		if err != nil || ci.HasFlags != c.flags || ci.Hypervisor != c.hyp || ci.Line != c.line {
			t.Errorf("%q: %v %+v", c.in, err, ci)
		}
	}
	if _, err := ParseCPUInfo("f.txt", []byte("processor\t: 0\nno colon\n")); err == nil || !strings.Contains(err.Error(), "f.txt:2") {
		t.Errorf("got %v", err)
	}
}

func FuzzParseMlxConfig(f *testing.F) {
	addTestdataSeeds(f, "mlxconfig")
	f.Add([]byte("-E- Failed\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseMlxConfig(fuzzFile, data)
		if err != nil {
			checkParseErr(t, err)
			return
		}
		for name, p := range m.Params {
			if p.Name != name || p.Line < 1 || p.Next == "" {
				t.Fatalf("param %q: %+v", name, p)
			}
		}
	})
}

func FuzzParseLspci(f *testing.F) {
	addTestdataSeeds(f, "lspci")
	f.Fuzz(func(t *testing.T, data []byte) {
		devs, err := ParseLspci(fuzzFile, data)
		if err != nil {
			checkParseErr(t, err)
			return
		}
		for _, d := range devs {
			if d.ACSCtl != nil && d.ACSLine < 1 {
				t.Fatalf("ACS without line")
			}
		}
	})
}

func FuzzParseCPUInfo(f *testing.F) {
	f.Add([]byte("flags\t\t: fpu hypervisor\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseCPUInfo(fuzzFile, data)
		if err != nil {
			checkParseErr(t, err)
			return
		}
		if c.Hypervisor && !c.HasFlags {
			t.Fatal("hypervisor without flags")
		}
	})
}
