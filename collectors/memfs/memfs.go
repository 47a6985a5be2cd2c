// Package memfs is a read-only in-memory file system over a map of files,
// the shape a live collection produces. testing/fstest.MapFS synthesizes
// each directory by scanning every file, which makes a 1,000-device capture
// (180,000 files) quadratic to walk; memfs indexes the directories once.
package memfs

import (
	"bytes"
	"io"
	"io/fs"
	"path"
	"sort"
	"time"
)

// FS is the file system. Build it with New.
type FS struct {
	files map[string][]byte
	dirs  map[string][]fs.DirEntry
}

var (
	_ fs.ReadFileFS = (*FS)(nil)
	_ fs.ReadDirFS  = (*FS)(nil)
	_ fs.StatFS     = (*FS)(nil)
)

// New indexes files ("a/b/c" → content), plus the (possibly empty)
// directories dirs. Names that are not valid fs paths are left out; the root
// directory always exists.
func New(files map[string][]byte, dirs ...string) *FS {
	m := &FS{files: map[string][]byte{}, dirs: map[string][]fs.DirEntry{".": nil}}
	seen := map[string]bool{".": true}
	for _, d := range dirs {
		if fs.ValidPath(d) && d != "." && !seen[d] {
			seen[d] = true
			m.dirs[d] = nil
			m.dirs["."] = append(m.dirs["."], fileInfo{name: d, dir: true})
		}
	}
	for name, data := range files {
		if !fs.ValidPath(name) || name == "." {
			continue
		}
		m.files[name] = data
		child, entry := name, fs.DirEntry(fileInfo{name: path.Base(name), size: int64(len(data))})
		for {
			dir := path.Dir(child)
			m.dirs[dir] = append(m.dirs[dir], entry)
			if seen[dir] {
				break
			}
			seen[dir] = true
			child, entry = dir, fileInfo{name: path.Base(dir), dir: true}
		}
	}
	for _, es := range m.dirs {
		sort.Slice(es, func(i, j int) bool { return es[i].Name() < es[j].Name() })
	}
	return m
}

func (m *FS) Open(name string) (fs.File, error) {
	if data, ok := m.files[name]; ok {
		return &file{Reader: bytes.NewReader(data), info: fileInfo{name: path.Base(name), size: int64(len(data))}}, nil
	}
	if es, ok := m.dirs[name]; ok {
		return &dir{info: fileInfo{name: path.Base(name), dir: true}, entries: es}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

func (m *FS) ReadFile(name string) ([]byte, error) {
	if data, ok := m.files[name]; ok {
		return append([]byte(nil), data...), nil
	}
	return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
}

func (m *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	if es, ok := m.dirs[name]; ok {
		return append([]fs.DirEntry(nil), es...), nil
	}
	return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
}

func (m *FS) Stat(name string) (fs.FileInfo, error) {
	if data, ok := m.files[name]; ok {
		return fileInfo{name: path.Base(name), size: int64(len(data))}, nil
	}
	if _, ok := m.dirs[name]; ok {
		return fileInfo{name: path.Base(name), dir: true}, nil
	}
	return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
}

// fileInfo is both the fs.FileInfo and the fs.DirEntry of a node.
type fileInfo struct {
	name string
	size int64
	dir  bool
}

func (f fileInfo) Name() string               { return f.name }
func (f fileInfo) Size() int64                { return f.size }
func (f fileInfo) ModTime() time.Time         { return time.Time{} }
func (f fileInfo) IsDir() bool                { return f.dir }
func (f fileInfo) Sys() any                   { return nil }
func (f fileInfo) Type() fs.FileMode          { return f.Mode().Type() }
func (f fileInfo) Info() (fs.FileInfo, error) { return f, nil }
func (f fileInfo) Mode() fs.FileMode {
	if f.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}

type file struct {
	*bytes.Reader
	info fileInfo
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *file) Close() error               { return nil }

type dir struct {
	info    fileInfo
	entries []fs.DirEntry
	off     int
}

func (d *dir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *dir) Close() error               { return nil }
func (d *dir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.name, Err: fs.ErrInvalid}
}

func (d *dir) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.off:]
	if n <= 0 {
		d.off = len(d.entries)
		return append([]fs.DirEntry(nil), rest...), nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.off += n
	return append([]fs.DirEntry(nil), rest[:n]...), nil
}
