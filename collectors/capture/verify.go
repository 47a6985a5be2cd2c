package capture

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strconv"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// Verdict is what a fabric directory's manifest says about it.
type Verdict struct {
	// Present is false for a fabric directory without a manifest (a config
	// repo), which is linted as it is.
	Present bool
	// Errors are input errors: a malformed manifest, an interrupted
	// collection, a device not collected completely, a file changed,
	// missing or added since the collection. Each names its device and
	// file.
	Errors []*source.Error
	// Skip are the devices the manifest marks failed or partial: they are
	// reported once, with the cause, and not checked, as audit does.
	Skip map[string]bool
}

// Verify checks the fabric directory fsys against its manifest for the
// inventory's devices. Without a manifest it reports nothing; with a
// malformed one it reports that alone, and the directory is linted as if
// it had none.
func Verify(fsys fs.FS, devices []string) Verdict {
	v := Verdict{Skip: map[string]bool{}}
	p, err := Read(fsys)
	if err != nil {
		v.Present = true
		var se *source.Error
		if !errors.As(err, &se) {
			se = source.Errorf(layout.CaptureFile, 0, "%v", err)
		}
		v.Errors = append(v.Errors, se)
		return v
	}
	if p == nil {
		return v
	}
	v.Present = true
	if p.Interrupted {
		v.Errors = append(v.Errors, source.Errorf(layout.CaptureFile, p.line("/interrupted"),
			"the collection was interrupted (Ctrl-C, SIGTERM or a deadline): collect again"))
	}
	index := map[string]int{}
	for i, d := range p.Devices {
		index[d.Name] = i
	}
	for _, name := range devices {
		i, ok := index[name]
		if !ok {
			v.add(name, source.Errorf(layout.CaptureFile, 0, "the capture manifest has no entry for this device: its files were not collected with this capture"))
			continue
		}
		d := p.Devices[i]
		ptr := "/devices/" + strconv.Itoa(i)
		switch d.Status {
		case StatusFailed:
			v.Skip[name] = true
			v.add(name, source.Errorf(layout.CaptureFile, p.line(ptr+"/status"), "not collected: %s; the device is not checked", d.Cause))
		case StatusPartial:
			v.Skip[name] = true
			v.add(name, source.Errorf(layout.CaptureFile, p.line(ptr+"/status"), "collected partially: %s; the device is not checked", d.Cause))
		default:
			for _, e := range p.verifyDevice(fsys, i) {
				v.add(name, e)
			}
		}
	}
	return v
}

func (v *Verdict) add(device string, e *source.Error) {
	e.Device = device
	v.Errors = append(v.Errors, e)
}

// verifyDevice compares the files below devices/<name>/ with the
// manifest's list: each listed one present with its size and hash, and
// nothing else there.
func (p *Parsed) verifyDevice(fsys fs.FS, i int) []*source.Error {
	d := p.Devices[i]
	var out []*source.Error
	listed := map[string]bool{}
	for j, f := range d.Files {
		listed[f.Path] = true
		at := fmt.Sprintf("%s:%d", layout.CaptureFile, p.line("/devices/"+strconv.Itoa(i)+"/files/"+strconv.Itoa(j)))
		size, sum, err := hashFile(fsys, f.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			out = append(out, source.Errorf(f.Path, 0, "missing: the capture manifest (%s) lists it, from `%s`", at, f.Command))
		case err != nil:
			out = append(out, source.Errorf(f.Path, 0, "cannot read: %v", err))
		case size != f.Size || sum != f.SHA256:
			out = append(out, source.Errorf(f.Path, 0, "changed since it was collected: %d bytes, sha256 %s; the capture manifest (%s) says %d bytes, sha256 %s",
				size, sum, at, f.Size, f.SHA256))
		}
	}
	for _, extra := range unlisted(fsys, d.Name, listed) {
		out = append(out, source.Errorf(extra, 0, "not in the capture manifest (%s): this collection did not write it (a stale or added file); remove it or collect again", layout.CaptureFile))
	}
	return out
}

// unlisted are the entries below devices/<name>/ that are not listed,
// sorted; a symbolic link or other non-regular file counts, as no
// collection writes one.
func unlisted(fsys fs.FS, name string, listed map[string]bool) []string {
	var out []string
	root := path.Join(layout.DevicesDir, name)
	_ = fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			// The device folder itself missing is the offline reader's
			// error; an unreadable subfolder is named here.
			if p != root {
				out = append(out, p)
			}
			return nil
		case d.IsDir() && layout.InCaptures(p):
			// Packet captures are added by the operator after (or
			// without) a collection: the manifest vouches only for what
			// collect wrote.
			return fs.SkipDir
		case d.IsDir():
			return nil
		case !listed[p]:
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// hashFile is the size and SHA-256 of a file, streamed.
func hashFile(fsys fs.FS, name string) (int64, string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return 0, "", unwrap(err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", unwrap(err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
