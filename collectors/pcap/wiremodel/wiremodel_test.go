package wiremodel

import (
	"bytes"
	"fmt"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/qoslint/qoslint/collectors/pcap"
	"github.com/qoslint/qoslint/collectors/pcap/pcaptest"
	"github.com/qoslint/qoslint/model"
)

// TestCaptureKeepsEveryField: the model's capture holds what the reader's
// summary does, field by field, the dense histograms as sparse ones, with a
// CNP flow and a tagged one so no histogram is left empty.
func TestCaptureKeepsEveryField(t *testing.T) {
	data := pcaptest.Pcap(
		pcaptest.Packet{Src: "10.0.0.1", Dst: "10.0.0.2", DSCP: 26, ECN: 2, DestQP: 0x1A2, SrcPort: 53462},
		pcaptest.Packet{Src: "10.0.0.1", Dst: "10.0.0.2", DSCP: 0, ECN: 3, DestQP: 0x1A2, SrcPort: 53463},
		pcaptest.Packet{Src: "10.0.0.2", Dst: "10.0.0.1", DSCP: 48, Opcode: pcap.OpcodeCNP, DestQP: 0x3B7, VLANs: []uint8{6}},
		pcaptest.Packet{Src: "10.0.0.2", Dst: "10.0.0.1", DSCP: 46, Opcode: pcap.OpcodeCNP, DestQP: 0x3B7},
	)
	s, err := pcap.Read(bytes.NewReader(data), "devices/gpu01/captures/a.pcap")
	if err != nil {
		t.Fatal(err)
	}
	s.Device = "gpu01"
	c := Capture(s)
	if len(c.Flows) != len(s.Flows) || len(s.Flows) != 2 {
		t.Fatalf("got %d flows, want 2", len(c.Flows))
	}
	want := model.WireCapture{File: s.File, Device: s.Device, Format: s.Format, Frames: s.Frames, RoCE: s.RoCE,
		Undecodable: s.Undecodable, Untracked: s.Untracked, Flows: c.Flows}
	if !reflect.DeepEqual(*c, want) {
		t.Errorf("capture %+v, want %+v", *c, want)
	}
	for i, fl := range s.Flows {
		m := c.Flows[i]
		if m.Src != fl.Src || m.Dst != fl.Dst || m.DestQP != fl.DestQP || m.Packets != fl.Packets ||
			!reflect.DeepEqual(m.SrcPorts, fl.SrcPorts) || m.PortsOverflow != fl.PortsOverflow {
			t.Errorf("flow %d: %+v, want %+v", i, m, fl)
		}
		sameHist(t, fmt.Sprintf("flow %d DSCP", i), m.DSCP(), fl.DSCP[:], fl.FirstDSCP[:])
		sameHist(t, fmt.Sprintf("flow %d ECN", i), m.ECN(), fl.ECN[:], fl.FirstECN[:])
		if (m.CNPs > 0) != (fl.CNP != nil) {
			t.Fatalf("flow %d: %d CNPs, want %v", i, m.CNPs, fl.CNP)
		}
		if fl.CNP == nil {
			if len(m.CNPDSCP()) != 0 || len(m.CNPPCP()) != 0 {
				t.Errorf("flow %d: CNP histograms %v %v without CNPs", i, m.CNPDSCP(), m.CNPPCP())
			}
			continue
		}
		pc := fl.CNP
		if m.CNPs != pc.Count || m.CNPPCP().Count(model.WireUntagged) != 1 {
			t.Errorf("flow %d: %d CNPs, PCP %v, want %+v (one untagged)", i, m.CNPs, m.CNPPCP(), *pc)
		}
		sameHist(t, fmt.Sprintf("flow %d CNP DSCP", i), m.CNPDSCP(), pc.DSCP[:], pc.FirstDSCP[:])
		sameHist(t, fmt.Sprintf("flow %d CNP PCP", i), m.CNPPCP(), pc.PCP[:], pc.FirstPCP[:])
	}
}

// sameHist: the sparse histogram h lists, in ascending order, exactly the
// values of the dense one that occurred, with their counts and first marks.
func sameHist(t *testing.T, what string, h model.WireHist, counts []uint64, first []pcap.Mark) {
	t.Helper()
	var want []int
	for v, n := range counts {
		if n > 0 {
			want = append(want, v)
		}
	}
	var got []int
	for _, c := range h {
		got = append(got, c.Value())
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: values %v, want %v", what, got, want)
	}
	for v, n := range counts {
		if h.Count(v) != n {
			t.Errorf("%s: count of %d %d, want %d", what, v, h.Count(v), n)
		}
		if n == 0 {
			continue
		}
		m := h.First(v)
		if m.Packet != first[v].Packet || !m.Time.Equal(first[v].Time) || m.Time.Location() != time.UTC {
			t.Errorf("%s: first %d %v, want %v in UTC", what, v, m, first[v])
		}
	}
}

// TestFlowBytes holds what a flow of the model costs, as the fabric keeps
// it until the report is written: clean-pod's gpu01 capture (four RoCE
// flows, one DSCP and one ECN codepoint each) converted many times over,
// its live heap per flow, the capture's own fields included. With dense
// histograms (64 DSCP counts and first marks with a time.Time each, for
// data and for CNPs) a flow took 3,108 bytes; sparse, it takes 220.
func TestFlowBytes(t *testing.T) {
	s, err := pcap.ReadFile("../../../examples/clean-pod/devices/gpu01/captures/roce.pcap", "roce.pcap")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Flows) != 4 {
		t.Fatalf("%d flows: the example changed, adjust the bound", len(s.Flows))
	}
	const copies = 2000
	keep := make([]*model.WireCapture, copies)
	var before, after runtime.MemStats
	// Twice: the first moves the reader's pooled buffer (a megabyte) to
	// the pool's victim cache, the second frees it, so it does not come
	// off the figure.
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range keep {
		keep[i] = Capture(s)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	perFlow := float64(after.HeapAlloc-before.HeapAlloc) / copies / float64(len(s.Flows))
	t.Logf("%.0f bytes per flow", perFlow)
	if perFlow > 300 {
		t.Errorf("a flow of the model takes %.0f bytes, want at most 300", perFlow)
	}
	runtime.KeepAlive(keep)
}
