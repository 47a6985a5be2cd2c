package render

import (
	"fmt"
	"html/template"
	"io"

	"github.com/qoslint/qoslint/checks"
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
func TraceHTML(w io.Writer, r *checks.TraceResult) error {
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
	Steps                       []checks.TraceStep
}

func buildTraceHTML(r *checks.TraceResult) *traceHTMLView {
	pfc := "lossless"
	if !r.Lossless {
		pfc = "lossy: PFC not required"
	}
	v := &traceHTMLView{
		Head: HTMLHead(fmt.Sprintf("qoslint: trace %s → %s", r.Src, r.Dst), traceCSS),
		Src:  r.Src.String(), Dst: r.Dst.String(), Status: checks.StepOK,
		Policy: fmt.Sprintf("RoCE DSCP %d (ToS %d), priority %d, traffic-class %d, %s; CNP DSCP %d, priority %d",
			r.DSCP, r.ToS, r.Priority, r.TC, pfc, r.CNPDSCP, r.CNPPriority),
	}
	for i, pr := range r.Pairs {
		hp := traceHTMLPair{ID: fmt.Sprintf("pair-%d", i+1), Src: pr.Src.String(), Dst: pr.Dst.String()}
		broken := 0
		for j, p := range pr.Paths {
			path := buildTraceHTMLPath(p, fmt.Sprintf("%s-path-%d", hp.ID, j+1))
			path.Num = j + 1
			if path.Status == checks.StepBroken {
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

func buildTraceHTMLPath(p checks.TracePath, id string) traceHTMLPath {
	out := traceHTMLPath{ID: id, Via: p.Via, Status: checks.StepOK, Verdict: traceStatus(p)}
	switch {
	case p.Broken >= 0:
		out.Status = checks.StepBroken
		out.BrokenDevice, out.Check = p.Hops[p.Broken].Device, p.Check
	case pathUnknown(p):
		out.Status = checks.StepUnknown
	}
	for i, h := range p.Hops {
		hop := traceHTMLHop{Index: i, Device: h.Device, Kind: h.Kind, Role: h.Role, In: h.In, Out: h.Out,
			Status: checks.StepOK, Steps: h.Steps}
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
	rank := map[string]int{checks.StepOK: 0, checks.StepUnknown: 1, checks.StepBroken: 2}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

var traceHTMLPage = template.Must(template.New("trace").Parse(traceHTMLTemplate))

const traceHTMLTemplate = `{{.Head}}<body>
<header id="summary" data-from="{{.Src}}" data-to="{{.Dst}}" data-status="{{.Status}}" data-paths="{{.Paths}}" data-broken-paths="{{.BrokenPaths}}">
<h1>Trace {{.Src}} → {{.Dst}} <span class="badge {{.Status}}">{{.Status}}</span></h1>
<p class="policy">{{.Policy}}</p>
<p class="counts">{{.Counts}}</p>
</header>
<main>
{{- range .Pairs}}
<section class="pair" id="{{.ID}}" data-from="{{.Src}}" data-to="{{.Dst}}">
<h2>{{.Src}} → {{.Dst}}: {{.Summary}}</h2>
{{- range $p := .Paths}}
<section class="path {{.Status}}" id="{{.ID}}" data-status="{{.Status}}"{{if .Via}} data-via="{{.Via}}"{{end}}{{if .BrokenDevice}} data-broken="{{.BrokenDevice}}" data-check="{{.Check}}"{{end}}>
<h3>path {{.Num}}{{if .Via}} via {{.Via}}{{end}}: <span class="verdict {{.Status}}">{{.Verdict}}</span></h3>
<ol class="hops">
{{- range .Hops}}
<li><div class="hop {{.Status}}{{if .FirstBroken}} first-broken{{end}}" id="{{$p.ID}}-hop-{{.Index}}" data-hop="{{.Index}}" data-device="{{.Device}}" data-kind="{{.Kind}}" data-role="{{.Role}}" data-status="{{.Status}}"{{if .FirstBroken}} data-first-broken="true" data-check="{{.Check}}"{{end}}>
<h4>{{.Device}} <span class="role">{{.Role}}</span></h4>
<p class="ports">{{if .In}}in <code>{{.In}}</code>{{end}}{{if and .In .Out}}, {{end}}{{if .Out}}out <code>{{.Out}}</code>{{end}}</p>
{{- if .FirstBroken}}
<p class="first">first broken hop: <code>{{.Check}}</code></p>
{{- end}}
<ul class="steps">
{{- range .Steps}}
<li class="step {{.Status}}" data-step="{{.Name}}" data-dir="{{.Dir}}" data-port="{{.Port}}" data-status="{{.Status}}" data-check="{{.Check}}"><span class="st">{{.Status}}</span> <span class="dir">{{.Dir}}</span> <b>{{.Name}}</b> <code>{{.Port}}</code> {{.Label}}
{{- if .Reason}}<p class="reason"><code>{{.Check}}</code>: {{.Reason}}</p>{{end}}
{{- if .Source}}<p class="source">{{.Source}}</p>{{end}}</li>
{{- end}}
</ul>
</div></li>
{{- end}}
</ol>
</section>
{{- end}}
</section>
{{- end}}
</main>
</body>
</html>
`

// traceCSS styles the trace page (HTMLHead puts it in the page's head).
// The hops are a row of boxes joined by arrows, scrolling sideways on a
// narrow screen rather than wrapping, so a path still reads left to right.
const traceCSS = `:root{--err:#c5221f;--err-bg:#fce8e6;--ok:#137333;--ok-bg:#e6f4ea;--unk:#a35200;--unk-bg:#fef0d9;--line:#dadce0;--fg:#202124;--muted:#5f6368}
*{box-sizing:border-box}
body{margin:0;padding:24px 32px;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--fg);background:#fff}
h1{font-size:22px;margin:0 0 8px}
h2{font-size:18px;margin:28px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:16px 0 8px}
h4{font-size:14px;margin:0 0 2px}
code{font:12.5px/1.4 ui-monospace,"DejaVu Sans Mono","Liberation Mono",monospace}
.policy,.counts,.ports,.source,.role{color:var(--muted)}
.badge,.verdict{padding:1px 8px;border-radius:4px;font-weight:600}
.badge.ok,.verdict.ok{background:var(--ok-bg);color:var(--ok)}
.badge.broken,.verdict.broken{background:var(--err-bg);color:var(--err)}
.badge.unknown,.verdict.unknown{background:var(--unk-bg);color:var(--unk)}
ol.hops{display:flex;align-items:flex-start;list-style:none;margin:0;padding:0 0 8px;overflow-x:auto}
ol.hops>li{display:flex;align-items:flex-start;flex:0 0 auto}
ol.hops>li+li::before{content:"→";font-size:22px;color:var(--muted);padding:14px 6px 0}
.hop{width:300px;border:1px solid var(--line);border-top:4px solid var(--line);border-radius:6px;padding:8px 10px;background:#fff}
.hop.ok{border-top-color:var(--ok)}
.hop.unknown{border-top-color:var(--unk)}
.hop.broken{border-top-color:var(--err)}
.hop.first-broken{border:2px solid var(--err);border-top-width:4px;background:var(--err-bg)}
.first{margin:4px 0;font-weight:600;color:var(--err)}
.ports{margin:0 0 6px}
ul.steps{list-style:none;margin:0;padding:0}
li.step{padding:3px 0;border-top:1px solid var(--line);font-size:13px;overflow-wrap:anywhere}
li.step .st{display:inline-block;min-width:58px;text-align:center;border-radius:3px;font-size:11px;font-weight:600}
li.step.ok .st{background:var(--ok-bg);color:var(--ok)}
li.step.broken .st{background:var(--err);color:#fff}
li.step.unknown .st{background:var(--unk-bg);color:var(--unk)}
li.step .dir{color:var(--muted);font-size:11px}
.reason{margin:2px 0;color:var(--err)}
.step.unknown .reason{color:var(--unk)}
.source{margin:2px 0;font-size:11px}
@media print{ol.hops{flex-wrap:wrap;overflow:visible}}
`
