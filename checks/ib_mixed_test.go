package checks

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	fabricbuild "github.com/qoslint/qoslint/collectors/fabric"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/inventory"
)

// lintDir runs every check on a fabric directory and returns
// "device check severity" per finding, sorted.
func lintDir(t *testing.T, dir string) []string {
	t.Helper()
	inv, err := inventory.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := offline.Collect(dir, inv)
	if len(c.Errors) > 0 {
		t.Fatalf("%s: %v", dir, c.Errors)
	}
	var got []string
	for _, fd := range Run(fabricbuild.Build(inv, c)) {
		got = append(got, fd.Device+" "+fd.Check+" "+fd.Severity.String())
	}
	slices.Sort(got)
	return got
}

// examples/mixed-pod (fabric_type mixed) is clean; one defect planted in
// its InfiniBand part and one in its RoCE part both reach the one report,
// so both halves are judged.
func TestMixedPod(t *testing.T) {
	if got := lintDir(t, "../examples/mixed-pod"); len(got) != 0 {
		t.Fatalf("mixed-pod: %q, want no findings", got)
	}
	// A copy of regular files: the example links its unchanged files to
	// clean-pod's, and an edit must not write through a link.
	dir := fixture.Build(t, "../examples/mixed-pod", nil)
	edit := func(rel, old, new string) {
		p := filepath.Join(dir, "devices", rel)
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), old) {
			t.Fatalf("%s lacks %q (%v)", rel, old, err)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// InfiniBand: gpu02's HCA maps SL 1 to VL 15 (drop), unlike OpenSM's
	// table. RoCE: gpu01's NCCL_IB_TC is the DSCP, not the ToS byte.
	edit("gpu02/smpquery-sl2vl-mlx5_2-1.txt", "out  0: | 0| 1|", "out  0: | 0|15|")
	edit("gpu01/nccl.conf", "NCCL_IB_TC=106", "NCCL_IB_TC=26")
	got := lintDir(t, dir)
	for _, w := range []string{"gpu02 ib-sl2vl error", "gpu02 ib-sm-consistency error", "gpu01 host-tos error"} {
		if !slices.Contains(got, w) {
			t.Errorf("mixed-pod with defects: %q lacks %q", got, w)
		}
	}
}
