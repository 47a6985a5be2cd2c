//go:build linux || darwin || freebsd || netbsd || openbsd

package offline

import (
	"io/fs"
	"sync"
	"syscall"

	"github.com/qoslint/qoslint/internal/filebuf"
)

var _ limitedReader = dirFS{}

// scratch are the buffers a file is read into before it is copied out at
// its length.
var scratch = sync.Pool{New: func() any { b := make([]byte, 16<<10); return &b }}

// readLimited reads root/name with open, read until EOF and close: what
// os.ReadFile adds is the os.File's non-blocking and poller set-up, which
// a regular file does not use, and an fstat for the size, here only for a
// file larger than the scratch buffer. A folder fails its read with
// EISDIR: errIsFolder.
func (d dirFS) readLimited(name string, limit int64) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	fd, err := ignoringEINTR(func() (int, error) {
		return syscall.Open(d.root+"/"+name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	sp := scratch.Get().(*[]byte)
	defer scratch.Put(sp)
	buf, n := *sp, 0
	// grown is whether buf is a buffer of this file's own, not the pool's.
	grown := false
	for {
		if n == len(buf) {
			// Larger than the scratch buffer: size it as os.ReadFile
			// does, and refuse a file over the limit unread. The size
			// can lie (a file that grew, a /proc-like file of size 0):
			// the reading goes one byte past the limit to know.
			var st syscall.Stat_t
			if err := syscall.Fstat(fd, &st); err != nil {
				return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
			}
			if st.Size > limit {
				return nil, &fs.PathError{Op: "read", Path: name, Err: errTooLarge{st.Size}}
			}
			if n > int(limit) {
				return nil, &fs.PathError{Op: "read", Path: name, Err: errTooLarge{int64(n)}}
			}
			bigger := filebuf.Get(max(2*len(buf), int(st.Size)+512))
			copy(bigger, buf[:n])
			buf, grown = bigger, true
		}
		m, err := ignoringEINTR(func() (int, error) { return syscall.Read(fd, buf[n:min(len(buf), int(limit)+1)]) })
		switch {
		case err == syscall.EISDIR:
			return nil, &fs.PathError{Op: "read", Path: name, Err: errIsFolder}
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if m == 0 {
			break
		}
		n += m
	}
	if int64(n) > limit {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errTooLarge{int64(n)}}
	}
	// The parsers keep strings cut from the text: each file has its own.
	// A file larger than the scratch buffer already has (a SONiC
	// config_db.json, tens to hundreds of kB): copying it out would
	// allocate and copy it once more. It keeps its capacity, so that
	// filebuf.Put, when its parse is done with it, gives all of it back.
	if grown {
		return buf[:n], nil
	}
	return append([]byte(nil), buf[:n]...), nil
}

func ignoringEINTR(fn func() (int, error)) (int, error) {
	for {
		n, err := fn()
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// errNotExist is what opening a missing file fails with.
var errNotExist error = syscall.ENOENT
