package sim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/layout"
)

// TestHWCountersRoundTrip: captured hw_counters files come back byte for
// byte through the allowlisted grep and devcmd.ParseSysfs; a counter the
// captured directory lacks stays missing; a port with no captured
// hw_counters gets synthetic, healthy ones that grow with Advance.
func TestHWCountersRoundTrip(t *testing.T) {
	dir := t.TempDir()
	hwDir := filepath.Join(dir, "sysfs", "class", "infiniband", "mlx5_0", "ports", "1", "hw_counters")
	if err := os.MkdirAll(hwDir, 0o755); err != nil {
		t.Fatal(err)
	}
	// One "%llu\n" per file (drivers/infiniband/core/sysfs.c print_hw_stat).
	files := map[string]string{hostfiles.HWCNPSent: "2261950\n", hostfiles.HWECNMarkedRoCE: "52118903\n", hostfiles.HWOutOfSequence: "0\n"}
	for name, v := range files {
		if err := os.WriteFile(filepath.Join(hwDir, name), []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := &Fabric{}
	d := &device{name: "gpu01", kind: layout.KindHost, dir: dir, f: f}
	var paths []string
	for _, dev := range []string{"mlx5_0", "mlx5_1"} {
		for _, name := range hostfiles.HWCounterNames {
			paths = append(paths, layout.HWCountersDir(layout.SysRoot, dev, 1)+"/"+name)
		}
	}
	read := func() map[string]string {
		t.Helper()
		cmd, err := devcmd.ReadSysfs(paths)
		if err != nil || devcmd.Check(cmd) != nil {
			t.Fatalf("%q %v", cmd, err)
		}
		r := d.run(cmd, true)
		var out strings.Builder
		for _, c := range r.out {
			out.WriteString(c.text)
		}
		present, missing, err := devcmd.ParseSysfs(paths, out.String())
		if err != nil {
			t.Fatal(err)
		}
		if len(missing) != len(hostfiles.HWCounterNames)-len(files) || r.code != exitTrouble {
			t.Errorf("missing %q, exit %d", missing, r.code)
		}
		return present
	}
	got := read()
	for name, v := range files {
		if p := layout.HWCountersDir(layout.SysRoot, "mlx5_0", 1) + "/" + name; got[p] != v {
			t.Errorf("%s: %q, want %q", p, got[p], v)
		}
	}
	synth := layout.HWCountersDir(layout.SysRoot, "mlx5_1", 1) + "/"
	marks, cnps := got[synth+hostfiles.HWECNMarkedRoCE], got[synth+hostfiles.HWCNPSent]
	if _, err := hostfiles.ParseHWCounter("m", []byte(marks)); err != nil || marks == "0\n" || cnps == "0\n" || got[synth+hostfiles.HWOutOfSequence] != "0\n" {
		t.Errorf("synthetic: marks %q cnps %q", marks, cnps)
	}
	f.Advance()
	again := read()
	if again[synth+hostfiles.HWECNMarkedRoCE] == marks || again[synth+hostfiles.HWPacketSeqErr] != "0\n" {
		t.Errorf("synthetic counters did not grow healthily: %q", again)
	}
	if again[layout.HWCountersDir(layout.SysRoot, "mlx5_0", 1)+"/"+hostfiles.HWCNPSent] != files[hostfiles.HWCNPSent] {
		t.Error("a captured counter changed with Advance")
	}
	if _, ok := syntheticHWCounter("gpu01", "class/infiniband/mlx5_0/ports/1/counters/port_rcv_data", 0); ok {
		t.Error("synthesized a counter qoslint does not read")
	}
}
