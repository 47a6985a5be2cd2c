package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// checkOutDir refuses a folder a command would write into: one that holds
// anything, unless force (then it is replaced whole), a file that is not a
// folder, and a folder that holds one of keep (the command's own input:
// replacing it would destroy what it read). It runs before any work, so a
// refusal costs nothing.
func checkOutDir(dir string, force bool, keep ...string) error {
	if err := notInside(dir, keep); err != nil {
		return err
	}
	st, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !st.IsDir():
		return fmt.Errorf("%s exists and is not a folder", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(entries) > 0 && !force {
		return fmt.Errorf("%s is not empty: use --force to replace it (every file in it is removed), or choose a new folder", dir)
	}
	return nil
}

// notInside refuses dir when it is, or holds, one of keep.
func notInside(dir string, keep []string) error {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for _, k := range keep {
		absKeep, err := filepath.Abs(k)
		if err != nil {
			return err
		}
		if rel, err := filepath.Rel(absDir, absKeep); err == nil && (rel == "." || filepath.IsLocal(rel)) {
			return fmt.Errorf("%s holds %s, which this command reads: write somewhere else", dir, k)
		}
	}
	return nil
}

// writeDirAtomic fills a new folder beside dir (same parent, so the same
// file system) and renames it into place: a reader never sees half a
// folder, and nothing of an old one survives beside the new files (an old
// nv-config.yaml or .before.txt could otherwise outrank a fresh capture).
// An existing dir is refused unless empty or force, as checkOutDir says;
// it is renamed away, the new one renamed in, then the old one removed.
func writeDirAtomic(dir string, force bool, fill func(tmp string) error, keep ...string) (err error) {
	if err := checkOutDir(dir, force, keep...); err != nil {
		return err
	}
	dir = filepath.Clean(dir)
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".new-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp makes it 0700
		return err
	}
	if err := fill(tmp); err != nil {
		return err
	}
	return replaceDir(tmp, dir)
}

// replaceDir renames tmp to dir, moving an existing dir out of the way
// first and putting it back if the swap fails.
func replaceDir(tmp, dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(tmp, dir)
	}
	old, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".old-*")
	if err != nil {
		return err
	}
	// Only the unique name is wanted: rename cannot replace a folder
	// everywhere.
	if err := os.Remove(old); err != nil {
		return err
	}
	if err := os.Rename(dir, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		_ = os.Rename(old, dir)
		return err
	}
	return os.RemoveAll(old)
}

// WriteFileAtomic writes data to a temporary file beside path (same
// folder, so the same file system) and renames it over path: a reader, or
// a CI step that picks the report up, never sees half a file, and a failed
// run leaves an earlier file whole.
func WriteFileAtomic(path string, data []byte) (err error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a folder: -o/--output takes a file", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".new-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(f.Name())
		}
	}()
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil { // CreateTemp makes it 0600
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
