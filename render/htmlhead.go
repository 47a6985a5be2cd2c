package render

import (
	"html/template"
	"strings"
)

// htmlHead is the start of every qoslint HTML page: UTF-8, a
// Content-Security-Policy that allows the inline style sheet and nothing
// else (no script, nothing fetched: a report opened from a CI artifact
// must not reach out), a viewport for phones, the title and the style.
var htmlHead = template.Must(template.New("head").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="qoslint">
<title>{{.Title}}</title>
<style>
{{.CSS}}
</style>
</head>
`))

// HTMLHead is a qoslint HTML page from <!DOCTYPE html> to </head>, with
// title (escaped) and css (trusted: a constant of the caller). Every HTML
// format starts its page with it, so they share one security policy.
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
