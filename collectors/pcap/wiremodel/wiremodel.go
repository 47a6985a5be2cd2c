// Package wiremodel turns the pcap reader's summaries into the model's
// wire captures, as each file is read (the offline reader, qoslint pcap):
// the parse stays in collectors/pcap, whose dense per-flow histograms keep
// each packet's bookkeeping an array index, and the model keeps only the
// values a flow showed.
package wiremodel

import (
	"github.com/qoslint/qoslint/collectors/pcap"
	"github.com/qoslint/qoslint/model"
)

// The model's histograms are indexed like the reader's.
var _ = [1]int{}[model.WireUntagged-pcap.Untagged]

// Capture converts one summary.
func Capture(s *pcap.Summary) *model.WireCapture {
	c := &model.WireCapture{File: s.File, Device: s.Device, Format: s.Format, Frames: s.Frames, RoCE: s.RoCE,
		Undecodable: s.Undecodable, Untracked: s.Untracked}
	if s.Flows != nil {
		// One allocation for the flows rather than one each: a capture
		// holds up to 65536 of them.
		flows := make([]model.WireFlow, len(s.Flows))
		c.Flows = make([]*model.WireFlow, len(s.Flows))
		var h hists
		for i, fl := range s.Flows {
			h.flow(&flows[i], fl)
			c.Flows[i] = &flows[i]
		}
	}
	return c
}

// hists are the sparse histograms of one flow, their arrays reused from
// flow to flow (SetHistograms copies them).
type hists struct{ dscp, ecn, cnpDSCP, cnpPCP []model.WireCount }

func (h *hists) flow(out *model.WireFlow, fl *pcap.Flow) {
	*out = model.WireFlow{Src: fl.Src, Dst: fl.Dst, DestQP: fl.DestQP, Packets: fl.Packets,
		SrcPorts: fl.SrcPorts, PortsOverflow: fl.PortsOverflow}
	h.dscp = sparse(h.dscp[:0], fl.DSCP[:], fl.FirstDSCP[:])
	h.ecn = sparse(h.ecn[:0], fl.ECN[:], fl.FirstECN[:])
	h.cnpDSCP, h.cnpPCP = h.cnpDSCP[:0], h.cnpPCP[:0]
	if c := fl.CNP; c != nil {
		out.CNPs = c.Count
		h.cnpDSCP = sparse(h.cnpDSCP, c.DSCP[:], c.FirstDSCP[:])
		h.cnpPCP = sparse(h.cnpPCP, c.PCP[:], c.FirstPCP[:])
	}
	out.SetHistograms(h.dscp, h.ecn, h.cnpDSCP, h.cnpPCP)
}

// sparse appends the values of a dense histogram that occurred, in value
// order.
func sparse(out []model.WireCount, counts []uint64, first []pcap.Mark) []model.WireCount {
	for v, n := range counts {
		if n > 0 {
			out = append(out, model.NewWireCount(uint8(v), n, model.WireMark(first[v])))
		}
	}
	return out
}
