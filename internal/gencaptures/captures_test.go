package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/qoslint/qoslint/collectors/pcap"
)

// TestCapturesRegenerate: two runs write the same bytes, and each capture
// committed under examples/ is what this generator writes, byte for byte
// (a capture is changed here, never by hand).
func TestCapturesRegenerate(t *testing.T) {
	a, b := Files(), Files()
	for p, want := range a {
		if !bytes.Equal(want, b[p]) {
			t.Errorf("%s: two runs differ", p)
		}
		got, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(p)))
		switch {
		case err != nil:
			t.Fatalf("%v (go generate ./internal/gencaptures)", err)
		case !bytes.Equal(got, want):
			t.Errorf("%s differs from what the generator writes (go generate ./internal/gencaptures)", p)
		}
	}
}

// TestCaptureContents: the clean pod's capture is all DSCP 26; the broken
// pod's shows gpu04 (198.51.100.14) at DSCP 0 (defect 16) and gpu03
// (198.51.100.13) at DSCP 6 (defect 14), every packet ECT(0).
func TestCaptureContents(t *testing.T) {
	want := map[string]map[string]int{
		"examples/clean-pod/devices/gpu01/captures/roce.pcap":  {"198.51.100.11": 26, "198.51.100.12": 26},
		"examples/broken-pod/devices/gpu04/captures/roce.pcap": {"198.51.100.14": 0, "198.51.100.13": 6},
	}
	for p, data := range Files() {
		s, err := pcap.Read(bytes.NewReader(data), p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if s.Undecodable != 0 || s.RoCE != s.Frames || len(s.Flows) == 0 {
			t.Fatalf("%s: %+v", p, s)
		}
		for _, f := range s.Flows {
			d, ok := want[p][f.Src.String()]
			if !ok || f.DSCP[d] != f.Packets || f.ECN[2] != f.Packets || f.CNP != nil || len(f.SrcPorts) != 1 {
				t.Errorf("%s: flow %v: %d packets, DSCP %d: %d, ECT(0): %d", p, f.FlowKey, f.Packets, d, f.DSCP[d], f.ECN[2])
			}
		}
	}
}
