package app

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/nvue/nvuetest"
)

// bigSwitchFabric writes a fabric of one leaf whose `nv config show -o
// commands` has about lines lines (nvuetest.Commands).
func bigSwitchFabric(tb testing.TB, lines int) (dir string, size int) {
	tb.Helper()
	dir = tb.TempDir()
	data := nvuetest.Commands(lines)
	dev := filepath.Join(dir, "devices", "leaf01")
	if err := os.MkdirAll(dev, 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dev, "nv-config-commands.txt"), data, 0o644); err != nil {
		tb.Fatal(err)
	}
	inv := "fabric: scale\nswitches:\n  - {name: leaf01, role: leaf, address: 192.0.2.11}\n"
	if err := os.WriteFile(filepath.Join(dir, "inventory.yaml"), []byte(inv), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir, len(data)
}

// BenchmarkLintBigSwitch lints one switch whose configuration has 10k, 100k
// and 1M lines, from disk through the report: time and bytes per op must
// grow linearly with the lines.
func BenchmarkLintBigSwitch(b *testing.B) {
	for _, lines := range []int{10_000, 100_000, 1_000_000} {
		dir, size := bigSwitchFabric(b, lines)
		b.Run(fmt.Sprintf("lines=%d", lines), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				r, err := BuildReport(dir, judge.Error)
				if err != nil || len(r.Errors) > 0 {
					b.Fatalf("err %v, input errors %v", err, r.Errors)
				}
			}
		})
	}
}
