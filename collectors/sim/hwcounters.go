package sim

import (
	"hash/fnv"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/layout"
)

// A healthy RoCE port per Advance: the switches mark some packets, the
// notification point answers marks with CNPs (at most one per QP per
// interval, so fewer CNPs than marks), the reaction point handles every
// CNP it receives, and no packet is lost.
const (
	hwMarksStep = 20_000
	hwCNPStep   = 1_000
)

// syntheticHWCounter is the content of an RDMA hw_counters file that a
// host's folder does not have: "%llu\n" as the RDMA core prints it
// (drivers/infiniband/core/sysfs.c print_hw_stat), for the counters
// qoslint reads (rel below /sys: class/infiniband/<ibdev>/ports/<port>/
// hw_counters/<name>). ok is false for any other path. The values are a
// deterministic function of the device, the port and the Advance count.
func syntheticHWCounter(dev, rel string, epoch int64) (string, bool) {
	ibdev, port, name, ok := layout.HWCounter(rel)
	if !ok || !slices.Contains(hostfiles.HWCounterNames, name) {
		return "", false
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(dev + "\x00" + ibdev + "\x00" + port))
	seed := h.Sum64()
	step := uint64(max(epoch, 0))
	marks := 1_000_000 + seed%1_000_000 + step*hwMarksStep
	cnps := marks/20 + step*hwCNPStep
	var v uint64
	switch name {
	case hostfiles.HWECNMarkedRoCE:
		v = marks
	case hostfiles.HWCNPSent, hostfiles.HWCNPHandled:
		v = cnps
	}
	return strconv.FormatUint(v, 10) + "\n", true
}

// syntheticSysfs answers a sysfs file the folder lacks (read error err):
// a synthetic hw_counters value when the folder has no hw_counters of
// that port at all, else the error as it was. A captured hw_counters
// directory is replayed as it is: a counter missing from it (firmware
// without the capability) stays missing.
func (d *device) syntheticSysfs(rel string, data []byte, err error) ([]byte, error) {
	if _, serr := os.Stat(filepath.Join(d.dir, layout.SysfsDir, filepath.FromSlash(path.Dir(rel)))); serr == nil {
		return data, err
	}
	var epoch int64
	if d.f != nil {
		epoch = d.f.samples.Load()
	}
	if v, ok := syntheticHWCounter(d.name, rel, epoch); ok {
		return []byte(v), nil
	}
	return data, err
}
