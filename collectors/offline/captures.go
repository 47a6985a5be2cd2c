package offline

import (
	"io/fs"
	"path"
	"sort"

	"github.com/qoslint/qoslint/collectors/pcap"
	"github.com/qoslint/qoslint/collectors/pcap/wiremodel"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// captures reads devices/<device>/captures/*.pcap and *.pcapng, streamed:
// a capture is never held in memory, so the 64 MiB limit on other device
// files does not apply. A file that cannot be read is an input error at
// its packet; what was read before it is still judged.
func (r *reader) captures(device string) {
	dir := r.devicePath(device, layout.CapturesDir)
	entries, err := fs.ReadDir(r.fsys, dir)
	if err != nil {
		return // no captures: the wire-* checks are silent
	}
	var files []string
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && layout.IsCaptureName(n) {
			files = append(files, path.Join(dir, n))
		}
	}
	sort.Strings(files)
	for _, file := range files {
		s, err := r.readCapture(file)
		if err != nil {
			r.failErr(file, err)
		}
		if s == nil {
			continue
		}
		s.Device = device
		for _, n := range pcap.Notes(s) {
			r.noteErr(n)
		}
		// The model's capture, now: the summary's flows (dense
		// histograms, about 3 kB each) go with this device, not after
		// the last one was read.
		r.capture.Wire = append(r.capture.Wire, wiremodel.Capture(s))
	}
}

func (r *reader) readCapture(file string) (*pcap.Summary, error) {
	f, err := r.fsys.Open(file)
	if err != nil {
		return nil, source.Errorf(file, 0, "%v", unwrapPathError(err))
	}
	defer f.Close()
	return pcap.Read(f, file)
}
