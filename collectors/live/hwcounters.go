package live

import (
	"path"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/layout"
)

// hwCounterPaths are the RDMA hw_counters of the NICs' RDMA ports, each
// port once; a NIC ibdev2netdev did not name a port for has none.
func hwCounterPaths(nics []string, byNetdev map[string]hostfiles.IBDev) []string {
	seen := map[string]bool{}
	var out []string
	for _, nd := range nics {
		ib := byNetdev[nd]
		if ib.IBDev == "" || ib.Port < 1 {
			continue
		}
		dir := layout.HWCountersDir(layout.SysRoot, ib.IBDev, ib.Port)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		for _, name := range hostfiles.HWCounterNames {
			out = append(out, path.Join(dir, name))
		}
	}
	return out
}

// collectHWCounters reads the RDMA hw_counters in one allowlisted grep and
// mirrors each file below devices/<host>/sysfs/, as the QoS sysfs files.
// They are counters, so they are read only with --counters. A counter
// the firmware lacks (each group needs a capability) is a note, not a
// failure.
func (r *devRun) collectHWCounters(paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	cmd, err := devcmd.ReadSysfs(paths)
	if err != nil {
		r.note("RDMA hw_counters not read: %v", err)
		return nil
	}
	return r.mirrorSysfs(cmd, paths, "RDMA hw_counters")
}
