package offline

import (
	"io/fs"
	"os"
)

// dirFS is os.DirFS(root) that also reads a whole file at a lower cost
// (readfile_unix.go): a fabric directory is mostly small files, hundreds
// of thousands at issue 23's size, and each os.File costs its open,
// fstat, read and close four more system calls (fcntl twice, and the
// poller's epoll_ctl that a regular file refuses).
type dirFS struct {
	fs.FS
	root string
}

func newDirFS(root string) dirFS { return dirFS{FS: os.DirFS(root), root: root} }

// Stat and ReadDir are os.DirFS's own: with only the embedded fs.FS,
// fs.Stat and fs.ReadDir would open the file and stat or list it through
// an os.File, twice the system calls (a folder check of every device and
// of its sysfs copy).
func (d dirFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(d.FS, name) }
func (d dirFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(d.FS, name) }

var (
	_ fs.StatFS    = dirFS{}
	_ fs.ReadDirFS = dirFS{}
)

// limitedReader is a file system that reads a whole file of at most limit
// bytes itself: errTooLarge when it has more, errIsFolder when it is a
// folder.
type limitedReader interface {
	readLimited(name string, limit int64) ([]byte, error)
}
