package examples

import (
	"io/fs"
	"os"
	"path/filepath"
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
