package sim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/internal/layout"
)

// testDevice is a device outside any running fabric, for the command table.
func testDevice(dir, name, kind string) *device {
	return &device{f: &Fabric{done: make(chan struct{})}, name: name, kind: kind, dir: filepath.Join(dir, "devices", name)}
}

func writeFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// flat renders a result as a pty would show it, with stderr marked.
func flat(r result) string {
	var b strings.Builder
	for _, c := range r.out {
		if c.stderr {
			b.WriteString("E>")
		}
		b.WriteString(c.text)
	}
	return b.String()
}

func TestRunTable(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"devices/h1/sysfs/class/net/eth0/ecn/roce_np/cnp_dscp":        "48", // no final newline
		"devices/h1/sysfs/class/net/eth0/ecn/roce_np/enable/3":        "1\n",
		"devices/h1/sysfs/class/infiniband/mlx5_0/tc/1/traffic_class": "",
		"devices/h1/mlnx_qos-eth0.txt":                                "DCBX mode: OS controlled\n",
		"devices/secret.txt":                                          "nope\n",
		"devices/s1/nv-config-commands.txt":                           "nv set qos roce mode lossless\n",
		"devices/h2/lspci.txt":                                        "3b:00.0 PCI bridge: x\n",
		"devices/h2/cpuinfo.txt":                                      "flags\t\t: fpu\n",
		"devices/h2/mlxconfig-mlx5_0.txt":                             "Configurations:\n",
		"devices/s1/roce-status/swp1.txt":                             "mode                lossless                Roce Mode\n",
		"devices/s1/roce-status/swp1-2.txt":                           "a range's file is never served\n",
	})
	h2 := testDevice(dir, "h2", layout.KindHost)
	h := testDevice(dir, "h1", layout.KindHost)
	s := testDevice(dir, "s1", layout.KindSwitch)
	grep := func(paths ...string) string {
		c, err := devcmd.ReadSysfs(paths)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	const np = "/sys/class/net/eth0/ecn/roce_np/"
	for _, tc := range []struct {
		d    *device
		cmd  string
		exec bool
		want string
		code uint32
	}{
		{h, devcmd.IBDev2Netdev, false, "E>-bash: ibdev2netdev: command not found\n", 127},
		{h, devcmd.IBDev2Netdev, true, "E>bash: line 1: ibdev2netdev: command not found\n", 127},
		{h, devcmd.SudoPrefix + devcmd.IBDev2Netdev, false, "E>sudo: ibdev2netdev: command not found\n", 1},
		{h, devcmd.IPLink, false, "E>-bash: ip: command not found\n", 127},
		{h, devcmd.CatNCCLConf, false, "E>cat: /etc/nccl.conf: No such file or directory\n", 1},
		{h, "cat /etc/passwd", false, "E>cat: /etc/passwd: No such file or directory\n", 1},
		{h, "mlnx_qos -i eth0", false, "DCBX mode: OS controlled\n", 0},
		{h, devcmd.SudoPrefix + "mlnx_qos -i eth0", true, "DCBX mode: OS controlled\n", 0},
		{h, "mlnx_qos -i eth1", false, "E>mlnx_qos: eth1: interface not found\n", 1},
		{h, "mlnx_qos -i ../secret", false, "E>mlnx_qos: ../secret: interface not found\n", 1},
		{h, "mlnx_qos -i a/b", false, "E>mlnx_qos: a/b: interface not found\n", 1},
		{h, "mlnx_qos -i", false, "E>-bash: mlnx_qos: command not found\n", 127},
		{h, grep(np + "cnp_dscp"), false, np + "cnp_dscp:48\n", 0},
		{h, grep(np+"enable/3", np+"enable/4"), false,
			np + "enable/3:1\nE>grep: " + np + "enable/4: No such file or directory\n", 2},
		{h, grep("/sys/class/infiniband/mlx5_0/tc/1/traffic_class"), false, "", 1},
		{h, "grep -H '' -- /sys/class/net/eth0", false, "E>grep: /sys/class/net/eth0: Is a directory\n", 2},
		{h, "grep -H '' -- /sys/../secret.txt /sys/./x /sys/ /etc/passwd", false,
			"E>grep: /sys/../secret.txt: No such file or directory\n" +
				"E>grep: /sys/./x: No such file or directory\n" +
				"E>grep: /sys/: No such file or directory\n" +
				"E>grep: /etc/passwd: No such file or directory\n", 2},
		{h, devcmd.NVShowQosRoce, false, "E>-bash: nv: command not found\n", 127},
		// PCI and firmware: a host without the files lacks the tools.
		{h, devcmd.Lspci, false, "E>-bash: lspci: command not found\n", 127},
		{h, devcmd.SudoPrefix + devcmd.Lspci, false, "E>sudo: lspci: command not found\n", 1},
		{h, "mlxconfig -d mlx5_0 q", true, "E>bash: line 1: mlxconfig: command not found\n", 127},
		{h, devcmd.CatCPUInfo, false, "E>cat: /proc/cpuinfo: No such file or directory\n", 1},
		{h2, devcmd.Lspci, false, "3b:00.0 PCI bridge: x\n", 0},
		{h2, devcmd.CatCPUInfo, false, "flags\t\t: fpu\n", 0},
		{h2, "mlxconfig -d mlx5_0 q", false, "Configurations:\n", 0},
		{h2, devcmd.SudoPrefix + "mlxconfig -d mlx5_0 q", false, "Configurations:\n", 0},
		{h2, "mlxconfig -d mlx5_1 q", false, "E>-E- Failed to open device: mlx5_1\n", 1},
		{h2, "mlxconfig -d ../h1/x q", false, "E>-bash: mlxconfig: command not found\n", 127},
		{h2, "mlxconfig -d mlx5_0 set CNP_DSCP_P1=46", false, "E>-bash: mlxconfig: command not found\n", 127},
		{h2, "setpci -s 3b:00.0 ECAP_ACS+0x6.w=0000", false, "E>-bash: setpci: command not found\n", 127},
		{s, devcmd.Lspci, false, "E>-bash: lspci: command not found\n", 127},
		{s, devcmd.NVShowQosRoce, false, "E>Error: qos roce is not available (no nv-show-qos-roce.txt) in the simulated s1\n", 1},
		{s, devcmd.NVShowPacketTrim, false, "E>Error: packet-trim is not available (no nv-show-packet-trim.txt) in the simulated s1\n", 1},
		{s, devcmd.NVShowQoSRemark, false, "E>Error: qos remark is not available (no nv-show-qos-remark.txt) in the simulated s1\n", 1},
		{s, "nv show system forwarding packet-trim counters", false, "E>-bash: nv: command not found\n", 127},
		{h, devcmd.NVShowPacketTrim, false, "E>-bash: nv: command not found\n", 127},
		{s, devcmd.NVConfigYAML, false, "E>Error: no nv-config.yaml (try 'nv config show -o commands') in the simulated s1\n", 1},
		{s, nvConfigCommands, false, "nv set qos roce mode lossless\n", 0},
		{s, "mlnx_qos -i eth0", false, "E>-bash: mlnx_qos: command not found\n", 127},
		{s, "  ", true, "", 0},
		{s, " nv  show\tqos roce ", false, "E>Error: qos roce is not available (no nv-show-qos-roce.txt) in the simulated s1\n", 1},
		// A port's RoCE status, byte for byte; a port without a file is an
		// NVUE error; a range, a path or any other shape is no command.
		{s, "nv show interface swp1 qos roce status", false, "mode                lossless                Roce Mode\n", 0},
		{s, "nv show interface swp2 qos roce status", false, "E>Error: no RoCE status for interface swp2 (no roce-status/swp2.txt) in the simulated s1\n", 1},
		{s, "nv show interface swp1-2 qos roce status", false, "E>-bash: nv: command not found\n", 127},
		{s, "nv show interface ../swp1 qos roce status", false, "E>-bash: nv: command not found\n", 127},
		{s, "nv show interface qos-roce-status", false, "E>-bash: nv: command not found\n", 127},
		{h, "nv show interface swp1 qos roce status", false, "E>-bash: nv: command not found\n", 127},
	} {
		r := tc.d.run(tc.cmd, tc.exec)
		if got := flat(r); got != tc.want || r.code != tc.code {
			t.Errorf("%s %q exec=%v:\n got %q status %d\nwant %q status %d", tc.d.name, tc.cmd, tc.exec, got, r.code, tc.want, tc.code)
		}
	}
}

func TestGarbage(t *testing.T) {
	a, b := garbage("leaf01\x00nv show qos roce", 500), garbage("leaf01\x00nv show qos roce", 500)
	if a != b || len(a) != 500 || !strings.HasSuffix(a, "\n") {
		t.Fatalf("garbage not reproducible or wrong size: %d %q", len(a), a)
	}
	if garbage("other", 500) == a {
		t.Error("different seeds, same garbage")
	}
	if len(garbage("x", 0)) != 64 {
		t.Error("empty output must still be garbled")
	}
	for _, c := range []byte(a) {
		if c != '\n' && !strings.ContainsRune(garbageAlphabet, rune(c)) {
			t.Fatalf("byte %q outside the alphabet", c)
		}
	}
}

func TestTerm(t *testing.T) {
	for _, tc := range []struct {
		in, echo string
		lines    []string
		events   string // one letter per event: L line, I interrupt, E EOF
	}{
		{"ls\r\n", "ls\r\n", []string{"ls"}, "L"},
		{"ls\r\r\n", "ls\r\n\r\n", []string{"ls", ""}, "LL"},
		{"ls\n\n", "ls\r\n\r\n", []string{"ls", ""}, "LL"},
		{"ls\n\r\n", "ls\r\n\r\n", []string{"ls", ""}, "LL"},
		{"a\x7f\x7fb\x08c\r", "a\b \bb\b \bc\r\n", []string{"c"}, "L"},
		{"ab\x03cd\n", "ab^C\r\ncd\r\n", []string{"cd"}, "IL"},
		{"a\x04\x04", "a", nil, ""},
		{"\x04", "", nil, "E"},
	} {
		var term term
		var echo strings.Builder
		var lines []string
		var events string
		for _, b := range []byte(tc.in) {
			e, ev, line := term.feed(b)
			echo.WriteString(e)
			switch ev {
			case evLine:
				lines = append(lines, line)
				events += "L"
			case evInterrupt:
				events += "I"
			case evEOF:
				events += "E"
			}
		}
		if echo.String() != tc.echo || strings.Join(lines, "|") != strings.Join(tc.lines, "|") || events != tc.events {
			t.Errorf("%q: echo %q lines %q events %q; want %q %q %q", tc.in, echo.String(), lines, events, tc.echo, tc.lines, tc.events)
		}
	}
}

// TestTermMaxLine: an endless line is capped, and still echoed.
func TestTermMaxLine(t *testing.T) {
	var tm term
	echoed := 0
	for range maxLine + 10 {
		e, _, _ := tm.feed('a')
		echoed += len(e)
	}
	_, ev, line := tm.feed('\n')
	if ev != evLine || len(line) != maxLine || echoed != maxLine+10 {
		t.Errorf("line of %d bytes, %d echoed", len(line), echoed)
	}
}
