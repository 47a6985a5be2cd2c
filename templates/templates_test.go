package templates

import (
	"html/template"
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// pages are the HTML pages render/ and render/driftfmt execute, with the
// functions they are parsed with (the test gives each a stand-in).
var pages = map[string]template.FuncMap{
	"head": nil, "report": nil, "trace": nil, "drift": {"effect": func(string) string { return "" }},
}

// Every page file parses and defines the template it is named after, and
// every file of html/ is a page or a style sheet something loads: a sheet
// or page that is only embedded is dead weight in every report.
func TestHTMLPages(t *testing.T) {
	files, err := fs.Glob(htmlFS, "html/*")
	if err != nil {
		t.Fatal(err)
	}
	sheets := map[string]bool{"report": true, "trace": true, "drift": true}
	for _, f := range files {
		base := strings.TrimPrefix(f, "html/")
		if n, ok := strings.CutSuffix(base, ".html.tmpl"); ok {
			if _, known := pages[n]; !known {
				t.Errorf("%s: no caller executes page %q", f, n)
			}
			continue
		}
		if n, ok := strings.CutSuffix(base, ".css"); ok && sheets[n] {
			continue
		}
		t.Errorf("%s is neither a page nor a style sheet of one", f)
	}
	for n, funcs := range pages {
		p, err := HTMLPage(n, funcs)
		if err != nil {
			t.Errorf("page %s: %v", n, err)
			continue
		}
		if p.Name() != n {
			t.Errorf("page %s: HTMLPage returned template %q", n, p.Name())
		}
	}
	if _, err := HTMLPage("nonesuch", nil); err == nil {
		t.Error("HTMLPage of a missing file: no error")
	}
}

// The sheets are put in the page unescaped, as template.CSS, inside a
// <style> element under a Content-Security-Policy that fetches nothing:
// a "</style" would end the element early and turn the rest into markup,
// and @import or url() would be a fetch the policy blocks, so the page
// would not look as it was written.
func TestHTMLStyleSheets(t *testing.T) {
	bad := regexp.MustCompile(`(?i)</style|@import|url\(`)
	for _, n := range []string{"report", "trace", "drift"} {
		css, err := CSS(n)
		if err != nil {
			t.Fatalf("sheet %s: %v", n, err)
		}
		raw, err := fs.ReadFile(htmlFS, "html/"+n+".css")
		if err != nil {
			t.Fatal(err)
		}
		if string(css)+"\n" != string(raw) {
			t.Errorf("sheet %s: CSS is not the file without its last newline", n)
		}
		if m := bad.FindString(string(raw)); m != "" {
			t.Errorf("sheet %s holds %q", n, m)
		}
	}
	if _, err := CSS("nonesuch"); err == nil {
		t.Error("CSS of a missing sheet: no error")
	}
}
