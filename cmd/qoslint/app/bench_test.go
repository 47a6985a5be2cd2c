package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/fixture"
)

// largeFabric writes a fabric of nSwitches switches and nHosts hosts, each a
// copy of a clean-pod device, and returns its directory.
func largeFabric(tb testing.TB, nSwitches, nHosts int) string {
	tb.Helper()
	dir := tb.TempDir()
	var inv strings.Builder
	inv.WriteString("fabric: bench\nswitches:\n")
	src := "../../../examples/clean-pod/devices"
	protoSwitch := []string{"leaf01", "leaf02", "spine01", "spine02"}
	for i := 0; i < nSwitches; i++ {
		name := fmt.Sprintf("leaf%04d", i)
		fmt.Fprintf(&inv, "  - {name: %s, role: leaf, address: 192.0.2.%d}\n", name, i%250+1)
		copyTree(tb, filepath.Join(src, protoSwitch[i%len(protoSwitch)]), filepath.Join(dir, "devices", name))
	}
	inv.WriteString("hosts:\n")
	for i := 0; i < nHosts; i++ {
		name := fmt.Sprintf("gpu%04d", i)
		fmt.Fprintf(&inv, "  - {name: %s, address: 198.51.100.%d}\n", name, i%250+1)
		copyTree(tb, filepath.Join(src, fmt.Sprintf("gpu%02d", i%4+1)), filepath.Join(dir, "devices", name))
	}
	if err := os.WriteFile(filepath.Join(dir, "inventory.yaml"), []byte(inv.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// copyTree copies src into dst as regular files: the examples link the
// files they share with clean-pod, and a test edits its copy.
func copyTree(tb testing.TB, src, dst string) { tb.Helper(); fixture.Copy(tb, src, dst) }

func TestLargeFabricIsClean(t *testing.T) {
	r, err := BuildReport(largeFabric(t, 20, 40), judge.Error)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 0 || len(r.Errors) != 0 || len(r.Devices) != 60 {
		t.Fatalf("%d devices, %d findings, %d errors", len(r.Devices), len(r.Findings), len(r.Errors))
	}
}

// BenchmarkLint1000 lints a 1,000-device fabric (200 switches, 800 hosts with
// two NICs each) from disk: the CI-gate case on a large pod.
func BenchmarkLint1000(b *testing.B) {
	dir := largeFabric(b, 200, 800)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := BuildReport(dir, judge.Error)
		if err != nil || len(r.Findings) != 0 {
			b.Fatalf("err %v, %d findings", err, len(r.Findings))
		}
	}
}

// BenchmarkLintBrokenPod is the README's first example.
func BenchmarkLintBrokenPod(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := BuildReport("../../../examples/broken-pod", judge.Error); err != nil {
			b.Fatal(err)
		}
	}
}
