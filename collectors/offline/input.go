package offline

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// inputFS is the fabric directory as every parser sees it: a file is read
// at most up to maxDeviceFileBytes, a leading UTF-8 byte order mark is
// dropped, and bytes that are not UTF-8 in a device's text output are
// noted at their line. It is the one place where this happens, so that
// sysfs and hw_counters (which hostfiles reads through the fs.FS) get the
// same treatment as the files reader.read hands to a parser.
type inputFS struct {
	fs.FS
	r *reader
}

var (
	_ fs.ReadFileFS = inputFS{}
	_ fs.ReadDirFS  = inputFS{}
	_ fs.StatFS     = inputFS{}
)

func (f inputFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(f.FS, name) }

// ReadDir lists a folder once per device: the device's folder, sysfs and
// the like are listed by several readers (folder, discoverNICs, a glob),
// and reading a folder costs a handful of system calls.
func (f inputFS) ReadDir(name string) ([]fs.DirEntry, error) {
	l := f.r.listing(name)
	return slices.Clone(l.entries), l.err
}

// listing is one folder's entries as fs.ReadDir gave them (sorted by
// name), or its error.
type listing struct {
	entries []fs.DirEntry
	err     error
}

// absent reports whether the listing says name is absent from the folder
// for sure: the folder was listed and has no such entry, or is not there
// at all. Any other error (a file in the folder's place, no permission)
// says nothing: the file is then read as it would be without the
// listing, and fails with its own error.
func (l listing) absent(name string) bool {
	if l.err != nil {
		return errors.Is(l.err, fs.ErrNotExist)
	}
	_, found := slices.BinarySearchFunc(l.entries, name, func(e fs.DirEntry, n string) int { return strings.Compare(e.Name(), n) })
	return !found
}

// listing is dir's listing, read on first use and kept while the device
// is read (eachDevice drops it with the device's reader).
func (r *reader) listing(dir string) listing {
	if l, ok := r.dirs[dir]; ok {
		return l
	}
	entries, err := fs.ReadDir(r.fsys.(inputFS).FS, dir)
	l := listing{entries: entries, err: err}
	if r.dirs == nil {
		r.dirs = map[string]listing{}
	}
	r.dirs[dir] = l
	return l
}

// knownAbsent reports whether name is known not to exist from its folder's
// listing, without a system call: readers probe for many optional files
// (16 GID types and 9 DCQCN counters per RDMA port, a dozen optional
// outputs per device), and a failed open costs as much as a read (the
// path walk): at TestLintScale's size the misses were a third of the
// opens. A folder is listed after its first miss, so that a folder whose
// files are all there is never listed.
func (f inputFS) knownAbsent(name string) bool {
	dir := path.Dir(name)
	l, ok := f.r.dirs[dir]
	return ok && l.absent(path.Base(name))
}

// errTooLarge is a file over the limit; it names the limit.
type errTooLarge struct{ size int64 }

func (e errTooLarge) Error() string {
	return fmt.Sprintf("file is %d bytes, over the %d MiB limit on one device file (no device output qoslint reads is that large)", e.size, maxDeviceFileBytes>>20)
}

func (f inputFS) ReadFile(name string) ([]byte, error) {
	if f.knownAbsent(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errNotExist}
	}
	data, err := f.readLimited(name)
	if errors.Is(err, fs.ErrNotExist) && fs.ValidPath(name) {
		// The next probe in the same folder asks the listing.
		f.r.listing(path.Dir(name))
	}
	if err != nil {
		return nil, err
	}
	data = source.StripBOM(data)
	f.r.noteNonUTF8(name, data)
	f.r.noteRead(name)
	return data, nil
}

// noteRead records name in the capture's Read when a report may point at
// it: the first file read below the device's folder, and the device's
// configuration files. A device reads some forty files (a host's sysfs
// tree); listing all of them kept 375,233 names alive at TestLintScale's
// size, 20 MB of the model's peak, for the one file per device a report
// names.
func (r *reader) noteRead(name string) {
	if r.device != "" {
		if rest, ok := strings.CutPrefix(name, layout.DeviceDir(r.device)+"/"); ok {
			switch path.Base(rest) {
			case layout.NVUEYAMLFile, layout.NVUECommandsFile, layout.ConfigDBFile:
				if !strings.Contains(rest, "/") {
					break
				}
				fallthrough
			default:
				if r.readBelow == r.device {
					return
				}
			}
			r.readBelow = r.device
		}
	}
	r.capture.Read = append(r.capture.Read, name)
}

// readLimited reads a whole file of at most maxDeviceFileBytes.
func (f inputFS) readLimited(name string) ([]byte, error) {
	if l, ok := f.FS.(limitedReader); ok {
		return l.readLimited(name, maxDeviceFileBytes)
	}
	// One open and one fstat, as os.ReadFile does, rather than a stat by
	// path before it: at TestLintScale's size the extra lookups were a
	// tenth of the lint.
	file, err := f.FS.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errIsFolder}
	}
	if st.Size() > maxDeviceFileBytes {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errTooLarge{st.Size()}}
	}
	var b bytes.Buffer
	b.Grow(int(st.Size()) + bytes.MinRead)
	// Stat can lie (a file that grew, a /proc-like file of size 0): read
	// one byte past the limit to know.
	if _, err := b.ReadFrom(io.LimitReader(file, maxDeviceFileBytes+1)); err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: unwrapPathError(err)}
	}
	data := b.Bytes()
	if int64(len(data)) > maxDeviceFileBytes {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errTooLarge{int64(len(data))}}
	}
	return data, nil
}

var errIsFolder = fmt.Errorf("is a folder, not a file")

// strictUTF8 are the files whose format requires UTF-8: their parser
// reports a byte that is not UTF-8 as an error at its line. NVUE keeps its
// configuration as YAML (UTF-8, YAML 1.2 §5.2), and prints the command form
// from it; qoslint writes gnmi-counters.json with encoding/json, which
// writes only UTF-8.
var strictUTF8 = map[string]bool{
	layout.NVUEYAMLFile: true, layout.NVUECommandsFile: true, layout.GNMIFile: true, layout.GNMIBeforeFile: true,
}

// utf8ByParser are the files whose parser refuses a byte that is not
// UTF-8 before reading anything else: their note is made when the parse
// fails so (sonicCapture), rather than by a scan of every one of them.
// config_db.json is JSON, which must be UTF-8 (configdb), and tens to
// hundreds of kB: the scan was as long as the parser's own.
var utf8ByParser = map[string]bool{layout.ConfigDBFile: true}

// noteNonUTF8 notes the first line of a text output that is not UTF-8.
// Linux tools print what the kernel, the driver or a user wrote byte for
// byte (iproute2's lib/json_writer.c jsonw_puts "does not do Unicode": an
// interface alias typed in a Latin-1 terminal is printed as Latin-1; an
// nccl.conf comment or an environment value is whatever its author
// saved), so such a byte is not an error. The fields qoslint interprets are
// ASCII, and a stray byte inside one fails that field's parse at its line.
func (r *reader) noteNonUTF8(name string, data []byte) {
	if base := path.Base(name); strictUTF8[base] || utf8ByParser[base] {
		return
	}
	r.noteInvalidUTF8(name, data)
}

// noteInvalidUTF8 is noteNonUTF8's note, for any file.
func (r *reader) noteInvalidUTF8(name string, data []byte) {
	if line, col, b := source.InvalidUTF8(data); line > 0 {
		r.note(source.Pos{File: name, Line: line}, "byte 0x%02X at column %d is not UTF-8 (Latin-1?); read as it is", b, col)
	}
}
