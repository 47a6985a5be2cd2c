package archtest_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const judgePath = module + "checks/judge"

// TestRenderVerdictsFromJudge holds render to the kernel's verdicts: no
// render file makes a verdict of its own (a judge.Judgement literal, or
// judge.Fail or judge.Pass), and the marking chain (render/chain.go)
// imports the kernel and the trace's hop-walker, which judges with it, so
// a hop the chain draws broken is one a check reports. Import rules alone
// cannot say this: render may import the kernel and still judge by hand.
func TestRenderVerdictsFromJudge(t *testing.T) {
	root := filepath.Join("..", "..")
	files, err := filepath.Glob(filepath.Join(root, "render", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("render's files: %v (%d)", err, len(files))
	}
	for _, p := range files {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		imports, made, err := verdictsMade(filepath.Base(p), src)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range made {
			t.Errorf("render/%s makes a verdict (%s): call the kernel, checks/judge", filepath.Base(p), m)
		}
		if filepath.Base(p) == "chain.go" {
			for _, want := range []string{judgePath, module + "checks/trace"} {
				if !slices.Contains(imports, want) {
					t.Errorf("render/chain.go does not import %s: the chain's verdicts come from the kernel, by the trace's hop-walker", want)
				}
			}
		}
	}
}

// TestVerdictsMade shows verdictsMade finds each way of making a verdict.
func TestVerdictsMade(t *testing.T) {
	src := `package render

import (
	"fmt"

	j "` + judgePath + `"
)

var ok = j.Pass

func a() j.Judgement { return j.Judgement{OK: true} }
func b() j.Judgement { return j.Fail(j.Error, "x") }
func c() j.Judgement { return j.SwitchECN(p, true) }
func d() string     { return fmt.Sprint(1) }
`
	imports, made, err := verdictsMade("x.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"fmt", judgePath}; !slices.Equal(imports, want) {
		t.Errorf("imports %v, want %v", imports, want)
	}
	if want := []string{"judge.Pass", "judge.Judgement literal", "judge.Fail"}; !slices.Equal(made, want) {
		t.Errorf("made %v, want %v", made, want)
	}
}

// verdictsMade is a Go file's imports and the verdicts it makes itself,
// in source order.
func verdictsMade(name string, src []byte) (imports, made []string, err error) {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err
	}
	local := ""
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		imports = append(imports, path)
		if path == judgePath {
			local = "judge"
			if im.Name != nil {
				local = im.Name.Name
			}
		}
	}
	if local == "" {
		return imports, nil, nil
	}
	isJudge := func(e ast.Expr, name string) bool {
		s, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		x, ok := s.X.(*ast.Ident)
		return ok && x.Name == local && s.Sel.Name == name
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			if isJudge(n.Type, "Judgement") {
				made = append(made, "judge.Judgement literal")
			}
		case *ast.SelectorExpr:
			for _, v := range []string{"Fail", "Pass"} {
				if isJudge(n, v) {
					made = append(made, "judge."+v)
				}
			}
		}
		return true
	})
	return imports, made, nil
}
