package render

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/model"
)

// Wire is what the packet captures showed, for the html and json formats:
// per capture its flows and its DSCP and ECN histograms.
type Wire struct {
	// RoCEDSCP and CNPDSCP are the policy's, which the histograms mark.
	RoCEDSCP []int
	CNPDSCP  int
	Captures []WireCapture
}

// WireCapture is one capture file.
type WireCapture struct {
	File, Device, Format   string
	Frames, RoCE           uint64
	Undecodable, Untracked uint64
	// DSCP and ECN count the data packets (every opcode but CNP) of all
	// flows; CNPDSCP the CNPs.
	DSCP    [64]uint64
	CNPDSCP [64]uint64
	ECN     [4]uint64
	Flows   []WireFlow
}

// WireFlow is one flow: source, destination and destination QP.
type WireFlow struct {
	Src, Dst      string
	QP            uint32
	Packets, CNPs uint64
	DSCP, ECN     string
	Ports         string
	// flow is the summary itself, which the json format writes out.
	flow *model.WireFlow
}

// BuildWire is the captures of f; nil when there are none.
func BuildWire(f *model.Fabric) *Wire {
	if len(f.Wire) == 0 {
		return nil
	}
	w := &Wire{RoCEDSCP: f.Policy.RoCE.DSCP, CNPDSCP: f.Policy.CNP.DSCP}
	for _, s := range f.Wire {
		c := WireCapture{File: s.File, Device: s.Device, Format: s.Format, Frames: s.Frames, RoCE: s.RoCE,
			Undecodable: s.Undecodable, Untracked: s.Untracked}
		for _, fl := range s.Flows {
			c.Flows = append(c.Flows, wireFlow(&c, fl))
		}
		w.Captures = append(w.Captures, c)
	}
	return w
}

func wireFlow(c *WireCapture, fl *model.WireFlow) WireFlow {
	out := WireFlow{Src: fl.Src.String(), Dst: fl.Dst.String(), QP: fl.DestQP, Packets: fl.Packets, flow: fl}
	for _, b := range fl.DSCP() {
		c.DSCP[b.Value()] += b.Count()
	}
	for _, b := range fl.ECN() {
		c.ECN[b.Value()] += b.Count()
	}
	out.CNPs = fl.CNPs
	for _, b := range fl.CNPDSCP() {
		c.CNPDSCP[b.Value()] += b.Count()
	}
	out.DSCP = nonzero(fl.DSCP(), strconv.Itoa)
	out.ECN = nonzero(fl.ECN(), model.ECNName)
	var ports []string
	for _, p := range fl.SrcPorts {
		ports = append(ports, strconv.Itoa(int(p)))
	}
	out.Ports = strings.Join(ports, ", ")
	if fl.PortsOverflow {
		out.Ports += ", …"
	}
	return out
}

// nonzero lists a histogram's values ("0: 3, 26: 900").
func nonzero(h model.WireHist, name func(int) string) string {
	var parts []string
	for _, c := range h {
		parts = append(parts, fmt.Sprintf("%s: %d", name(c.Value()), c.Count()))
	}
	return strings.Join(parts, ", ")
}

// htmlWire is the captures laid out for the page.
type htmlWire struct {
	Captures []htmlCapture
}

type htmlCapture struct {
	WireCapture
	Charts []htmlChart
	// Shown are the first maxWireRows flows; More counts the others.
	Shown []WireFlow
	More  int
}

// htmlChart is a horizontal bar chart drawn as inline SVG.
type htmlChart struct {
	Title         string
	Width, Height int
	Bars          []htmlBar
}

type htmlBar struct {
	Label, Count  string
	Class         string // "want", "other" or "ecn"
	Y, W, TextX   int
	LabelY, BarTo int
}

// maxWireRows keeps the page readable for a capture of thousands of QPs;
// the json format has no such limit on findings, and the findings name
// every offending sender.
const maxWireRows = 200

func layoutWire(w *Wire) *htmlWire {
	out := &htmlWire{}
	for _, c := range w.Captures {
		hc := htmlCapture{WireCapture: c, Shown: c.Flows}
		if len(hc.Shown) > maxWireRows {
			hc.Shown, hc.More = hc.Shown[:maxWireRows], len(c.Flows)-maxWireRows
		}
		want := func(v int) string {
			if slices.Contains(w.RoCEDSCP, v) {
				return "want"
			}
			return "other"
		}
		hc.Charts = append(hc.Charts, chart("DSCP of RoCEv2 data packets", c.DSCP[:], strconv.Itoa, want))
		if slices.ContainsFunc(c.CNPDSCP[:], func(n uint64) bool { return n > 0 }) {
			hc.Charts = append(hc.Charts, chart("DSCP of CNPs", c.CNPDSCP[:], strconv.Itoa, func(v int) string {
				if v == w.CNPDSCP {
					return "want"
				}
				return "other"
			}))
		}
		hc.Charts = append(hc.Charts, chart("ECN of RoCEv2 data packets", c.ECN[:], model.ECNName, func(v int) string {
			if v == 0 {
				return "other" // Not-ECT: no switch can mark it
			}
			return "want"
		}))
		out.Captures = append(out.Captures, hc)
	}
	return out
}

// chart draws the values of counts that occur, one bar each, scaled to
// the largest.
func chart(title string, counts []uint64, name func(int) string, class func(int) string) htmlChart {
	const labelW, barMax, rowH = 90, 360, 20
	var peak uint64
	for _, n := range counts {
		peak = max(peak, n)
	}
	c := htmlChart{Title: title, Width: labelW + barMax + 90}
	for v, n := range counts {
		if n == 0 {
			continue
		}
		y := len(c.Bars) * rowH
		bw := max(1, int(uint64(barMax)*n/peak))
		c.Bars = append(c.Bars, htmlBar{Label: name(v), Count: strconv.FormatUint(n, 10), Class: class(v),
			Y: y + 3, W: bw, TextX: labelW + bw + 6, LabelY: y + 15, BarTo: labelW})
	}
	c.Height = max(rowH, len(c.Bars)*rowH)
	return c
}
