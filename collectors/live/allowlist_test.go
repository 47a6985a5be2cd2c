package live

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/layout"
)

// TestAllowlistServerSide drives full collections (with and without sudo)
// and checks, from what the devices received, that every command passes
// devcmd.Check and that mlnx_qos never gets anything but -i <netdev>.
func TestAllowlistServerSide(t *testing.T) {
	for _, sudo := range []bool{false, true} {
		p := startPod(t, brokenPod, sim.Options{})
		p.inv.SSH.Hosts.Sudo = sudo
		r := Collect(context.Background(), p.inv, p.options())
		for _, s := range r.Status {
			if s.Err != "" {
				t.Errorf("sudo=%v %s: %s", sudo, s.Name, s.Err)
			}
			seen := p.fab.Seen(s.Name)
			if len(seen) != s.Commands {
				t.Errorf("%s: device saw %d commands, status counts %d", s.Name, len(seen), s.Commands)
			}
			sysfsReads, lspci, mlxconfig, mlnxQos := 0, 0, 0, 0
			for _, cmd := range seen {
				if err := devcmd.Check(cmd); err != nil {
					t.Errorf("%s received a command off the allowlist: %v", s.Name, err)
				}
				if strings.HasPrefix(cmd, "grep ") {
					sysfsReads++
				}
				if strings.TrimPrefix(cmd, devcmd.SudoPrefix) == devcmd.LLDPNeighbors {
					// lldpcli reads lldpd's socket, which may need root: it
					// runs under sudo -n exactly when the device says sudo.
					if strings.HasPrefix(cmd, devcmd.SudoPrefix) != (sudo && s.Kind == layout.KindHost) {
						t.Errorf("%s: %q with sudo=%v", s.Name, cmd, sudo)
					}
					continue
				}
				if !rootCommand(cmd) {
					if strings.HasPrefix(cmd, devcmd.SudoPrefix) {
						t.Errorf("%s: only mlnx_qos, lspci, mlxconfig and lldpcli run with sudo: %q", s.Name, cmd)
					}
					continue
				}
				f := strings.Fields(cmd)
				if sudo {
					if len(f) < 2 || f[0] != "sudo" || f[1] != "-n" {
						t.Errorf("%s: %q without sudo -n although the host says sudo", s.Name, cmd)
						continue
					}
					f = f[2:]
				}
				switch f[0] {
				case "mlnx_qos":
					if len(f) != 3 || f[1] != "-i" || strings.HasPrefix(f[2], "-") {
						t.Errorf("%s: mlnx_qos line %q is not exactly `mlnx_qos -i <netdev>`", s.Name, cmd)
					}
					mlnxQos++
				case "mlxconfig":
					// Only the query: set, reset and -y write the flash.
					if len(f) != 4 || f[1] != "-d" || strings.HasPrefix(f[2], "-") || f[3] != "q" {
						t.Errorf("%s: mlxconfig line %q is not exactly `mlxconfig -d <ibdev> q`", s.Name, cmd)
					}
					mlxconfig++
				case "lspci":
					if len(f) != 2 || f[1] != "-vvv" {
						t.Errorf("%s: lspci line %q is not exactly `lspci -vvv`", s.Name, cmd)
					}
					lspci++
				}
			}
			// Each RDMA device's firmware once, lspci once per host.
			if s.Kind == layout.KindHost && (lspci != 1 || mlxconfig != 2 || mlnxQos != 2) {
				t.Errorf("%s: %d lspci, %d mlxconfig, %d mlnx_qos; want 1, 2, 2", s.Name, lspci, mlxconfig, mlnxQos)
			}
			// One read of the QoS files of all NICs, one of their RoCE
			// GID types and RDMA-CM modes.
			if s.Kind == layout.KindHost && sysfsReads != 2 {
				t.Errorf("%s: %d sysfs reads, want two for all NICs", s.Name, sysfsReads)
			}
		}
		// sudo changes nothing in what is saved.
		served := servedFiles(t, brokenPod)
		for name, data := range served {
			if !bytes.Equal(r.Files[name], data) {
				t.Errorf("sudo=%v: %s differs", sudo, name)
			}
		}
	}
}

// rootCommand reports the commands that need root (sudo -n when the
// host's credentials say so): mlnx_qos as collectHost has always run
// it, lspci, which shows extended capabilities only to root (pciutils
// lspci.man), and mlxconfig, which opens the device.
func rootCommand(cmd string) bool {
	c := strings.TrimPrefix(cmd, devcmd.SudoPrefix)
	return strings.HasPrefix(c, devcmd.MlnxQosPrefix) || c == devcmd.Lspci || strings.HasPrefix(c, devcmd.MlxconfigPrefix)
}

// TestRunRefuses: the send function refuses a command outside the list
// without writing a byte of it, and the session stays usable.
func TestRunRefuses(t *testing.T) {
	p := startPod(t, cleanPod, sim.Options{})
	dv := devices(p.inv)[0]
	l, err := newLogin(dv.creds, loadHostKeys(p.inv, p.options()), p.options().withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	s, err := openSession(context.Background(), dv, l, 5*time.Second, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	for _, cmd := range []string{
		"nv config apply", "nv set qos roce mode lossy", "mlnx_qos -i eth0 --trust dscp",
		"sudo -n reboot", "nv show qos roce; nv config apply", "nv show qos roce\nnv config apply", "",
		// The per-port status takes one safe port and nothing else.
		"nv show interface qos-roce-status", "nv show interface swp1-4 qos roce status", "nv show interface swp1;reboot qos roce status",
		"nv show interface swp1 qos roce status; nv config apply", "nv show interface $(reboot) qos roce status",
		"nv show interface swp1 qos roce status -o json", "nv set interface swp1 qos roce status",
	} {
		out, err := s.run(cmd)
		var ce *cmdError
		if !errors.As(err, &ce) || ce.fatal || out != nil || !strings.Contains(ce.msg, "refused to send") {
			t.Errorf("run(%q) = %q, %v; want a refusal", cmd, out, err)
		}
	}
	if s.sent != 0 {
		t.Errorf("%d commands counted as sent", s.sent)
	}
	// The device got nothing, and the shell still answers.
	if out, err := s.run(devcmd.NVShowQosRoce); err != nil || len(out) == 0 {
		t.Fatalf("after refusals: %q, %v", out, err)
	}
	if seen := p.fab.Seen(dv.name); !slices.Equal(seen, []string{devcmd.NVShowQosRoce}) {
		t.Errorf("device saw %q", seen)
	}
}

// The RoCE-version reads: every GID type and RDMA-CM mode and ToS path of the
// NICs' ports, each port once, passes the allowlist as one grep, and only
// those two kinds of file are treated as optional (missing without a note).
func TestRoCETypePathsAllowed(t *testing.T) {
	byNetdev := map[string]hostfiles.IBDev{
		"ens1f0np0": {IBDev: "mlx5_0", Port: 1, Netdev: "ens1f0np0"},
		"ens1f1np1": {IBDev: "mlx5_1", Port: 1, Netdev: "ens1f1np1"},
		"ens2":      {IBDev: "mlx5_0", Port: 1, Netdev: "ens2"}, // same port again
	}
	paths := roceTypePaths([]string{"ens1f0np0", "ens1f1np1", "ens2", "eno1"}, byNetdev)
	if want := 2 * (layout.GIDTypesRead + 2); len(paths) != want {
		t.Fatalf("%d paths, want %d: %q", len(paths), want, paths)
	}
	cmd, err := devcmd.ReadSysfs(paths)
	if err != nil {
		t.Fatal(err)
	}
	if err := devcmd.Check(cmd); err != nil {
		t.Error(err)
	}
	if !slices.Contains(paths, "/sys/kernel/config/rdma_cm/mlx5_1/ports/1/default_roce_tos") {
		t.Errorf("no default_roce_tos read: %q", paths)
	}
	for _, p := range paths {
		if !optionalSysfs(p) {
			t.Errorf("%s is not optional", p)
		}
	}
	for _, p := range nicSysfsPaths("ens1f0np0", byNetdev["ens1f0np0"]) {
		if optionalSysfs(p) {
			t.Errorf("QoS file %s counted as optional", p)
		}
	}
}
