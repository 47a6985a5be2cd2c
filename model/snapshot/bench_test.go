package snapshot_test

import (
	"testing"

	"github.com/qoslint/qoslint/model/snapshot"
)

func BenchmarkRead(b *testing.B) {
	data := write(b, take(b, "../../examples/broken-pod"))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := snapshot.Read("x.json", data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTake(b *testing.B) {
	for i := 0; i < b.N; i++ {
		take(b, "../../examples/broken-pod")
	}
}
