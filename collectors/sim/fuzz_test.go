package sim

import (
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/internal/layout"
)

const sentinel = "SENTINEL-outside-the-device-folder"

// FuzzRun feeds arbitrary command lines to a host's and a switch's command
// table. Properties: no panic; a known exit status; every stderr message is
// one or more whole lines; the same line gives the same answer; and nothing
// outside the device's own folder is ever printed.
func FuzzRun(f *testing.F) {
	mlnx, _ := devcmd.MlnxQos("eth0")
	rd, _ := devcmd.ReadSysfs([]string{"/sys/class/net/eth0/ecn/roce_np/cnp_dscp", "/sys/class/net/eth0/ecn/roce_np/enable/3"})
	for _, s := range []string{
		devcmd.NVConfigYAML, devcmd.NVShowQosRoce, devcmd.NVShowPacketTrim, devcmd.NVShowQoSRemark, nvConfigCommands, devcmd.IBDev2Netdev, devcmd.IPLink,
		devcmd.CatNCCLConf, mlnx, devcmd.SudoPrefix + mlnx, rd,
		"grep -H '' -- /sys/../../secret.txt", "grep -H '' -- /sys/class/../../h2/nccl.conf",
		"cat /etc/nccl.conf ../secret.txt", "mlnx_qos -i ..", "mlnx_qos -i ../../secret.txt", "",
		"sudo -n ", "exit", "grep -H '' -- /sys//class/net/eth0/ecn/roce_np/cnp_dscp",
		devcmd.EthtoolSPrefix + "eth0", devcmd.SudoPrefix + devcmd.EthtoolSPrefix + "eth0",
		"ethtool -S ../../secret.txt", "ethtool -S ..", "ethtool -s eth0 speed 10",
		"nv show interface swp1 qos roce status", "nv show interface .. qos roce status", "nv show interface ../../secret qos roce status",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	dir := f.TempDir()
	writeFiles(f, dir, map[string]string{
		"secret.txt":                                           sentinel,
		"devices/secret.txt":                                   sentinel,
		"devices/h2/nccl.conf":                                 sentinel,
		"devices/h2/mlnx_qos-eth0.txt":                         sentinel,
		"devices/h1/mlnx_qos-eth0.txt":                         "DCBX mode: OS controlled\n",
		"devices/h1/nccl.conf":                                 "NCCL_IB_TC=106\n",
		"devices/h1/ibdev2netdev.txt":                          "mlx5_0 port 1 ==> eth0 (Up)\n",
		"devices/s1/nv-config.yaml":                            "- set:\n    qos: {}\n",
		"devices/s1/roce-status/swp1.txt":                      "mode                lossless\n",
		"devices/s1/secret.txt":                                sentinel,
		"devices/h1/sysfs/class/net/eth0/ecn/roce_np/cnp_dscp": "48\n",
	})
	devs := []*device{testDevice(dir, "h1", layout.KindHost), testDevice(dir, "s1", layout.KindSwitch)}
	f.Fuzz(func(t *testing.T, cmd string, exec bool) {
		for _, d := range devs {
			r := d.run(cmd, exec)
			switch r.code {
			case exitOK, exitFail, exitTrouble, exitNotFound:
			default:
				t.Fatalf("%q: exit status %d", cmd, r.code)
			}
			out := flat(r)
			if strings.Contains(out, sentinel) {
				t.Fatalf("%q printed a file outside %s: %q", cmd, d.dir, out)
			}
			for _, c := range r.out {
				if c.stderr && !strings.HasSuffix(c.text, "\n") {
					t.Fatalf("%q: stderr %q is not whole lines", cmd, c.text)
				}
			}
			if again := flat(d.run(cmd, exec)); again != out {
				t.Fatalf("%q: answers differ: %q then %q", cmd, out, again)
			}
		}
	})
}

// FuzzTerm feeds arbitrary input to the line discipline. Properties: no
// panic; lines hold no CR or LF and never exceed maxLine; one line ends per
// CR and per LF that does not follow a CR; and for input without control
// characters the echo is the input with each line end shown as CRLF.
func FuzzTerm(f *testing.F) {
	for _, s := range []string{"ls\r\n", "a\rb\nc\r\nd", "\r\r\n\n", "x\x7f\x08\x03\x04y\n", "\x04", "\xff\xfe\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var tm term
		var echo strings.Builder
		lines, wantLines := 0, 0
		control := false
		prevCR := false
		for _, b := range in {
			switch {
			case b == '\r':
				wantLines++
			case b == '\n' && !prevCR:
				wantLines++
			case b < 0x20 || b == 0x7f:
				if b != '\n' {
					control = true
				}
			}
			prevCR = b == '\r'
			e, ev, line := tm.feed(b)
			echo.WriteString(e)
			if ev == evLine {
				lines++
				if strings.ContainsAny(line, "\r\n") || len(line) > maxLine {
					t.Fatalf("bad line %q", line)
				}
			}
		}
		if lines != wantLines {
			t.Fatalf("%d lines, want %d", lines, wantLines)
		}
		if !control {
			want := strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(string(in), "\r\n", "\r"), "\n", "\r"), "\r", "\r\n")
			if echo.String() != want {
				t.Fatalf("echo %q, want %q", echo.String(), want)
			}
		}
	})
}
