// Package examples ships the example fabrics inside the binary, so that
// `qoslint demo` runs a whole live audit without a checkout.
package examples

import (
	"bufio"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// The fabrics link the files and folders they share with another one
// (broken-pod's unchanged devices are clean-pod's). go:embed leaves
// symbolic links out, so LinksFile lists them, link and target as `ls -l`
// shows them, and Extract writes each as a copy of what it points at.
//
//go:embed clean-pod broken-pod ib-pod ib-broken links.txt
var fabrics embed.FS

// LinksFile lists the symbolic links of the embedded fabrics (a test
// keeps it equal to the checkout's).
const LinksFile = "links.txt"

// Names lists the shipped fabrics.
func Names() []string { return []string{"broken-pod", "clean-pod", "ib-broken", "ib-pod"} }

// Extract writes the named fabric below dir and returns its path. The
// fabric comes out as regular files: a link is written as a copy of its
// target.
func Extract(name, dir string) (string, error) {
	sub, err := fs.Sub(fabrics, name)
	if err != nil {
		return "", err
	}
	if _, err := fs.Stat(sub, "."); err != nil {
		return "", err
	}
	root := filepath.Join(dir, name)
	if err := copyFS(sub, root); err != nil {
		return root, err
	}
	links, err := Links()
	if err != nil {
		return root, err
	}
	for _, l := range links {
		rel, ok := strings.CutPrefix(l.Link, name+"/")
		if !ok {
			continue
		}
		dst := filepath.Join(root, filepath.FromSlash(rel))
		st, err := fs.Stat(fabrics, l.Resolved())
		switch {
		case err != nil:
			return root, fmt.Errorf("%s: %s -> %s: %w", LinksFile, l.Link, l.Target, err)
		case st.IsDir():
			target, _ := fs.Sub(fabrics, l.Resolved())
			err = copyFS(target, dst)
		default:
			err = writeFile(fabrics, l.Resolved(), dst)
		}
		if err != nil {
			return root, err
		}
	}
	return root, nil
}

// Link is a symbolic link of an embedded fabric: Link its path below
// examples/, Target what it holds (relative to the link's folder).
type Link struct{ Link, Target string }

// Resolved is the link's target as a path below examples/.
func (l Link) Resolved() string { return path.Join(path.Dir(l.Link), l.Target) }

// Links reads LinksFile: one "LINK -> TARGET" a line.
func Links() ([]Link, error) {
	data, err := fabrics.ReadFile(LinksFile)
	if err != nil {
		return nil, err
	}
	return parseLinks(data)
}

func parseLinks(data []byte) ([]Link, error) {
	var out []Link
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for n := 1; sc.Scan(); n++ {
		link, target, ok := strings.Cut(sc.Text(), " -> ")
		if !ok || !fs.ValidPath(link) || strings.HasPrefix(target, "/") || !fs.ValidPath(path.Join(path.Dir(link), target)) {
			return nil, fmt.Errorf("%s:%d: not LINK -> TARGET inside examples/: %q", LinksFile, n, sc.Text())
		}
		out = append(out, Link{link, target})
	}
	return out, sc.Err()
}

func copyFS(sub fs.FS, root string) error {
	return fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(root, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		return writeFile(sub, p, dst)
	})
}

func writeFile(fsys fs.FS, p, dst string) error {
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}
