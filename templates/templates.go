// Package templates holds the text/template sources render/ executes to
// produce corrective commands and their rollback, and the html/template
// pages and style sheets of the HTML formats. They are embedded so the
// binary needs no files beside it.
package templates

import (
	"embed"
	"fmt"
	"html/template"
	"strings"
)

// FS holds every command template file.
//
//go:embed *.tmpl
var FS embed.FS

// Required are the templates render/ executes; an override folder may
// redefine any of them.
var Required = []string{
	"nvue-set", "nvue-unset", "nvue-apply", "mlnx_qos", "sysfs", "nccl-set", "nccl-add", "nccl-del", "ip-mtu", "mlxconfig", "setpci-acs",
	"opensm-set", "opensm-add", "opensm-del", "opensm-reload", "kubectl-patch", "switch-setting", "gcu-script",
	"script", "switch-commands", "switch-script", "switch-yaml", "host-config", "host-commands",
}

// htmlFS holds the HTML pages (html/NAME.html.tmpl, each defining the
// template NAME) and their style sheets (html/NAME.css). They sit in their
// own folder so the command templates' "*.tmpl" never parses them, and
// they have no override folder: a style sheet is put in the page
// unescaped, as trusted, so it may only come from the binary.
//
//go:embed html/*.html.tmpl html/*.css
var htmlFS embed.FS

// HTMLPage parses html/NAME.html.tmpl with funcs (nil for none) and
// returns its template NAME, with the templates it defines beside it.
func HTMLPage(name string, funcs template.FuncMap) (*template.Template, error) {
	t, err := template.New(name+".html.tmpl").Funcs(funcs).ParseFS(htmlFS, "html/"+name+".html.tmpl")
	if err != nil {
		return nil, err
	}
	page := t.Lookup(name)
	if page == nil {
		return nil, fmt.Errorf("templates: html/%s.html.tmpl defines no template %q", name, name)
	}
	return page, nil
}

// CSS is the style sheet html/NAME.css, without the file's last newline:
// the page's head puts its own newline after it.
func CSS(name string) (template.CSS, error) {
	b, err := htmlFS.ReadFile("html/" + name + ".css")
	if err != nil {
		return "", err
	}
	return template.CSS(strings.TrimSuffix(string(b), "\n")), nil
}

// MustCSS is CSS for a sheet the binary embeds: a missing one is a build
// mistake the tests catch, so it panics.
func MustCSS(name string) template.CSS {
	css, err := CSS(name)
	if err != nil {
		panic(err)
	}
	return css
}
