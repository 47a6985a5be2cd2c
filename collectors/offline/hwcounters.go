package offline

import (
	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/layout"
)

// hwCounters reads the RDMA hw_counters of nic's RDMA port, and their
// earlier sample when the host has a counters interval. Like ethtool -S
// they are optional evidence: absent is "not collected" and is not listed
// as missing.
func (r *reader) hwCounters(host string, hc *collectors.HostCapture, nic *collectors.NICCapture) {
	if nic.IBDev == "" {
		return
	}
	read := func(dir string) *hostfiles.HWCounters {
		root := r.devicePath(host, dir)
		if ok, _ := r.folder(root); !ok {
			return nil
		}
		h, errs := hostfiles.ReadHWCounters(r.fsys, root, nic.IBDev, nic.Port)
		for _, err := range errs {
			r.failErr(root, err)
		}
		return h
	}
	nic.HWCounters = read(layout.SysfsDir)
	if nic.HWCounters != nil && hc.CountersInterval > 0 {
		nic.HWCountersBefore = read(layout.SysfsBeforeDir)
	}
}

// roceTypes reads the RoCE types of nic's GID table and RDMA-CM's default
// RoCE mode of its port, when ibdev2netdev named the port. Both are
// optional: absent is "not collected", which host-roce-version says.
func (r *reader) roceTypes(root string, nic *collectors.NICCapture) {
	if nic.IBDev == "" {
		return
	}
	g, errs := hostfiles.ReadGIDTypes(r.fsys, root, nic.IBDev, nic.Port)
	for _, err := range errs {
		r.failErr(root, err)
	}
	m, errs := hostfiles.ReadRoCEMode(r.fsys, root, nic.IBDev, nic.Port)
	for _, err := range errs {
		r.failErr(root, err)
	}
	t, errs := hostfiles.ReadRoCEToS(r.fsys, root, nic.IBDev, nic.Port)
	for _, err := range errs {
		r.failErr(root, err)
	}
	nic.GIDTypes, nic.RoCEMode, nic.RoCEToS = g, m, t
}
