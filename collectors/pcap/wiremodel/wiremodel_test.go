package wiremodel

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/qoslint/qoslint/collectors/pcap"
	"github.com/qoslint/qoslint/collectors/pcap/pcaptest"
	"github.com/qoslint/qoslint/model"
)

// TestCapturesKeepEveryField: the model's captures hold what the reader's
// summaries do, field by field (the model's types mirror the reader's, so
// a field added to one and not the other fails here), with a CNP flow and a
// tagged one so no histogram is left empty.
func TestCapturesKeepEveryField(t *testing.T) {
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
	got := Captures([]*pcap.Summary{s})
	if len(got) != 1 || len(got[0].Flows) != len(s.Flows) || len(s.Flows) != 2 {
		t.Fatalf("got %d captures of %v flows, want 1 of 2", len(got), got)
	}
	c := got[0]
	want := model.WireCapture{File: s.File, Device: s.Device, Format: s.Format, Frames: s.Frames, RoCE: s.RoCE,
		Undecodable: s.Undecodable, Untracked: s.Untracked, Flows: c.Flows}
	if !reflect.DeepEqual(*c, want) {
		t.Errorf("capture %+v, want %+v", *c, want)
	}
	for i, fl := range s.Flows {
		m := c.Flows[i]
		if m.Src != fl.Src || m.Dst != fl.Dst || m.DestQP != fl.DestQP || m.Packets != fl.Packets ||
			m.DSCP != fl.DSCP || m.ECN != fl.ECN || !reflect.DeepEqual(m.SrcPorts, fl.SrcPorts) || m.PortsOverflow != fl.PortsOverflow {
			t.Errorf("flow %d: %+v, want %+v", i, m, fl)
		}
		for v := range fl.FirstDSCP {
			if m.FirstDSCP[v] != model.WireMark(fl.FirstDSCP[v]) {
				t.Errorf("flow %d: FirstDSCP[%d] %v, want %v", i, v, m.FirstDSCP[v], fl.FirstDSCP[v])
			}
		}
		for v := range fl.FirstECN {
			if m.FirstECN[v] != model.WireMark(fl.FirstECN[v]) {
				t.Errorf("flow %d: FirstECN[%d] %v, want %v", i, v, m.FirstECN[v], fl.FirstECN[v])
			}
		}
		if (m.CNP == nil) != (fl.CNP == nil) {
			t.Fatalf("flow %d: CNP %v, want %v", i, m.CNP, fl.CNP)
		}
		if fl.CNP == nil {
			continue
		}
		mc, pc := m.CNP, fl.CNP
		if mc.Count != pc.Count || mc.DSCP != pc.DSCP || mc.PCP != pc.PCP || mc.PCP[model.WireUntagged] != 1 {
			t.Errorf("flow %d: CNP %+v, want %+v (one untagged)", i, *mc, *pc)
		}
		for v := range pc.FirstDSCP {
			if mc.FirstDSCP[v] != model.WireMark(pc.FirstDSCP[v]) {
				t.Errorf("flow %d: CNP FirstDSCP[%d] %v, want %v", i, v, mc.FirstDSCP[v], pc.FirstDSCP[v])
			}
		}
		for v := range pc.FirstPCP {
			if mc.FirstPCP[v] != model.WireMark(pc.FirstPCP[v]) {
				t.Errorf("flow %d: CNP FirstPCP[%d] %v, want %v", i, v, mc.FirstPCP[v], pc.FirstPCP[v])
			}
		}
	}
	if Captures(nil) != nil {
		t.Error("no summaries must give a nil Wire, as the fabric had")
	}
}
