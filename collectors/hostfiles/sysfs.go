package hostfiles

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"syscall"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// ReadSysfs reads the mlx5 QoS sysfs files of one netdev from a capture that
// mirrors /sys below root (root/class/net/..., root/class/infiniband/...).
// A file that was not captured stays nil and is not an error; a file that is
// there but unreadable or out of range is reported and its field stays nil,
// and the other files are still read. ibdev "" skips traffic_class.
//
// Paths and formats (knneth/mlnx-ofa_kernel): MLNX_OFED en_sysfs.c/en_ecn.c
// create ecn/<roce_np|roce_rp>/enable/<0..7>, ecn/roce_np/cnp_dscp and
// ecn/roce_np/cnp_802p_prio, each shown as sprintf(buf, "%d\n", v);
// main_ext.c creates tc/<port>/traffic_class.
func ReadSysfs(fsys fs.FS, root, netdev, ibdev string, port int) (*Sysfs, []error) {
	r := &sysfsReader{fsys: fsys}
	s := &Sysfs{}
	if netdev != "" {
		if !validIfName(netdev) {
			return s, []error{source.Errorf(layout.NetDir(root), 0, "invalid netdev name %q", clip(netdev))}
		}
		for p := range 8 {
			s.ECNNP[p] = r.int(layout.ECNEnablePath(root, netdev, layout.PointNP, p), 0, 1)
			s.ECNRP[p] = r.int(layout.ECNEnablePath(root, netdev, layout.PointRP, p), 0, 1)
		}
		s.CNPDSCP = r.int(layout.CNPPath(root, netdev, layout.CNPDSCP), 0, 63)
		s.CNP802pPrio = r.int(layout.CNPPath(root, netdev, layout.CNP802pPrio), 0, 7)
	}
	if ibdev != "" {
		if !validIBName(ibdev) || port < 1 {
			r.errs = append(r.errs, source.Errorf(layout.InfinibandDir(root), 0, "invalid ibdev %q port %d", clip(ibdev), port))
			return s, r.errs
		}
		file := layout.TrafficClassPath(root, ibdev, strconv.Itoa(port))
		if data, ok := r.read(file); ok {
			tc, err := ParseTrafficClass(file, data)
			if err != nil {
				r.errs = append(r.errs, err)
			} else {
				s.TrafficClass = tc
			}
		}
	}
	return s, r.errs
}

type sysfsReader struct {
	fsys fs.FS
	errs []error
}

// read returns the file's content; ok is false when it is missing or
// unreadable (the latter is recorded).
func (r *sysfsReader) read(file string) ([]byte, bool) {
	// fs.FS names have no leading '/'; the error keeps the path as given.
	name := strings.TrimPrefix(file, "/")
	if name == "" {
		name = "."
	}
	data, err := fs.ReadFile(r.fsys, name)
	if err != nil {
		// ENOTDIR: a path element is a file, so this file was not captured.
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return nil, false
		}
		r.errs = append(r.errs, source.Errorf(file, 0, "read: %v", err))
		return nil, false
	}
	return data, true
}

// int reads a "%d\n" attribute that must be within [lo, hi].
func (r *sysfsReader) int(file string, lo, hi int) *SysfsInt {
	data, ok := r.read(file)
	if !ok {
		return nil
	}
	s := strings.TrimSpace(string(data))
	if s == "" {
		// en_ecn.c returns 0 bytes when the firmware query fails.
		r.errs = append(r.errs, source.Errorf(file, 1, "empty file (driver query failed?)"))
		return nil
	}
	v, ok := atoiRange(s, lo, hi)
	if !ok {
		r.errs = append(r.errs, source.Errorf(file, 1, "value %q: want an integer %d..%d", clip(s), lo, hi))
		return nil
	}
	return &SysfsInt{Value: v, File: file}
}
