package sim

import (
	"os"
	"path/filepath"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/inventory"
)

// switchOS is the operating system a simulated switch runs: the
// inventory's os when it names one, else SONiC for a folder that holds
// config_db.json and no NVUE configuration, the rule the offline reader
// applies (inventory.Switch.OS), else Cumulus Linux.
func switchOS(s inventory.Switch, dir string) string {
	if s.OS != "" {
		return s.OS
	}
	has := func(name string) bool {
		st, err := os.Stat(filepath.Join(dir, name))
		return err == nil && st.Mode().IsRegular()
	}
	if has(layout.ConfigDBFile) && !has(layout.NVUEYAMLFile) && !has(layout.NVUECommandsFile) {
		return inventory.OSSONiC
	}
	return inventory.OSCumulus
}

// runSONiC answers a SONiC switch: the SONiC reads from its folder's
// files, and anything else as bash does for a command it does not have
// (`nv` among them: SONiC has no NVUE, so `-bash: nv: command not found`,
// exit 127).
func (d *device) runSONiC(cmd string, exec, sudo bool) result {
	switch cmd {
	case devcmd.SONiCConfigDB, devcmd.SONiCRunningConfig:
		// Both print the running configuration; the simulator serves the
		// file as it is. A real `show runningconfiguration all` re-indents
		// it (json.dumps indent=4) and adds "bgpraw" (sonic-utilities
		// show/main.py `def all`).
		return d.file(layout.ConfigDBFile, d.sonicError("no "+layout.ConfigDBFile))
	case devcmd.SONiCPlatformSummary:
		return d.file(layout.PlatformSummaryFile, d.sonicError("no "+layout.PlatformSummaryFile))
	case devcmd.SONiCLLDPNeighbors, devcmd.LLDPNeighbors:
		// The host's lldpcli is docker exec into the lldp container
		// (sonic-buildimage dockers/docker-lldp/base_image_files/lldpcli);
		// a folder without lldp.json has no such container, and docker
		// says so in its words (docker/cli issue 3518).
		return d.file(layout.LLDPFile, stderr("Error response from daemon: No such container: lldp\n", exitFail))
	}
	return notFound(cmd, exec, sudo)
}

// sonicError is the simulator's own wording for a SONiC read whose file
// the folder lacks: click-based CLIs print "Error: ..." and exit 1.
func (d *device) sonicError(msg string) result {
	return stderr("Error: "+msg+" in the simulated "+d.name+"\n", exitFail)
}
