package snapshot_test

import (
	"testing"

	"github.com/qoslint/qoslint/snapshot"
)

func BenchmarkDiff(b *testing.B) {
	o, n := take(b, "../examples/clean-pod"), take(b, "../examples/broken-pod")
	p := n.Policy.Inventory()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		snapshot.Diff(o, n, p)
	}
}

func BenchmarkRead(b *testing.B) {
	data := write(b, take(b, "../examples/broken-pod"))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := snapshot.Read("x.json", data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTake(b *testing.B) {
	for i := 0; i < b.N; i++ {
		take(b, "../examples/broken-pod")
	}
}
