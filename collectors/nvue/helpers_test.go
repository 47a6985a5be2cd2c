package nvue

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

// flatten lists every node of a tree as "path = value" (leaf) or "path : {}"
// (object), sorted, ignoring Line and member order: what two parses of the
// same configuration must agree on.
func flatten(n *Node) []string {
	var out []string
	var walk func(prefix string, n *Node)
	walk = func(prefix string, n *Node) {
		for _, c := range n.Children {
			p := prefix + " > " + c.Key
			if c.IsLeaf {
				out = append(out, p+" = "+c.Value)
				continue
			}
			out = append(out, p+" : {}")
			walk(p, c)
		}
	}
	walk("", n)
	slices.Sort(out)
	return out
}

// treeDiff describes how two trees differ, "" when they are equal.
func treeDiff(a, b *Node) string {
	fa, fb := flatten(a), flatten(b)
	var d []string
	for _, s := range fa {
		if _, ok := slices.BinarySearch(fb, s); !ok {
			d = append(d, "- "+s)
		}
	}
	for _, s := range fb {
		if _, ok := slices.BinarySearch(fa, s); !ok {
			d = append(d, "+ "+s)
		}
	}
	return strings.Join(d, "\n")
}

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wantSourceError checks that err is a *source.Error for file at line (any
// line ≥ 1 when line is 0) whose message contains msg.
func wantSourceError(t *testing.T, err error, file string, line int, msg string) {
	t.Helper()
	var se *source.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T) is not a *source.Error", err, err)
	}
	if se.File != file {
		t.Errorf("error file = %q, want %q", se.File, file)
	}
	if line > 0 && se.Line != line || se.Line < 1 {
		t.Errorf("error line = %d, want %d (%v)", se.Line, line, err)
	}
	if !strings.Contains(se.Msg, msg) {
		t.Errorf("error %q does not contain %q", se.Msg, msg)
	}
}

// leaf fetches a leaf by path or fails.
func leaf(t *testing.T, root *Node, path ...string) *Node {
	t.Helper()
	n := root.Get(path...)
	if n == nil {
		t.Fatalf("%v: missing", path)
	}
	if !n.IsLeaf {
		t.Fatalf("%v: not a leaf: %+v", path, n)
	}
	return n
}

// object fetches an object by path or fails.
func object(t *testing.T, root *Node, path ...string) *Node {
	t.Helper()
	n := root.Get(path...)
	if n == nil {
		t.Fatalf("%v: missing", path)
	}
	if n.IsLeaf {
		t.Fatalf("%v: is a leaf %q, want an object", path, n.Value)
	}
	return n
}

// parseCommands is ParseCommands for tests of a file that must read
// whole: the configuration, or the first per-line error.
func parseCommands(file string, data []byte) (*Config, error) {
	cfg, errs, _ := ParseCommands(file, data)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return cfg, nil
}
