package app

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// pathPrefix is render.Report.PathPrefix for a fabric directory: explicit
// (--path-prefix) when given, else the directory's path below the git work
// tree that holds it (repoPrefix), else "" (paths stay fabric-relative).
// An explicit prefix must stay inside the repository: an absolute or
// "../" prefix would make URIs that code scanning cannot resolve against
// the repository root.
func pathPrefix(explicit, dir string, detect bool) (string, error) {
	if explicit != "" {
		p := path.Clean(filepath.ToSlash(explicit))
		if path.IsAbs(p) || filepath.IsAbs(explicit) || p == ".." || strings.HasPrefix(p, "../") {
			return "", fmt.Errorf("--path-prefix %q: must be a relative path inside the repository (the fabric directory's path from the repository root)", explicit)
		}
		if p == "." {
			p = ""
		}
		return p, nil
	}
	if !detect {
		return "", nil
	}
	return repoPrefix(dir), nil
}

// repoPrefix is dir's slash-separated path below the nearest enclosing git
// work tree: the first folder, walking up from dir's absolute path, that
// holds a .git folder, or a .git file that starts with "gitdir:" (a linked
// worktree or a submodule; git-scm.com/docs/gitrepository-layout: "you can
// have a plain text file .git at the root of your working tree, containing
// gitdir: <path> to point at the real directory that has the
// repository"). git itself is not
// run: the lint of a fabric must not depend on a git binary or on the
// repository's configuration. "" when dir is the work tree's top or no work
// tree holds it.
func repoPrefix(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for d := abs; ; {
		if isGitDir(filepath.Join(d, ".git")) {
			rel, err := filepath.Rel(d, abs)
			if err != nil || rel == "." {
				return ""
			}
			return filepath.ToSlash(rel)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// isGitDir reports whether p is a repository's .git: a folder, or a file
// pointing at one.
func isGitDir(p string) bool {
	st, err := os.Stat(p)
	if err != nil {
		return false
	}
	if st.IsDir() {
		return true
	}
	if !st.Mode().IsRegular() || st.Size() > 4096 {
		return false
	}
	data, err := os.ReadFile(p)
	return err == nil && bytes.HasPrefix(data, []byte("gitdir:"))
}

// primaryFile is render.Device.Primary: for a switch its NVUE
// configuration (nv-config.yaml, else nv-config-commands.txt) when it was
// read, else the first file of the device's folder that was read, else
// decl, the inventory entry that declares the device (its file is cited
// by its name in the fabric directory, where the inventory is). read are
// the files the offline reader read (collectors.Capture.Read), which
// therefore exist.
func primaryFile(kind, device string, read []string, decl source.Pos) source.Pos {
	prefix := layout.DeviceDir(device) + "/"
	seen := map[string]bool{}
	first := ""
	for _, f := range read {
		if strings.HasPrefix(f, prefix) {
			seen[f] = true
			if first == "" {
				first = f
			}
		}
	}
	if kind == layout.KindSwitch {
		for _, name := range []string{layout.NVUEYAMLFile, layout.NVUECommandsFile, layout.ConfigDBFile} {
			if f := layout.DeviceFile(device, name); seen[f] {
				return source.Pos{File: f}
			}
		}
	}
	if first != "" {
		return source.Pos{File: first}
	}
	if decl.File == "" {
		return source.Pos{}
	}
	return source.Pos{File: filepath.ToSlash(filepath.Base(decl.File)), Line: decl.Line}
}

// deviceReads is a capture's Read grouped by device folder, order kept, so
// that finding each device's primary file does not scan every file read:
// that scan made the report quadratic in the devices (on 10,496 devices,
// 373,920 files read, minutes; issue 23).
type deviceReads struct {
	all []string
	by  map[string][]string
}

func groupReads(read []string) deviceReads {
	d := deviceReads{all: read, by: map[string][]string{}}
	top := layout.DevicesDir + "/"
	for _, f := range read {
		rest, ok := strings.CutPrefix(f, top)
		if i := strings.IndexByte(rest, '/'); ok && i > 0 {
			dir := f[:len(top)+i]
			d.by[dir] = append(d.by[dir], f)
		}
	}
	return d
}

// of is what primaryFile needs of the files read for device: a superset
// of those below its folder, in read order. A name whose folder is not
// one level below devices/ gets every file read, which primaryFile
// filters as it always did.
func (d deviceReads) of(device string) []string {
	dir := layout.DeviceDir(device)
	if strings.Count(dir, "/") != strings.Count(layout.DevicesDir, "/")+1 {
		return d.all
	}
	return d.by[dir]
}
