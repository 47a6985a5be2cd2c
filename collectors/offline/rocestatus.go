package offline

import (
	"io/fs"
	"path"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/names"
	"github.com/qoslint/qoslint/internal/source"
)

// roceStatus reads devices/<switch>/roce-status/<port>.txt, one `nv show
// interface <port> qos roce status` each. The reader does not know which
// ports the switch checks (the model does): it reads every file, and the
// model says which checked port has none. Without the folder nothing per
// port is compared, and the report says so.
func (r *reader) roceStatus(name string) map[string]*nvue.RoceShow {
	dir := r.devicePath(name, layout.RoceStatusDir)
	ok, missing := r.folder(dir)
	if missing {
		r.note(source.Pos{File: layout.DeviceDir(name)}, "%s not collected: no port's `nv show interface <port> qos roce status` is compared with its configuration", layout.RoceStatusDir)
	}
	if !ok {
		return nil
	}
	entries, _ := fs.ReadDir(r.fsys, dir)
	out := map[string]*nvue.RoceShow{}
	parsed := map[string]*nvue.RoceShow{}
	for _, e := range entries {
		file := path.Join(dir, e.Name())
		port, ok := layout.RoceStatusPort(e.Name())
		switch {
		case e.IsDir() || !ok:
			r.fail(source.Pos{File: file}, "not a port's status: %s holds one <port>.txt per port, the output of `nv show interface <port> qos roce status`", layout.RoceStatusDir)
			continue
		case !names.NVUEPort(port):
			// The live audit never sends such a name.
			r.fail(source.Pos{File: file}, "port %q in the file name refused: want %s", clip(port), names.PortRule)
			continue
		}
		show, st := r.roceStatusFile(file, parsed)
		if st != fileOK {
			if st == fileBad {
				out[port] = nil
			}
			continue
		}
		out[port] = r.portView(file, port, show)
	}
	return out
}

// roceStatusFile reads and parses one port's status. The ports of a
// switch print the same view byte for byte, as a rule (clean-pod's
// spine01: 32 identical files), so a text parsed before (in parsed, by
// its bytes) is not parsed again: its parse is shared, read only, under
// this file's name (at TestLintScale's size, parsing the views was a
// fifth of the lint's allocations). A text that fails is parsed each
// time, so that its error names its own file.
func (r *reader) roceStatusFile(file string, parsed map[string]*nvue.RoceShow) (*nvue.RoceShow, fileState) {
	data, st := r.readState(file)
	if st != fileOK {
		return nil, st
	}
	if s, ok := parsed[string(data)]; ok {
		c := *s
		c.File = file
		return &c, fileOK
	}
	s, err := nvue.ParseRoceShow(file, data)
	if err != nil {
		r.failErr(file, err)
		return nil, fileBad
	}
	parsed[string(data)] = s
	return s, fileOK
}

// portView keeps a parsed status file that is the port's own
// per-interface view; another port's view (the prompt names it) or the
// global `nv show qos roce` (a state/enable row, a "RoCE pool config"
// table) is an input error, and the port is unreadable.
func (r *reader) portView(file, port string, show *nvue.RoceShow) *nvue.RoceShow {
	if show.Interface != "" && show.Interface != port {
		r.fail(source.Pos{File: file, Line: 1}, "the output is `nv show interface %s qos roce status`, not %s's", clip(show.Interface), port)
		return nil
	}
	for _, k := range []string{"state", "enable"} {
		if f, ok := show.Leaves[k]; ok && !show.PerInterface {
			r.fail(source.Pos{File: file, Line: f.Line}, "`%s` is a row of `nv show qos roce`, not of `nv show interface %s qos roce status`", k, port)
			return nil
		}
	}
	if show.PoolLine > 0 && !show.PerInterface {
		r.fail(source.Pos{File: file, Line: show.PoolLine}, "the pool table of `nv show qos roce`, not the RoCE Pool Status of `nv show interface %s qos roce status`", port)
		return nil
	}
	return show
}
