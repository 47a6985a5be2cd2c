package driftfmt

import (
	"html/template"
	"io"

	"github.com/qoslint/qoslint/checks/drift"
	"github.com/qoslint/qoslint/render"
)

// driftCSS styles the drift page (render.HTMLHead puts it in the head).
const driftCSS template.CSS = `body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem; color: #1f2328; background: #fff; }
h1 { font-size: 1.4rem; margin-bottom: .3rem; }
h2 { font-size: 1.1rem; margin-top: 1.8rem; }
p.meta { color: #59636e; margin: .2rem 0; }
p.verdict { font-weight: 600; padding: .5rem .8rem; border-radius: 6px; }
p.drift { background: #fff8c5; border: 1px solid #d4a72c; }
p.nodrift { background: #dafbe1; border: 1px solid #4ac26b; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { border: 1px solid #d1d9e0; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem; }
.tag { display: inline-block; padding: 0 .4rem; border-radius: 1rem; font-size: .8rem; font-weight: 600; }
.breaks, .still-breaks { background: #ffebe9; color: #a40e26; }
.repairs { background: #dafbe1; color: #116329; }
.appeared { color: #0969da; }
.vanished { color: #59636e; }
ul.errors { color: #a40e26; }`

// WriteHTML writes the drift as one self-contained HTML page: inline CSS,
// no script, no external fetch (and a Content-Security-Policy that forbids
// any), so it can be archived as a CI artifact and opened anywhere.
// html/template escapes every value.
func WriteHTML(w io.Writer, d *drift.Drift) error {
	old, new := sideLine(d.Old), sideLine(d.New)
	return htmlPage.Execute(w, htmlData{
		Head: render.HTMLHead("qoslint drift: "+old+" → "+new, driftCSS),
		D:    d, Policy: policyLine(d.Policy), Summary: summaryLine(d),
		Old: old, New: new,
	})
}

type htmlData struct {
	Head                      template.HTML
	D                         *drift.Drift
	Policy, Summary, Old, New string
}

var htmlPage = template.Must(template.New("drift").Funcs(template.FuncMap{
	"effect": effectWord,
}).Parse(`{{.Head}}<body>
<h1>qoslint drift</h1>
<p class="meta"><code>{{.Old}}</code> → <code>{{.New}}</code></p>
<p class="meta">Judged against the policy {{.Policy}}.</p>
<p class="verdict {{if .D.Summary.Drift}}drift{{else}}nodrift{{end}}">{{if .D.Summary.Drift}}Drift{{else}}No drift{{end}}: {{.Summary}}.</p>
{{- if .D.InputErrors}}
<h2>Input errors</h2>
<p>The values they touch are not known; the drift may be incomplete.</p>
<ul class="errors">
{{- range .D.InputErrors}}
<li>{{.Side}}: {{if .Device}}{{.Device}}: {{end}}<code>{{.File}}{{if .Line}}:{{.Line}}{{end}}</code>: {{.Message}}</li>
{{- end}}
</ul>
{{- end}}
{{- if .D.Notes}}
<h2>Notes</h2>
<ul class="notes">
{{- range .D.Notes}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- end}}
{{- if .D.Fabric}}
<h2>fabric</h2>
{{template "changes" .D.Fabric}}
{{- end}}
{{- range .D.Devices}}
<h2>{{.Name}} <span class="{{.Status}}">({{.Kind}}, {{.Status}})</span></h2>
{{- if eq .Status "vanished"}}
<p>No longer in the input.</p>
{{- end}}
{{- if .Changes}}
{{template "changes" .Changes}}
{{- end}}
{{- end}}
</body>
</html>
{{define "changes"}}<table>
<tr><th>interface</th><th>change</th><th>effect</th><th>checks</th><th>now</th><th>was</th></tr>
{{- range $c := .}}
<tr><td>{{with $c.Interface}}<code>{{.}}</code>{{end}}</td><td>{{$c.Message}}</td><td>{{with effect $c.Effect}}<span class="tag {{$c.Effect}}">{{.}}</span>{{end}}</td><td>{{range $i, $id := $c.Checks}}{{if $i}} {{end}}<code>{{$id}}</code>{{end}}</td><td>{{with $c.AfterOrigin}}<code>{{.}}</code>{{end}}</td><td>{{with $c.BeforeOrigin}}<code>{{.}}</code>{{end}}</td></tr>
{{- end}}
</table>{{end}}
`))
