package examples

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/internal/golden"
)

// files is every file below dir with its content, read through links.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Every file of every shipped fabric comes out as it is in the checkout,
// read through its links, and nothing else does.
func TestExtract(t *testing.T) {
	for _, name := range Names() {
		root, err := Extract(name, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		got, want := files(t, root), files(t, fixture.Build(t, name, nil))
		for p, s := range want {
			if g, ok := got[p]; !ok || g != s {
				t.Errorf("%s: %s: extracted file differs or is missing", name, p)
			}
		}
		for p := range got {
			if _, ok := want[p]; !ok {
				t.Errorf("%s: %s: extracted, not in the checkout", name, p)
			}
		}
		if len(want) == 0 {
			t.Errorf("%s: no files compared", name)
		}
	}
	if _, err := Extract("nope", t.TempDir()); err == nil {
		t.Error("unknown fabric extracted")
	}
}

// embedded lists the fabrics of the go:embed line in examples.go.
func embedded(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile("examples.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "//go:embed "); ok {
			return slices.DeleteFunc(strings.Fields(rest), func(s string) bool { return s == LinksFile })
		}
	}
	t.Fatal("no go:embed line in examples.go")
	return nil
}

// The examples link their files and folders that are another example's
// as they are (clean-pod's, ib-pod's), instead of holding copies; a user
// lints them as they are (lint reads through links). Every link is
// relative, points at something that exists, and stays inside examples/
// (a checkout or a copy of examples/ reads the same). go:embed leaves
// links out without a word, so the embedded fabrics' links are listed in
// LinksFile, which must be the checkout's (QOSLINT_UPDATE_GOLDEN=1
// rewrites it), and point into an embedded fabric that has none.
func TestLinks(t *testing.T) {
	names := embedded(t)
	if got := slices.Sorted(slices.Values(names)); !slices.Equal(got, Names()) {
		t.Errorf("embedded %v, Names %v", got, Names())
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	var list strings.Builder
	hasLinks := map[string]bool{}
	n := 0
	err = filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink == 0 {
			return err
		}
		n++
		p = filepath.ToSlash(p)
		target, err := os.Readlink(p)
		if err != nil {
			return err
		}
		if filepath.IsAbs(target) {
			t.Errorf("%s -> %s: not relative", p, target)
		}
		abs := filepath.Join(root, filepath.Dir(p), target)
		if rel, err := filepath.Rel(root, abs); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			t.Errorf("%s -> %s: leaves examples/", p, target)
		}
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s -> %s: %v", p, target, err)
		}
		fabric, _, _ := strings.Cut(p, "/")
		hasLinks[fabric] = true
		if slices.Contains(names, fabric) {
			list.WriteString(p + " -> " + target + "\n")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Error("no links: the examples hold copies of each other's files again")
	}
	got := []byte(list.String())
	if golden.Updating() {
		if err := os.WriteFile(LinksFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	} else if want, err := os.ReadFile(LinksFile); err != nil || string(want) != string(got) {
		t.Errorf("%s is not the embedded fabrics' links (QOSLINT_UPDATE_GOLDEN=1 go test ./examples rewrites it); they are:\n%s", LinksFile, got)
	}
	links, err := Links()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range links {
		to, _, _ := strings.Cut(l.Resolved(), "/")
		if !slices.Contains(names, to) || hasLinks[to] {
			t.Errorf("%s -> %s: an embedded link points into %s, which is not an embedded fabric without links", l.Link, l.Target, to)
		}
	}
}

func TestParseLinks(t *testing.T) {
	got, err := parseLinks([]byte("broken-pod/devices/gpu01/sysfs -> ../../../clean-pod/devices/gpu01/sysfs\n"))
	if err != nil || len(got) != 1 || got[0].Resolved() != "clean-pod/devices/gpu01/sysfs" {
		t.Errorf("%+v, %v", got, err)
	}
	for _, bad := range []string{
		"broken-pod/devices/gpu01/sysfs ../../../clean-pod/devices/gpu01/sysfs", // no arrow
		"broken-pod/x -> /etc/passwd",
		"broken-pod/x -> ../../outside",
		"/abs -> clean-pod",
	} {
		if _, err := parseLinks([]byte("broken-pod/a -> ../clean-pod/a\n" + bad + "\n")); err == nil || !strings.Contains(err.Error(), LinksFile+":2: ") {
			t.Errorf("%q: error %v, want one naming line 2", bad, err)
		}
	}
}
