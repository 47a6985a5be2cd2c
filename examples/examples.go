// Package examples ships the example fabrics inside the binary, so that
// `qoslint demo` runs a whole live audit without a checkout.
package examples

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed clean-pod broken-pod ib-pod ib-broken
var fabrics embed.FS

// Names lists the shipped fabrics.
func Names() []string { return []string{"broken-pod", "clean-pod", "ib-broken", "ib-pod"} }

// Extract writes the named fabric below dir and returns its path.
func Extract(name, dir string) (string, error) {
	sub, err := fs.Sub(fabrics, name)
	if err != nil {
		return "", err
	}
	root := filepath.Join(dir, name)
	err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(root, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	return root, err
}
