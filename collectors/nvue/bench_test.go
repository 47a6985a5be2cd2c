package nvue

import (
	"fmt"
	"testing"

	"github.com/qoslint/qoslint/collectors/nvue/nvuetest"
)

// BenchmarkParseCommands parses `nv config show -o commands` files of 10k,
// 100k and 1M lines (nvuetest.Commands: ports with descriptions, qos
// bindings, BGP neighbors, range keys). Time and bytes per op must grow
// linearly with the lines: compare ns/op across the sizes.
func BenchmarkParseCommands(b *testing.B) {
	for _, lines := range []int{10_000, 100_000, 1_000_000} {
		data := nvuetest.Commands(lines)
		b.Run(fmt.Sprintf("lines=%d", lines), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				cfg, errs, _ := ParseCommands("nv-config-commands.txt", data)
				if cfg == nil || len(errs) > 0 {
					b.Fatalf("errs %v", errs)
				}
			}
		})
	}
}
