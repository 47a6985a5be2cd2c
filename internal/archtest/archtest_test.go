// Package archtest holds qoslint's import rules as a test: which layer may
// import which, read from `go list` (the packages' production imports; test
// files may reach further, for fixtures). The layers, from the ground up:
// the vocabulary (internal/, standard library only), inventory, model,
// collectors, checks, render, cmd. No layer imports one above it. The model
// sits below the collectors because it is their contract: each collector
// package parses its format and fills the model's types (a new switch OS is
// one such package), so the model names no parser type; the data still
// flows inventory -> collectors -> model -> checks -> render. Rules issue 23
// sets that the code does not meet yet are a ratchet: today's exceptions
// are listed edge by edge, a new edge fails, and so does a listed edge that
// has disappeared, so the list only ever shrinks. Within the checks, the
// verdict kernel (checks/judge) is closed: it imports only the model and
// the vocabulary (closedPkgs), and render takes its verdicts from it
// (verdicts_test.go).
package archtest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/qoslint/qoslint/"

// vocabulary is the ground floor every layer uses: device kinds and
// fabric-directory names, source positions and input errors, accepted
// names, build information, and the policy: the intent every layer speaks
// (the inventory loads it, the model carries it, the checks judge by it).
var vocabulary = []string{"internal/buildinfo", "internal/layout", "internal/names", "internal/policy", "internal/source"}

// layers orders the layers by their first path element; a package may
// import its own layer and the layers below it.
var layers = []string{"inventory", "model", "collectors", "checks", "render", "templates", "cmd"}

// templateText is the package of the embedded template text (the command
// templates, the HTML pages and their style sheets): data, importing only
// the standard library, which render formats with. The packages below it
// (templates/preview, the fabric as the fixes leave it) are the fix side,
// the layer above render.
const templateText = "templates"

// collectorsOnly are packages no layer above the collectors imports.
// collectors/devcmd is the live collector's allowlist: the commands
// qoslint may send, their builders and the parse of their output, shared
// with the simulator that answers them. None of it is vocabulary the
// model or a check needs (they read the files the commands fill, named by
// internal/layout), and it takes hostfiles' counter names, so it stays in
// the collectors.
var collectorsOnly = []string{"collectors/devcmd"}

// rule is a target of issue 23 the ratchet holds the code to: a package of
// layer from imports no package under any of the prefixes in not.
type rule struct {
	from string
	not  []string
	why  string
}

var targets = []rule{
	{"checks", []string{"collectors", "inventory"}, "checks read the model and the vocabulary only, so a new switch OS changes no check"},
	{"model", []string{"collectors"}, "the model owns its types: no parser type passes through it"},
	{"render", []string{"collectors"}, "render formats the model and the findings, not parser types"},
}

// closed is a package held to a closed list of our imports: a package at
// or under from imports of ours only packages at or under one of may.
type closed struct {
	from string
	may  []string
	why  string
}

var closedPkgs = []closed{
	{"checks/judge", []string{"model", "internal"}, "the verdict kernel judges model values by the policy; the checks, the marking chain, the drift and the trace call it, so it imports none of them"},
}

// under reports whether p is path or a package under it.
func under(p, path string) bool { return p == path || strings.HasPrefix(p, path+"/") }

// ratchet is every import that breaks a target today, as "from -> to".
// Delete a line when its edge goes; never add one. It held 19 edges when
// issue 23 began (checks importing collectors and inventory, the model and
// render importing collectors) and is empty now: every target holds.
var ratchet = []string{}

// pkg is one package as `go list -json` prints it.
type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
	Standard   bool
}

func TestImportRules(t *testing.T) {
	pkgs := goList(t)
	n := 0
	for _, p := range pkgs {
		if _, ok := ours(p.ImportPath); ok {
			n++
		}
	}
	if n < 2*len(layers) {
		t.Fatalf("go list found %d of our packages: too few for qoslint, the listing is broken", n)
	}
	for _, p := range judge(pkgs, ratchet) {
		t.Error(p)
	}
}

// TestJudge shows that judge catches each kind of break on a made-up
// module, so TestImportRules passing means the rules hold.
func TestJudge(t *testing.T) {
	m := func(paths ...string) []string {
		for i, p := range paths {
			if _, std := stdlib[p]; !std {
				paths[i] = module + p
			}
		}
		return paths
	}
	base := func() []pkg {
		ps := []pkg{
			{ImportPath: "internal/layout", Imports: m("path"), Deps: m("path", "strings")},
			{ImportPath: "internal/source", Imports: m("fmt"), Deps: m("fmt")},
			{ImportPath: "internal/names", Imports: m("regexp"), Deps: m("regexp")},
			{ImportPath: "internal/buildinfo", Deps: m("runtime/debug")},
			{ImportPath: "internal/policy", Imports: m("internal/source"), Deps: m("internal/source", "fmt")},
			{ImportPath: "internal/snaptest", Imports: m("model"), Deps: m("model")},
			{ImportPath: "inventory", Imports: m("internal/layout")},
			{ImportPath: "collectors/nvue", Imports: m("internal/source")},
			{ImportPath: "model", Imports: m("inventory", "collectors/nvue")},
			{ImportPath: "collectors/sonic", Imports: m("model", "internal/source")},
			{ImportPath: "checks", Imports: m("model", "internal/layout", "checks/judge")},
			{ImportPath: "checks/judge", Imports: m("model", "internal/policy")},
			{ImportPath: "render", Imports: m("checks", "model", "templates")},
			{ImportPath: "templates", Imports: m("fmt"), Deps: m("fmt")},
			{ImportPath: "templates/preview", Imports: m("render", "collectors/nvue")},
			{ImportPath: "cmd/qoslint", Imports: m("render", "fmt")},
		}
		for i := range ps {
			ps[i].ImportPath = module + ps[i].ImportPath
		}
		for p := range stdlib {
			ps = append(ps, pkg{ImportPath: p, Standard: true})
		}
		return ps
	}
	edit := func(path string, f func(*pkg)) []pkg {
		ps := base()
		for i := range ps {
			if ps[i].ImportPath == module+path {
				f(&ps[i])
			}
		}
		return ps
	}
	today := []string{"model -> collectors/nvue"}
	cases := []struct {
		name    string
		pkgs    []pkg
		ratchet []string
		want    []string
	}{
		{"clean", base(), today, nil},
		{"listed edge gone", edit("model", func(p *pkg) { p.Imports = m("inventory") }), today,
			[]string{"model -> collectors/nvue is gone: delete its line from ratchet"}},
		{"new target edge", edit("checks", func(p *pkg) { p.Imports = append(p.Imports, m("collectors/nvue")...) }), today,
			[]string{"checks -> collectors/nvue is new and breaks a target (checks imports nothing of collectors, inventory: checks read the model and the vocabulary only, so a new switch OS changes no check)"}},
		{"upward", edit("inventory", func(p *pkg) { p.Imports = append(p.Imports, m("collectors/nvue")...) }), today,
			[]string{"inventory -> collectors/nvue imports upward: inventory is below collectors"}},
		{"vocabulary on another module", edit("internal/names", func(p *pkg) { p.Deps = append(p.Deps, "gopkg.in/yaml.v3") }), today,
			[]string{"internal/names depends on gopkg.in/yaml.v3: the vocabulary imports the standard library only"}},
		{"vocabulary on our module", edit("internal/layout", func(p *pkg) { p.Deps = append(p.Deps, m("inventory")...) }), today,
			[]string{"internal/layout depends on " + module + "inventory: the vocabulary imports the standard library only"}},
		{"ground floor that is not", edit("checks", func(p *pkg) { p.Imports = append(p.Imports, m("internal/snaptest")...) }), today,
			[]string{"checks -> internal/snaptest: production code may import only internal packages of the standard library alone; internal/snaptest is not one"}},
		{"allowlist above the collectors", edit("cmd/qoslint", func(p *pkg) { p.Imports = append(p.Imports, m("collectors/devcmd")...) }), today,
			[]string{"cmd/qoslint -> collectors/devcmd: only the collectors may import collectors/devcmd"}},
		{"kernel on a rule", edit("checks/judge", func(p *pkg) { p.Imports = append(p.Imports, m("checks")...) }), today,
			[]string{"checks/judge -> checks: checks/judge imports only model, internal: the verdict kernel judges model values by the policy; the checks, the marking chain, the drift and the trace call it, so it imports none of them"}},
		{"template text on our module", append(base(), pkg{ImportPath: module + "templates", Deps: m("model")}), today,
			[]string{"templates depends on " + module + "model: the template text imports the standard library only, so every layer may read it"}},
		{"fix side below render", append(base(), pkg{ImportPath: module + "render/x", Imports: m("templates/preview")}), today,
			[]string{"render/x -> templates/preview imports upward: render is below templates"}},
		{"vocabulary missing", slices.DeleteFunc(base(), func(p pkg) bool { return p.ImportPath == module+"internal/buildinfo" }), today,
			[]string{"vocabulary package internal/buildinfo is not in the module: update vocabulary"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := judge(c.pkgs, c.ratchet); !slices.Equal(got, c.want) {
				t.Errorf("judge =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// stdlib are the standard packages TestJudge's made-up module uses.
var stdlib = map[string]struct{}{"fmt": {}, "path": {}, "regexp": {}, "runtime/debug": {}, "strings": {}}

// judge returns every break of the rules in pkgs, sorted. Paths are as
// go list prints them; ours start with module.
func judge(pkgs []pkg, ratchet []string) []string {
	var problems []string
	byPath := map[string]pkg{}
	std := map[string]bool{}
	for _, p := range pkgs {
		if rel, ok := ours(p.ImportPath); ok {
			byPath[rel] = p
		}
		std[p.ImportPath] = p.Standard
	}
	for _, v := range vocabulary {
		p, ok := byPath[v]
		if !ok {
			problems = append(problems, fmt.Sprintf("vocabulary package %s is not in the module: update vocabulary", v))
			continue
		}
		for _, d := range p.Deps {
			if rel, ok := ours(d); ok && slices.Contains(vocabulary, rel) {
				continue // one word of the vocabulary may use another
			}
			if !std[d] {
				problems = append(problems, fmt.Sprintf("%s depends on %s: the vocabulary imports the standard library only", v, d))
			}
		}
	}
	if p, ok := byPath[templateText]; ok {
		for _, d := range p.Deps {
			if !std[d] {
				problems = append(problems, fmt.Sprintf("%s depends on %s: the template text imports the standard library only, so every layer may read it", templateText, d))
			}
		}
	}
	listed := map[string]bool{}
	for _, e := range ratchet {
		listed[e] = true
	}
	seen := map[string]bool{}
	for from, p := range byPath {
		for _, imp := range p.Imports {
			to, ok := ours(imp)
			if !ok || to == from {
				continue
			}
			edge := from + " -> " + to
			// The vocabulary's own rule above speaks for its packages.
			if top(to) == "internal" && top(from) != "internal" && !slices.Contains(vocabulary, to) {
				if q, ok := byPath[to]; ok && slices.ContainsFunc(q.Deps, func(d string) bool { return !std[d] }) {
					problems = append(problems, fmt.Sprintf("%s: production code may import only internal packages of the standard library alone; %s is not one", edge, to))
				}
			}
			for _, c := range closedPkgs {
				if under(from, c.from) && !slices.ContainsFunc(c.may, func(m string) bool { return under(to, m) }) {
					problems = append(problems, fmt.Sprintf("%s: %s imports only %s: %s", edge, c.from, strings.Join(c.may, ", "), c.why))
				}
			}
			if slices.Contains(collectorsOnly, to) && top(from) != "collectors" {
				problems = append(problems, fmt.Sprintf("%s: only the collectors may import %s", edge, to))
			}
			if f, t := rank(from), rank(to); f >= 0 && t > f && to != templateText {
				if listed[edge] {
					seen[edge] = true
					continue
				}
				problems = append(problems, fmt.Sprintf("%s imports upward: %s is below %s", edge, layers[f], layers[t]))
			}
			for _, r := range targets {
				if top(from) != r.from || !slices.Contains(r.not, top(to)) {
					continue
				}
				if listed[edge] {
					seen[edge] = true
					continue
				}
				problems = append(problems, fmt.Sprintf("%s is new and breaks a target (%s imports nothing of %s: %s)", edge, r.from, strings.Join(r.not, ", "), r.why))
			}
		}
	}
	for _, e := range ratchet {
		if !seen[e] {
			problems = append(problems, e+" is gone: delete its line from ratchet")
		}
	}
	slices.Sort(problems)
	return slices.Compact(problems)
}

// ours is p relative to the module; ok is false for another module's or
// the standard library's package.
func ours(p string) (rel string, ok bool) { return strings.CutPrefix(p, module) }

// top is a path's first element.
func top(p string) string { f, _, _ := strings.Cut(p, "/"); return f }

// rank is p's layer's index in layers, -1 for a package in none (the
// internal ground floor, templates, examples).
func rank(p string) int { return slices.Index(layers, top(p)) }

// goList runs `go list -deps -json` over the module, which lists our
// packages and everything they depend on, each standard package marked
// Standard. It runs the go command that runs this test: go test puts its
// own GOROOT/bin first on PATH.
func goList(t *testing.T) []pkg {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list the packages: %v", err)
	}
	gomod, err := exec.Command(goCmd, "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	cmd := exec.Command(goCmd, "list", "-deps", "-json=ImportPath,Imports,Deps,Standard", "./...")
	cmd.Dir = filepath.Dir(strings.TrimSpace(string(gomod)))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	readSources(t, cmd.Dir)
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// readSources opens go.mod and every Go file go list reads. go test caches
// a passing result keyed on the files and folders the test itself opened,
// not on what a command it ran read; without this a new import would pass
// from the cache.
func readSources(t *testing.T, root string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") && p != filepath.Join(root, "go.mod") {
			return nil
		}
		n++
		_, err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no Go file under %s", root)
	}
}
