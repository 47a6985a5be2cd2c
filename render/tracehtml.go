package render

import (
	"fmt"
	"html/template"
	"io"

	"github.com/qoslint/qoslint/checks/trace"
	"github.com/qoslint/qoslint/templates"
)

// TraceHTML writes the trace as one self-contained page: per NIC pair and
// per ECMP path, the hops left to right as boxes (NIC → leaf → spine → leaf
// → NIC), each listing its steps, the first broken hop marked with its
// check. It starts with HTMLHead, so it shares the report's policy: inline
// style, no script, nothing fetched. The ids, classes and data attributes
// (section.path[data-broken], div.hop[data-device][data-status],
// li.step[data-step][data-status]) are stable for tests and scrapers. The
// endpoints are data-from/data-to, not data-src/data-dst: html/template
// reads a "src" attribute as a URL and would filter "gpu01:ens1f0np0" (a
// scheme, to it) out of the page.
func TraceHTML(w io.Writer, r *trace.TraceResult) error {
	return traceHTMLPage.Execute(w, buildTraceHTML(r))
}

type traceHTMLView struct {
	Head                     template.HTML
	Src, Dst, Policy, Status string
	Counts                   string
	Pairs                    []traceHTMLPair
	Paths, BrokenPaths       int
}

type traceHTMLPair struct {
	ID, Src, Dst, Summary string
	Paths                 []traceHTMLPath
}

type traceHTMLPath struct {
	ID, Via, Status, Verdict string
	Num                      int
	// BrokenDevice and Check are the first broken hop's device and check,
	// "" on a path that is not broken.
	BrokenDevice, Check string
	Hops                []traceHTMLHop
}

type traceHTMLHop struct {
	Index                       int
	Device, Kind, Role, In, Out string
	Status                      string
	FirstBroken                 bool
	Check                       string
	Steps                       []trace.TraceStep
}

func buildTraceHTML(r *trace.TraceResult) *traceHTMLView {
	pfc := "lossless"
	if !r.Lossless {
		pfc = "lossy: PFC not required"
	}
	v := &traceHTMLView{
		Head: HTMLHead(fmt.Sprintf("qoslint: trace %s → %s", r.Src, r.Dst), traceCSS),
		Src:  r.Src.String(), Dst: r.Dst.String(), Status: trace.StepOK,
		Policy: fmt.Sprintf("RoCE DSCP %d (ToS %d), priority %d, traffic-class %d, %s; CNP DSCP %d, priority %d",
			r.DSCP, r.ToS, r.Priority, r.TC, pfc, r.CNPDSCP, r.CNPPriority),
	}
	for i, pr := range r.Pairs {
		hp := traceHTMLPair{ID: fmt.Sprintf("pair-%d", i+1), Src: pr.Src.String(), Dst: pr.Dst.String()}
		broken := 0
		for j, p := range pr.Paths {
			path := buildTraceHTMLPath(p, fmt.Sprintf("%s-path-%d", hp.ID, j+1))
			path.Num = j + 1
			if path.Status == trace.StepBroken {
				broken++
			}
			v.Status = worseStatus(v.Status, path.Status)
			hp.Paths = append(hp.Paths, path)
		}
		verdict := "all ok"
		if broken > 0 {
			verdict = fmt.Sprintf("%d broken", broken)
		}
		hp.Summary = counted(len(pr.Paths), "path") + ", " + verdict
		v.Paths += len(pr.Paths)
		v.BrokenPaths += broken
		v.Pairs = append(v.Pairs, hp)
	}
	v.Counts = fmt.Sprintf("%s, %s, %d broken", counted(len(r.Pairs), "NIC pair"), counted(v.Paths, "path"), v.BrokenPaths)
	return v
}

func buildTraceHTMLPath(p trace.TracePath, id string) traceHTMLPath {
	out := traceHTMLPath{ID: id, Via: p.Via, Status: trace.StepOK, Verdict: traceStatus(p)}
	switch {
	case p.Broken >= 0:
		out.Status = trace.StepBroken
		out.BrokenDevice, out.Check = p.Hops[p.Broken].Device, p.Check
	case pathUnknown(p):
		out.Status = trace.StepUnknown
	}
	for i, h := range p.Hops {
		hop := traceHTMLHop{Index: i, Device: h.Device, Kind: h.Kind, Role: h.Role, In: h.In, Out: h.Out,
			Status: trace.StepOK, Steps: h.Steps}
		for _, s := range h.Steps {
			hop.Status = worseStatus(hop.Status, s.Status)
		}
		if i == p.Broken {
			hop.FirstBroken, hop.Check = true, p.Check
		}
		out.Hops = append(out.Hops, hop)
	}
	return out
}

// worseStatus orders broken over unknown over ok: a hop with one broken
// step loses RoCE's mark whatever its other steps say, and one that could
// not be judged whole is not ok.
func worseStatus(a, b string) string {
	rank := map[string]int{trace.StepOK: 0, trace.StepUnknown: 1, trace.StepBroken: 2}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// traceHTMLPage is templates/html/trace.html.tmpl, traceCSS its style
// sheet, trace.css: the hops are a row of boxes joined by arrows,
// scrolling sideways on a narrow screen rather than wrapping, so a path
// still reads left to right.
var (
	traceHTMLPage = template.Must(templates.HTMLPage("trace", nil))
	traceCSS      = templates.MustCSS("trace")
)
