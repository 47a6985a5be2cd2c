package render

import (
	"html/template"
	"strings"

	"github.com/qoslint/qoslint/templates"
)

// htmlHead is templates/html/head.html.tmpl: the start of every qoslint
// HTML page, with its Content-Security-Policy (inline style, no script,
// nothing fetched).
var htmlHead = template.Must(templates.HTMLPage("head", nil))

// HTMLHead is a qoslint HTML page from <!DOCTYPE html> to </head>, with
// title (escaped) and css (trusted: one of the embedded style sheets,
// templates.MustCSS). Every HTML format starts its page with it, so they
// share one security policy.
func HTMLHead(title string, css template.CSS) template.HTML {
	var b strings.Builder
	// The template's only values are a string and template.CSS: it
	// cannot fail to execute.
	if err := htmlHead.Execute(&b, struct {
		Title string
		CSS   template.CSS
	}{title, css}); err != nil {
		panic(err)
	}
	return template.HTML(b.String())
}
