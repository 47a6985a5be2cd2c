package live

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/collectors/memfs"
	"github.com/qoslint/qoslint/collectors/offline"
)

// FS is the collected files as a read-only fabric directory without the
// inventory, for offline.CollectFS.
func (r *Result) FS() fs.FS {
	// offline.CollectFS reads the devices folder even when it is empty.
	return memfs.New(r.Files, offline.DevicesDir)
}

// Incomplete reports whether a device could not be collected. Notes (an
// optional output a device does not have) leave the collection complete:
// lint reports those as "not collected" itself.
func (r *Result) Incomplete() bool {
	for _, s := range r.Status {
		if s.Err != "" {
			return true
		}
	}
	return false
}

// WriteDir writes the files below dir (folders 0755, files 0644), creating
// dir if needed. Every name is checked to stay below dir, and os.Root
// refuses to follow a symbolic link out of it.
func (r *Result) WriteDir(dir string) error {
	names := make([]string, 0, len(r.Files))
	for name := range r.Files {
		if !localName(name) {
			return fmt.Errorf("refusing to write %q: not a path below %s", name, dir)
		}
		names = append(names, name)
	}
	sort.Strings(names)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	for _, name := range names {
		if err := root.MkdirAll(path.Dir(name), 0o755); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
		if err := root.WriteFile(name, r.Files[name], 0o644); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	return nil
}

// localName accepts only clean relative slash paths below devices/.
func localName(name string) bool {
	return fs.ValidPath(name) && strings.HasPrefix(name, offline.DevicesDir+"/") &&
		!strings.Contains(name, "\\") && !strings.ContainsRune(name, 0)
}
