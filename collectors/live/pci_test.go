package live

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/layout"
)

// TestPCIFirmwareGaps: a host without pciutils or MFT (the simulator
// answers "command not found"), or whose mlxconfig cannot open one of its
// devices ("-E- ..."), gets a note per missing file, keeps every other
// file, and the collection is not incomplete.
func TestPCIFirmwareGaps(t *testing.T) {
	src := filepath.Join(t.TempDir(), "pod")
	if err := os.CopyFS(src, os.DirFS(cleanPod)); err != nil {
		t.Fatal(err)
	}
	rm := func(dev, file string) {
		if err := os.Remove(filepath.Join(src, layout.DevicesDir, dev, file)); err != nil {
			t.Fatal(err)
		}
	}
	// gpu01: no lspci, no mlxconfig at all, no cpuinfo.
	rm("gpu01", layout.LspciFile)
	rm("gpu01", layout.CPUInfoFile)
	rm("gpu01", layout.MlxConfigFile("mlx5_0"))
	rm("gpu01", layout.MlxConfigFile("mlx5_1"))
	// gpu02: mlxconfig present, but it cannot open mlx5_1.
	rm("gpu02", layout.MlxConfigFile("mlx5_1"))
	p := startPod(t, src, sim.Options{})
	p.inv.SSH.Hosts.Sudo = true
	r := Collect(context.Background(), p.inv, p.options())
	for _, tc := range []struct {
		dev   string
		notes []string
	}{
		{"gpu01", []string{
			layout.LspciFile + " not collected: `sudo -n lspci -vvv` said \"sudo: lspci: command not found\"",
			layout.CPUInfoFile + " not collected: `cat /proc/cpuinfo` said \"cat: /proc/cpuinfo: No such file or directory\"",
			layout.MlxConfigFile("mlx5_0") + " not collected: `sudo -n mlxconfig -d mlx5_0 q` said \"sudo: mlxconfig: command not found\"",
			layout.MlxConfigFile("mlx5_1") + " not collected: `sudo -n mlxconfig -d mlx5_1 q` said \"sudo: mlxconfig: command not found\"",
		}},
		{"gpu02", []string{
			layout.MlxConfigFile("mlx5_1") + " not collected: `sudo -n mlxconfig -d mlx5_1 q` said \"-E- Failed to open device: mlx5_1\"",
		}},
	} {
		s := status(t, r, tc.dev)
		if s.Err != "" || strings.Join(s.Notes, "\n") != strings.Join(tc.notes, "\n") {
			t.Errorf("%s: err %q notes\n%s\nwant\n%s", tc.dev, s.Err, strings.Join(s.Notes, "\n"), strings.Join(tc.notes, "\n"))
		}
	}
	for _, f := range []string{"gpu01/" + layout.MlnxQosFile("ens1f0np0"), "gpu02/" + layout.LspciFile, "gpu02/" + layout.MlxConfigFile("mlx5_0")} {
		if _, ok := r.Files[layout.DevicesDir+"/"+f]; !ok {
			t.Errorf("%s lost", f)
		}
	}
	if _, ok := r.Files[layout.DevicesDir+"/gpu02/"+layout.MlxConfigFile("mlx5_1")]; ok {
		t.Error("mlxconfig's error saved as its output")
	}
	if r.Incomplete() {
		t.Error("Incomplete() = true: a missing PCI or firmware tool is a note, not a failure")
	}
}
