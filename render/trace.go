package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/qoslint/qoslint/checks/trace"
)

// TraceSchema names the JSON layout of `qoslint trace`; fields are only
// ever added under one name.
const TraceSchema = "qoslint.trace/v1"

// TraceFormats are the formats of `qoslint trace`.
var TraceFormats = []string{"text", "json", "html"}

// TraceWriter is a trace formatter.
func TraceWriter(format string) (func(io.Writer, *trace.TraceResult) error, error) {
	switch format {
	case "text":
		return TraceText, nil
	case "json":
		return TraceJSON, nil
	case "html":
		return TraceHTML, nil
	}
	return nil, fmt.Errorf("--format %q: %s", format, strings.Join(TraceFormats[:len(TraceFormats)-1], ", ")+" or "+TraceFormats[len(TraceFormats)-1])
}

// traceStatus is a path's verdict as printed.
func traceStatus(p trace.TracePath) string {
	if p.Broken < 0 {
		if pathUnknown(p) {
			return "unknown (some values not collected)"
		}
		return "ok"
	}
	return fmt.Sprintf("broken at %s (%s)", p.Hops[p.Broken].Device, p.Check)
}

func pathUnknown(p trace.TracePath) bool {
	for _, h := range p.Hops {
		for _, s := range h.Steps {
			if s.Status == trace.StepUnknown {
				return true
			}
		}
	}
	return false
}

// TraceText writes the paths hop by hop, each step on a line, the reason
// of every step that is not ok under it.
func TraceText(w io.Writer, r *trace.TraceResult) error {
	var b strings.Builder
	pfc := "lossless"
	if !r.Lossless {
		pfc = "lossy: PFC not required"
	}
	fmt.Fprintf(&b, "trace %s → %s: RoCE DSCP %d (ToS %d), priority %d, traffic-class %d, %s; CNP DSCP %d, priority %d\n",
		r.Src, r.Dst, r.DSCP, r.ToS, r.Priority, r.TC, pfc, r.CNPDSCP, r.CNPPriority)
	for _, pr := range r.Pairs {
		broken := 0
		for _, p := range pr.Paths {
			if p.Broken >= 0 {
				broken++
			}
		}
		verdict := "all ok"
		if broken > 0 {
			verdict = fmt.Sprintf("%d broken", broken)
		}
		fmt.Fprintf(&b, "\n%s → %s: %s, %s\n", pr.Src, pr.Dst, counted(len(pr.Paths), "path"), verdict)
		for i, p := range pr.Paths {
			via := ""
			if p.Via != "" {
				via = " via " + p.Via
			}
			fmt.Fprintf(&b, "\npath %d%s: %s\n", i+1, via, traceStatus(p))
			for j, h := range p.Hops {
				traceHopText(&b, h, j == p.Broken, p.Check)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func traceHopText(b *strings.Builder, h trace.TraceHop, first bool, check string) {
	var ports []string
	if h.In != "" {
		ports = append(ports, "in "+h.In)
	}
	if h.Out != "" {
		ports = append(ports, "out "+h.Out)
	}
	mark := ""
	if first {
		mark = "  ← first broken hop: " + check
	}
	fmt.Fprintf(b, "  %s (%s) %s%s\n", h.Device, h.Role, strings.Join(ports, ", "), mark)
	for _, s := range h.Steps {
		src := ""
		if s.Source != "" {
			src = "  [" + s.Source + "]"
		}
		fmt.Fprintf(b, "    %-7s %-4s %-15s %-12s %s%s\n", s.Status, s.Dir, s.Name, s.Port, s.Label, src)
		if s.Reason != "" {
			fmt.Fprintf(b, "            %s: %s\n", s.Check, s.Reason)
		}
	}
}

type jsonTrace struct {
	Schema      string          `json:"schema"`
	Src         string          `json:"src"`
	Dst         string          `json:"dst"`
	DSCP        int             `json:"dscp"`
	ToS         int             `json:"tos"`
	Priority    int             `json:"priority"`
	TC          int             `json:"traffic_class"`
	Lossless    bool            `json:"lossless"`
	CNPDSCP     int             `json:"cnp_dscp"`
	CNPPriority int             `json:"cnp_priority"`
	Broken      bool            `json:"broken"`
	Pairs       []jsonTracePair `json:"pairs"`
}

type jsonTracePair struct {
	Src   string          `json:"src"`
	Dst   string          `json:"dst"`
	Paths []jsonTracePath `json:"paths"`
}

type jsonTracePath struct {
	Via    string         `json:"via,omitempty"`
	Status string         `json:"status"`
	Broken *jsonBrokenHop `json:"first_broken,omitempty"`
	Hops   []jsonTraceHop `json:"hops"`
}

type jsonBrokenHop struct {
	Hop    int    `json:"hop"`
	Device string `json:"device"`
	Check  string `json:"check"`
}

type jsonTraceHop struct {
	Device string          `json:"device"`
	Kind   string          `json:"kind"`
	Role   string          `json:"role"`
	In     string          `json:"in,omitempty"`
	Out    string          `json:"out,omitempty"`
	Steps  []jsonTraceStep `json:"steps"`
}

type jsonTraceStep struct {
	Name   string `json:"name"`
	Dir    string `json:"direction"`
	Port   string `json:"port"`
	Status string `json:"status"`
	Label  string `json:"label"`
	Check  string `json:"check"`
	Reason string `json:"reason,omitempty"`
	Source string `json:"source,omitempty"`
}

// TraceJSON writes the trace as one JSON document (schema TraceSchema).
func TraceJSON(w io.Writer, r *trace.TraceResult) error {
	out := jsonTrace{Schema: TraceSchema, Src: r.Src.String(), Dst: r.Dst.String(), DSCP: r.DSCP, ToS: r.ToS,
		Priority: r.Priority, TC: r.TC, Lossless: r.Lossless, CNPDSCP: r.CNPDSCP, CNPPriority: r.CNPPriority,
		Broken: r.Broken(), Pairs: []jsonTracePair{}}
	for _, pr := range r.Pairs {
		jp := jsonTracePair{Src: pr.Src.String(), Dst: pr.Dst.String(), Paths: []jsonTracePath{}}
		for _, p := range pr.Paths {
			jpath := jsonTracePath{Via: p.Via, Status: trace.StepOK, Hops: []jsonTraceHop{}}
			switch {
			case p.Broken >= 0:
				jpath.Status = trace.StepBroken
				jpath.Broken = &jsonBrokenHop{Hop: p.Broken, Device: p.Hops[p.Broken].Device, Check: p.Check}
			case pathUnknown(p):
				jpath.Status = trace.StepUnknown
			}
			for _, h := range p.Hops {
				jh := jsonTraceHop{Device: h.Device, Kind: h.Kind, Role: h.Role, In: h.In, Out: h.Out, Steps: []jsonTraceStep{}}
				for _, s := range h.Steps {
					jh.Steps = append(jh.Steps, jsonTraceStep{Name: s.Name, Dir: s.Dir, Port: s.Port, Status: s.Status,
						Label: s.Label, Check: s.Check, Reason: s.Reason, Source: s.Source})
				}
				jpath.Hops = append(jpath.Hops, jh)
			}
			jp.Paths = append(jp.Paths, jpath)
		}
		out.Pairs = append(out.Pairs, jp)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
