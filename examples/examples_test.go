package examples

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Every file of every shipped fabric comes out as it is in the checkout.
func TestExtract(t *testing.T) {
	for _, name := range Names() {
		root, err := Extract(name, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		err = filepath.WalkDir(name, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(name, p)
			want, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			got, err := os.ReadFile(filepath.Join(root, rel))
			if err != nil || string(got) != string(want) {
				t.Errorf("%s: %s: extracted file differs (%v)", name, rel, err)
			}
			n++
			return nil
		})
		if err != nil || n == 0 {
			t.Errorf("%s: %d files compared (%v)", name, n, err)
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
			return strings.Fields(rest)
		}
	}
	t.Fatal("no go:embed line in examples.go")
	return nil
}

// The examples that are not embedded link their files and folders that
// are clean-pod's as they are, instead of holding copies; a user lints
// them as they are (lint reads through links). go:embed leaves symbolic
// links out without a word, so an embedded fabric holds none: Extract
// would write it without those files. Every link is relative, points at
// something that exists, and stays inside examples/ (a checkout or a copy
// of examples/ reads the same).
func TestLinks(t *testing.T) {
	if got, want := embedded(t), Names(); !slices.Equal(slices.Sorted(slices.Values(got)), want) {
		t.Errorf("embedded %v, Names %v", got, want)
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	links := 0
	err = filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink == 0 {
			return err
		}
		links++
		fabric, _, _ := strings.Cut(filepath.ToSlash(p), "/")
		if slices.Contains(Names(), fabric) {
			t.Errorf("%s: a symbolic link in an embedded fabric (go:embed leaves it out)", p)
		}
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
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if links == 0 {
		t.Error("no links: the examples hold copies of clean-pod's files again")
	}
}
