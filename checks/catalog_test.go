package checks

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

// TestCatalog holds every check to its declaration, so that the catalog
// can grow without a list of IDs to keep in step anywhere.
func TestCatalog(t *testing.T) {
	cat := append(All(), NotCollected)
	seen := map[string]bool{}
	for _, c := range cat {
		if c.ID == "" || seen[c.ID] {
			t.Errorf("check ID %q is empty or not unique", c.ID)
		}
		seen[c.ID] = true
		if Lookup(c.ID) != c {
			t.Errorf("Lookup(%q) does not find it", c.ID)
		}
		if strings.TrimSpace(c.Title) == "" || strings.TrimSpace(c.Doc) == "" {
			t.Errorf("%s: Title and Doc are required", c.ID)
		}
		if !c.Severity.Valid() {
			t.Errorf("%s: severity %d is none of info, warning, error", c.ID, c.Severity)
		}
		if !slices.Contains(Kinds, c.Kind) {
			t.Errorf("%s: kind %q is none of %v", c.ID, c.Kind, Kinds)
		}
		if c.Devices == 0 || c.Devices&^AllDevices != 0 {
			t.Errorf("%s: devices %08b is not a non-empty set of switch, host", c.ID, c.Devices)
		}
		for _, in := range c.Inputs {
			if !inputKnown(in) {
				t.Errorf("%s: unknown input %q", c.ID, in)
			}
		}
		if c != NotCollected && c.Run == nil {
			t.Errorf("%s: no Run", c.ID)
		}
		if len(c.Requires) > 0 && c.runIn == nil {
			t.Errorf("%s: requires checks but cannot read them (declare it with inRun)", c.ID)
		}
		pass, fail := 0, 0
		for _, table := range caseTables[c.ID] {
			for _, tc := range table(t) {
				if len(tc.want) == 0 {
					pass++
				} else {
					fail++
				}
			}
		}
		if pass == 0 || fail == 0 {
			t.Errorf("%s: %d passing and %d failing table cases; register at least one of each", c.ID, pass, fail)
		}
	}
	for id := range caseTables {
		if !seen[id] {
			t.Errorf("table cases registered for %q, which is no check of the catalog", id)
		}
	}
	if err := validateRequires(cat); err != nil {
		t.Error(err)
	}
	// Every check can say why it did not run (status.go): where nothing
	// was collected, each is skipped with a reason on every device.
	_, sts := RunStatus(emptyFabric(t), nil)
	for _, s := range sts {
		if s.Ran() || s.Reason() == "" {
			t.Errorf("%s on %s of a fabric with no device file: %q %q; declare Applies or Inputs that say why it did not run", s.Check(), s.Device, s.Skip(), s.Reason())
		}
	}
}

// A cycle or a check outside the catalog in Requires is caught. Package
// variables cannot form a cycle (Go refuses the initialization cycle), so
// the checks here are built in the test.
func TestValidateRequires(t *testing.T) {
	a, b, c := &Check{ID: "a"}, &Check{ID: "b"}, &Check{ID: "c"}
	a.Requires, b.Requires = []*Check{b}, []*Check{c}
	if err := validateRequires([]*Check{a, b, c}); err != nil {
		t.Errorf("a chain is no cycle: %v", err)
	}
	c.Requires = []*Check{a}
	if err := validateRequires([]*Check{a, b, c}); err == nil || !strings.Contains(err.Error(), "a → b → c → a") {
		t.Errorf("cycle: %v", err)
	}
	c.Requires = []*Check{{ID: "stray"}}
	if err := validateRequires([]*Check{a, b, c}); err == nil || !strings.Contains(err.Error(), `"stray", which is not in the catalog`) {
		t.Errorf("stray: %v", err)
	}
}

// A check that reads the findings of a check it does not require is a bug
// the first run of it shows.
func TestUndeclaredRequirePanics(t *testing.T) {
	rogue := inRun(&Check{ID: "rogue"}, func(r *run) []Finding { return r.findings(hostPFC) })
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "check rogue reads the findings of host-pfc, which its Requires does not list") {
			t.Errorf("recovered %v", r)
		}
	}()
	rogue.Run(fabric(t))
}

// A required check runs before the check that reads it, once, even when
// it is not selected: the run reports only what is.
func TestRequiredRunsUnselected(t *testing.T) {
	f := fabric(t, appendTo(spine02C, "nv set qos pfc default-global switch-priority 4\n"),
		write(spine01Counters, gnmiFile(gnmiQueue("swp1", 3, 4792, 17))))
	set, err := Select([]Selector{{Name: "evidence-lossless-drops", Where: "--enable"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fs := RunSet(f, set)
	if len(fs) != 1 || fs[0].Check != "evidence-lossless-drops" || !strings.Contains(fs[0].Message, "no configuration finding") {
		t.Errorf("%+v", fs)
	}
	// spine02's switch-pfc finding was computed (it is not on spine01, so
	// nothing corroborates); with switch-pfc enabled it is reported too.
	set, _ = Select([]Selector{{Name: "evidence-lossless-drops"}, {Name: "switch-pfc"}}, nil)
	if fs := RunSet(f, set); len(fs) != 2 {
		t.Errorf("%+v", fs)
	}
}

func TestSelect(t *testing.T) {
	sel := func(names ...string) []Selector {
		var out []Selector
		for _, n := range names {
			out = append(out, Selector{Name: n, Where: "--x"})
		}
		return out
	}
	ids := func(s *Set) string { return strings.Join(s.IDs(), " ") }
	all := append(All(), NotCollected)
	for _, tc := range []struct {
		name            string
		enable, disable []string
		want            func(c *Check) bool
	}{
		{"nothing named: every check", nil, nil, func(*Check) bool { return true }},
		{"a kind", []string{"evidence"}, nil, func(c *Check) bool { return c.Kind == KindEvidence }},
		{"an ID and a kind", []string{"mtu", "evidence"}, nil, func(c *Check) bool { return c.Kind == KindEvidence || c.ID == "mtu" }},
		{"disable a kind", nil, []string{"evidence"}, func(c *Check) bool { return c.Kind != KindEvidence }},
		{"disable wins over enable, even a kind over an ID", []string{"evidence-dcqcn", "mtu"}, []string{"evidence"}, func(c *Check) bool { return c.ID == "mtu" }},
		{"not-collected is a check of kind input", nil, []string{"input"}, func(c *Check) bool { return c != NotCollected }},
	} {
		s, err := Select(sel(tc.enable...), sel(tc.disable...))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var want []string
		for _, c := range all {
			if tc.want(c) {
				want = append(want, c.ID)
			}
		}
		if ids(s) != strings.Join(want, " ") {
			t.Errorf("%s: %s, want %s", tc.name, ids(s), strings.Join(want, " "))
		}
	}
	_, err := Select(sel("mtu", "nope"), []Selector{{Name: "evidnce", Where: "checks.disable", Pos: source.Pos{File: "inventory.yaml", Line: 7}}})
	if err == nil || !strings.Contains(err.Error(), `--x: unknown check or kind "nope"`) ||
		!strings.Contains(err.Error(), `inventory.yaml:7: checks.disable: unknown check or kind "evidnce"`) {
		t.Errorf("unknown names: %v", err)
	}
	if _, err := Select(nil, sel("config", "evidence", "topology", "input")); err == nil || !strings.Contains(err.Error(), "no check to run") {
		t.Errorf("nothing left: %v", err)
	}
	if s, err := Select(sel("topology", "mtu"), nil); err != nil || ids(s) != "mtu link-mtu link-qos link-pfc cabling rail-alignment" {
		t.Errorf("a kind and a check: %v %v", ids(s), err)
	}
}

// TestCheckFiles holds the package's naming rule, so a reader finds a
// check by its ID: check "host-tos" is declared, with the function its Run
// calls, in host_tos.go, and host_tos_test.go registers its table cases.
// It reads the package's own source (go/parser), since a *Check value
// does not know where it was written. What is not a rule lives outside
// the package: the verdicts in checks/judge (no Judge* function here),
// the trace in checks/trace, and no *helpers.go file gathers the rest.
func TestCheckFiles(t *testing.T) {
	decls, err := checkDecls(".")
	if err != nil {
		t.Fatal(err)
	}
	for fn, file := range decls.funcs {
		if strings.HasPrefix(fn, "Judge") {
			t.Errorf("%s declares the verdict %s: verdicts are the kernel's, in checks/judge", file, fn)
		}
	}
	helpers, err := filepath.Glob("*helpers*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range helpers {
		t.Errorf("%s: a helper belongs to the check that uses it, to the kernel (checks/judge) or to the model", h)
	}
	for _, c := range append(All(), NotCollected) {
		base := strings.ReplaceAll(c.ID, "-", "_")
		d, ok := decls.byID[c.ID]
		if !ok {
			t.Errorf("%s: no package-level var holds a &Check{ID: %q}", c.ID, c.ID)
			continue
		}
		if d.file != base+".go" {
			t.Errorf("%s: var %s is declared in %s, want %s.go", c.ID, d.name, d.file, base)
		}
		if c != NotCollected {
			switch file, ok := decls.funcs[d.run]; {
			case d.run == "":
				t.Errorf("%s: its Run is not a function the package declares by name", c.ID)
			case !ok:
				t.Errorf("%s: Run %s is not declared in the package", c.ID, d.run)
			case file != base+".go":
				t.Errorf("%s: Run %s is declared in %s, want %s.go", c.ID, d.run, file, base)
			}
		}
		if !slices.Contains(decls.registered[base+"_test.go"], d.name) {
			t.Errorf("%s: %s_test.go does not register(%s, ...) its table cases", c.ID, base, d.name)
		}
	}
}

// checkDecl is one package-level var holding a check.
type checkDecl struct {
	name, file string
	// run is the function the check runs: the ident of Run: in the
	// &Check{...}, or the second argument of inRun.
	run string
}

type pkgDecls struct {
	byID map[string]checkDecl
	// funcs maps each package-level function to its file.
	funcs map[string]string
	// registered maps each test file to the check vars it calls register with.
	registered map[string][]string
}

// checkDecls reads the Go files of dir.
func checkDecls(dir string) (*pkgDecls, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	out := &pkgDecls{byID: map[string]checkDecl{}, funcs: map[string]string{}, registered: map[string][]string{}}
	fset := token.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return nil, err
		}
		name := filepath.Base(path)
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv == nil {
					out.funcs[decl.Name.Name] = name
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok || len(vs.Names) != 1 || len(vs.Values) != 1 {
						continue
					}
					if id, run, ok := checkLiteral(vs.Values[0]); ok {
						out.byID[id] = checkDecl{name: vs.Names[0].Name, file: name, run: run}
					}
					if strings.HasSuffix(name, "_test.go") {
						if v, ok := registerArg(vs.Values[0]); ok {
							out.registered[name] = append(out.registered[name], v)
						}
					}
				}
			}
		}
	}
	return out, nil
}

// checkLiteral reads &Check{ID: "...", Run: fn} or inRun(&Check{ID: "..."}, fn).
func checkLiteral(e ast.Expr) (id, run string, ok bool) {
	if call, isCall := e.(*ast.CallExpr); isCall {
		if fn, _ := call.Fun.(*ast.Ident); fn == nil || fn.Name != "inRun" || len(call.Args) != 2 {
			return "", "", false
		}
		id, _, ok = checkLiteral(call.Args[0])
		if arg, isIdent := call.Args[1].(*ast.Ident); isIdent {
			run = arg.Name
		}
		return id, run, ok
	}
	u, isAddr := e.(*ast.UnaryExpr)
	if !isAddr || u.Op != token.AND {
		return "", "", false
	}
	lit, isLit := u.X.(*ast.CompositeLit)
	if !isLit {
		return "", "", false
	}
	if typ, _ := lit.Type.(*ast.Ident); typ == nil || typ.Name != "Check" {
		return "", "", false
	}
	for _, el := range lit.Elts {
		kv, isKV := el.(*ast.KeyValueExpr)
		if !isKV {
			continue
		}
		switch key, _ := kv.Key.(*ast.Ident); {
		case key == nil:
		case key.Name == "ID":
			if s, isStr := kv.Value.(*ast.BasicLit); isStr && s.Kind == token.STRING {
				id, ok = strings.Trim(s.Value, "\""), true
			}
		case key.Name == "Run":
			if fn, isIdent := kv.Value.(*ast.Ident); isIdent {
				run = fn.Name
			}
		}
	}
	return id, run, ok
}

// registerArg reads the check var of register(v, ...).
func registerArg(e ast.Expr) (string, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return "", false
	}
	if fn, _ := call.Fun.(*ast.Ident); fn == nil || fn.Name != "register" {
		return "", false
	}
	v, ok := call.Args[0].(*ast.Ident)
	if !ok {
		return "", false
	}
	return v.Name, true
}

// TestCheckDecls shows checkDecls finds what TestCheckFiles judges, on a
// made-up package whose check sits in the wrong files.
func TestCheckDecls(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"misc.go":         "package checks\n\nvar fooBar = &Check{ID: \"foo-bar\", Run: runFooBar}\n\nvar viaRun = inRun(&Check{ID: \"via-run\"}, runViaRun)\n",
		"foo_bar.go":      "package checks\n\nfunc runFooBar() {}\n\nfunc runViaRun() {}\n",
		"foo_bar_test.go": "package checks\n\nvar _ = register(fooBar, nil)\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := checkDecls(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := d.byID["foo-bar"], (checkDecl{name: "fooBar", file: "misc.go", run: "runFooBar"}); got != want {
		t.Errorf("foo-bar: %+v, want %+v", got, want)
	}
	if got, want := d.byID["via-run"], (checkDecl{name: "viaRun", file: "misc.go", run: "runViaRun"}); got != want {
		t.Errorf("via-run: %+v, want %+v", got, want)
	}
	if d.funcs["runFooBar"] != "foo_bar.go" || !slices.Equal(d.registered["foo_bar_test.go"], []string{"fooBar"}) {
		t.Errorf("funcs %v, registered %v", d.funcs, d.registered)
	}
}
