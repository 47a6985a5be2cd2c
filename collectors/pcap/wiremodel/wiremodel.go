// Package wiremodel turns the pcap reader's summaries into the model's
// wire captures. It sits apart from collectors/pcap because the collectors
// root imports that package and the model still imports the root (a
// builder inside collectors/pcap that imports the model would be a cycle).
package wiremodel

import (
	"github.com/qoslint/qoslint/collectors/pcap"
	"github.com/qoslint/qoslint/model"
)

// The model's histograms are indexed like the reader's.
var _ = [1]int{}[model.WireUntagged-pcap.Untagged]

// Captures converts the summaries, in order; nil for none, as the
// fabric's Wire was.
func Captures(ss []*pcap.Summary) []*model.WireCapture {
	if ss == nil {
		return nil
	}
	out := make([]*model.WireCapture, len(ss))
	for i, s := range ss {
		out[i] = Capture(s)
	}
	return out
}

// Capture converts one summary.
func Capture(s *pcap.Summary) *model.WireCapture {
	c := &model.WireCapture{File: s.File, Device: s.Device, Format: s.Format, Frames: s.Frames, RoCE: s.RoCE,
		Undecodable: s.Undecodable, Untracked: s.Untracked}
	if s.Flows != nil {
		// One allocation for the flows rather than one each: a capture
		// holds up to 65536 of them.
		flows := make([]model.WireFlow, len(s.Flows))
		c.Flows = make([]*model.WireFlow, len(s.Flows))
		for i, fl := range s.Flows {
			flow(&flows[i], fl)
			c.Flows[i] = &flows[i]
		}
	}
	return c
}

func flow(out *model.WireFlow, fl *pcap.Flow) {
	*out = model.WireFlow{Src: fl.Src, Dst: fl.Dst, DestQP: fl.DestQP, Packets: fl.Packets,
		DSCP: fl.DSCP, ECN: fl.ECN, SrcPorts: fl.SrcPorts, PortsOverflow: fl.PortsOverflow}
	marks(out.FirstDSCP[:], fl.FirstDSCP[:])
	marks(out.FirstECN[:], fl.FirstECN[:])
	if c := fl.CNP; c != nil {
		out.CNP = &model.WireCNP{Count: c.Count, DSCP: c.DSCP, PCP: c.PCP}
		marks(out.CNP.FirstDSCP[:], c.FirstDSCP[:])
		marks(out.CNP.FirstPCP[:], c.FirstPCP[:])
	}
}

func marks(out []model.WireMark, in []pcap.Mark) {
	for i, m := range in {
		out[i] = model.WireMark(m)
	}
}
