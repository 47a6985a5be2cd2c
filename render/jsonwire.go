package render

import (
	"time"

	"github.com/qoslint/qoslint/model"
)

// jsonWire is the per-flow summary of each packet capture: what the wire
// checks judged, for a script that wants the numbers rather than the
// findings. Histograms list only the values that occur, in value order,
// each with the first packet that carried it.
type jsonWire struct {
	Captures []jsonCapture `json:"captures"`
}

type jsonCapture struct {
	File   string `json:"file"`
	Device string `json:"device,omitempty"`
	Format string `json:"format"`
	Frames uint64 `json:"frames"`
	RoCE   uint64 `json:"roce"`
	// Undecodable and Untracked are frames not judged: not decodable, or
	// of flows beyond the per-file flow limit.
	Undecodable uint64     `json:"undecodable"`
	Untracked   uint64     `json:"untracked"`
	Flows       []jsonFlow `json:"flows"`
}

type jsonFlow struct {
	Src     string `json:"src"`
	Dst     string `json:"dst"`
	DestQP  uint32 `json:"dest_qp"`
	Packets uint64 `json:"packets"`
	// DSCP and ECN are of the data packets (every BTH opcode but CNP).
	DSCP             []jsonBucket `json:"dscp"`
	ECN              []jsonBucket `json:"ecn"`
	CNP              *jsonCNP     `json:"cnp,omitempty"`
	SrcPorts         []uint16     `json:"src_ports"`
	SrcPortsOverflow bool         `json:"src_ports_overflow"`
}

type jsonCNP struct {
	Count uint64       `json:"count"`
	DSCP  []jsonBucket `json:"dscp"`
	// PCP is the 802.1p priority of tagged CNPs; Untagged counts the rest.
	PCP      []jsonBucket `json:"pcp"`
	Untagged uint64       `json:"untagged"`
}

// jsonBucket is one histogram value: its count and the first packet (the
// 1-based number in the file, as Wireshark numbers frames) and timestamp.
type jsonBucket struct {
	Value       int    `json:"value"`
	Name        string `json:"name,omitempty"`
	Count       uint64 `json:"count"`
	FirstPacket uint64 `json:"first_packet"`
	FirstTime   string `json:"first_time"`
}

func buildJSONWire(w *Wire) *jsonWire {
	if w == nil {
		return nil
	}
	out := &jsonWire{Captures: []jsonCapture{}}
	for _, c := range w.Captures {
		jc := jsonCapture{File: c.File, Device: c.Device, Format: c.Format, Frames: c.Frames, RoCE: c.RoCE,
			Undecodable: c.Undecodable, Untracked: c.Untracked, Flows: []jsonFlow{}}
		for _, f := range c.Flows {
			if f.flow == nil {
				continue // only BuildWire's flows carry their summary
			}
			jc.Flows = append(jc.Flows, jsonFlowOf(f.flow))
		}
		out.Captures = append(out.Captures, jc)
	}
	return out
}

func jsonFlowOf(f *model.WireFlow) jsonFlow {
	out := jsonFlow{Src: f.Src.String(), Dst: f.Dst.String(), DestQP: f.DestQP, Packets: f.Packets,
		DSCP: buckets(f.DSCP(), nil), ECN: buckets(f.ECN(), model.ECNName),
		SrcPorts: append([]uint16{}, f.SrcPorts...), SrcPortsOverflow: f.PortsOverflow}
	if f.CNPs > 0 {
		pcp := f.CNPPCP()
		// Untagged sorts last, after the eight priorities.
		tagged := pcp
		if n := len(pcp); n > 0 && pcp[n-1].Value() == model.WireUntagged {
			tagged = pcp[:n-1]
		}
		out.CNP = &jsonCNP{Count: f.CNPs, DSCP: buckets(f.CNPDSCP(), nil),
			PCP: buckets(tagged, nil), Untagged: pcp.Count(model.WireUntagged)}
	}
	return out
}

func buckets(h model.WireHist, name func(int) string) []jsonBucket {
	out := []jsonBucket{}
	for _, c := range h {
		first := c.First()
		b := jsonBucket{Value: c.Value(), Count: c.Count(), FirstPacket: first.Packet, FirstTime: first.Time.UTC().Format(time.RFC3339Nano)}
		if name != nil {
			b.Name = name(c.Value())
		}
		out = append(out, b)
	}
	return out
}
