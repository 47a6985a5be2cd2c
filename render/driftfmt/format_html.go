package driftfmt

import (
	"html/template"
	"io"

	"github.com/qoslint/qoslint/checks/drift"
	"github.com/qoslint/qoslint/render"
	"github.com/qoslint/qoslint/templates"
)

// driftCSS styles the drift page (render.HTMLHead puts it in the head):
// templates/html/drift.css.
var driftCSS = templates.MustCSS("drift")

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

// htmlPage is templates/html/drift.html.tmpl.
var htmlPage = template.Must(templates.HTMLPage("drift", template.FuncMap{"effect": effectWord}))
