package pcap_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/qoslint/qoslint/collectors/pcap"
	"github.com/qoslint/qoslint/collectors/pcap/pcaptest"
)

// benchCapture is n RoCEv2 packets of 100 bytes (14 Ethernet + 20 IPv4 +
// 8 UDP + 12 BTH + 46 payload) over 64 flows.
func benchCapture(n int) []byte {
	ps := make([]pcaptest.Packet, n)
	for i := range ps {
		ps[i] = pcaptest.Packet{Src: "10.0.0.1", Dst: "10.0.0.2", DSCP: 26, ECN: 2, DestQP: uint32(i % 64), Payload: 46}
	}
	return pcaptest.Pcap(ps...)
}

// BenchmarkRead decodes and aggregates; packets/s is the figure to watch
// (target: 5 million per second on one core).
func BenchmarkRead(b *testing.B) {
	const n = 100000
	data := benchCapture(n)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		if _, err := pcap.Read(bytes.NewReader(data), "x.pcap"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "packets/s")
	if cpu := cpuTime() - cpu; cpu > 0 {
		b.ReportMetric(float64(n*b.N)/cpu.Seconds(), "packets/cpu-s")
	}
}

// BenchmarkReadFile compares reading a capture from disk with a plain read
// of the same file.
func BenchmarkReadFile(b *testing.B) {
	file := filepath.Join(b.TempDir(), "big.pcap")
	if err := os.WriteFile(file, benchCapture(500000), 0o600); err != nil {
		b.Fatal(err)
	}
	b.Run("qoslint", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			if _, err := pcap.ReadFile(file, "big.pcap"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("plain-read", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			f, err := os.Open(file)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, f)
			f.Close()
		}
	})
}

// reportCPU reports the CPU time per operation, which other load on a
// shared machine does not inflate as it does ns/op: the ratio of the two
// ReadFile cases' cpu-ns/op is the one to compare.
func reportCPU(b *testing.B) func() {
	cpu := cpuTime()
	return func() {
		if cpu := cpuTime() - cpu; cpu > 0 {
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
		}
	}
}
