package live

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/collectors/capture"
	"github.com/qoslint/qoslint/internal/buildinfo"
	"github.com/qoslint/qoslint/internal/layout"
)

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

// Manifest is the collection's capture manifest: per device its status,
// cause, notes and every file with the command it came from, its size and
// its SHA-256. Causes and notes are the statuses', already redacted;
// commands are allowlisted ones, which hold no secret.
func (r *Result) Manifest() *capture.Manifest {
	m := &capture.Manifest{
		Schema: capture.Schema, Version: buildinfo.Version(),
		Started: capture.Timestamp(r.Started), Finished: capture.Timestamp(r.Finished),
		Interrupted: r.Interrupted,
	}
	byDevice := map[string][]capture.Entry{}
	for name, data := range r.Files {
		dev := strings.SplitN(strings.TrimPrefix(name, layout.DevicesDir+"/"), "/", 2)[0]
		byDevice[dev] = append(byDevice[dev], capture.NewEntry(name, r.Commands[name], data))
	}
	for _, st := range r.Status {
		files := byDevice[st.Name]
		if files == nil {
			files = []capture.Entry{}
		}
		m.Devices = append(m.Devices, capture.Device{
			Name: st.Name, Kind: st.Kind,
			Status: capture.Status(st.Err, len(files)),
			Cause:  strings.TrimPrefix(st.Err, st.Name+": "),
			Notes:  st.Notes,
			Files:  files,
		})
	}
	return m
}

// WriteDir writes the files below dir (folders 0755, files 0644), creating
// dir if needed, and the capture manifest (layout.CaptureFile) that lint checks
// them against. Every name is checked to stay below dir, and os.Root
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
	manifest, err := r.Manifest().Marshal()
	if err != nil {
		return err
	}
	if err := root.MkdirAll(path.Dir(layout.CaptureFile), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", layout.CaptureFile, err)
	}
	if err := root.WriteFile(layout.CaptureFile, manifest, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", layout.CaptureFile, err)
	}
	return nil
}

// localName accepts only clean relative slash paths below devices/.
func localName(name string) bool {
	return fs.ValidPath(name) && strings.HasPrefix(name, layout.DevicesDir+"/") &&
		!strings.Contains(name, "\\") && !strings.ContainsRune(name, 0)
}
