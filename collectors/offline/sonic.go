package offline

import (
	"io/fs"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/lldp"
	"github.com/qoslint/qoslint/collectors/sonic/configdb"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
)

// switchOS is the switch OS whose files a switch's folder holds: the
// inventory's os where it names one, else SONiC when the folder has
// config_db.json and no NVUE configuration, else Cumulus Linux.
func (r *reader) switchOS(s inventory.Switch) string {
	if s.OS != "" {
		return s.OS
	}
	has := func(file string) bool {
		_, err := fs.Stat(r.fsys, r.devicePath(s.Name, file))
		return err == nil
	}
	if has(layout.ConfigDBFile) && !has(layout.NVUEYAMLFile) && !has(layout.NVUECommandsFile) {
		return inventory.OSSONiC
	}
	return inventory.OSCumulus
}

// sonicCapture reads a SONiC switch's files: config_db.json, which a
// SONiC switch cannot be judged without, and lldp.json, optional as on
// Cumulus.
func (r *reader) sonicCapture(sc *collectors.SwitchCapture) {
	file := r.devicePath(sc.Name, layout.ConfigDBFile)
	// The file's buffer is read for it alone (readLimited): the Config's
	// strings are cut from it rather than from a copy.
	cfg, st := readParse(r, file, func(file string, data []byte) (*configdb.Config, error) {
		cfg, err := configdb.ParseOwned(file, data)
		if err != nil {
			// A byte that is not UTF-8 fails the parse first; it is noted
			// as in any text output (utf8ByParser), before the error.
			r.noteInvalidUTF8(file, data)
		}
		return cfg, err
	})
	switch st {
	case fileOK:
		sc.ConfigDB = cfg
		for _, n := range cfg.Notes {
			r.noteErr(n)
		}
	case fileAbsent:
		r.fail(source.Pos{File: layout.DeviceDir(sc.Name)}, "no SONiC configuration: the switch needs %s (sonic-cfggen -d --print-data)", layout.ConfigDBFile)
	}
	sc.LLDP = readOK(r, r.devicePath(sc.Name, layout.LLDPFile), lldp.Parse)
}
