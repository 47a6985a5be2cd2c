package offline

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/qoslint/qoslint/collectors"
)

// TestListingAnswersMisses: after a miss in a folder, a file the listing
// names is still read, one it does not name fails as a missing file does
// (the same error), and a folder whose place a file takes says nothing.
func TestListingAnswersMisses(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{"d/a": "1\n", "d/b": "2\n", "f": "file\n"} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("nowhere", filepath.Join(root, "d", "dangling")); err != nil {
		t.Fatal(err)
	}
	r := &reader{capture: &collectors.Capture{}, failed: map[string]bool{}}
	f := inputFS{FS: newDirFS(root), r: r}
	r.fsys = f
	_, first := f.ReadFile("d/missing")
	if !errors.Is(first, fs.ErrNotExist) {
		t.Fatalf("d/missing: %v", first)
	}
	if _, ok := r.dirs["d"]; !ok {
		t.Fatal("a miss did not list its folder")
	}
	_, again := f.ReadFile("d/missing")
	if again == nil || again.Error() != first.Error() || !errors.Is(again, fs.ErrNotExist) {
		t.Errorf("from the listing: %v, want %v", again, first)
	}
	if data, err := f.ReadFile("d/b"); err != nil || string(data) != "2\n" {
		t.Errorf("d/b: %q %v", data, err)
	}
	if _, err := f.ReadFile("d/dangling"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("dangling link: %v", err)
	}
	// No folder: every file below it is missing.
	f.ReadFile("none/x")
	if _, err := f.ReadFile("none/y"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("none/y: %v", err)
	}
	// A file where a folder should be: each read fails on its own.
	_, err := f.ReadFile("f/x")
	f.ReadFile("f/y")
	if _, err2 := f.ReadFile("f/x"); err2 == nil || err == nil || err2.Error() != err.Error() || !errors.Is(err2, syscall.ENOTDIR) {
		t.Errorf("f/x: %v then %v, want ENOTDIR both times", err, err2)
	}
}
