package hostfiles

import (
	"io/fs"
	"strings"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// The two RoCE types the RDMA core prints, in gid_attrs/types/<index>
// (drivers/infiniband/core/sysfs.c print_gid_type: sysfs_emit(buf,
// "%s\n", ib_cache_gid_type_str(...))) and in RDMA-CM's configfs
// default_roce_mode (drivers/infiniband/core/cma_configfs.c
// default_roce_mode_show, the same function). drivers/infiniband/core/
// cache.c names IB and RoCE v1 alike "IB/RoCE v1", and RoCE v2 (UDP
// encapsulation) "RoCE v2"; Documentation/ABI/testing/sysfs-class-infiniband
// and configfs-rdma_cm list the same two values.
const (
	RoCEv1 = "IB/RoCE v1"
	RoCEv2 = "RoCE v2"
)

// RoCEType is one file that holds a RoCE type; File "" means it was not
// captured.
type RoCEType struct {
	Type string // RoCEv1 or RoCEv2
	File string
}

// GIDTypes are the captured gid_attrs/types entries of one RDMA device
// port, by GID index. An entry the kernel has no GID for cannot be read
// ("No data available"), so it is absent here, as on the host.
type GIDTypes struct {
	Dir     string
	ByIndex map[int]RoCEType
}

// ParseRoCEType reads a gid_attrs/types entry or a default_roce_mode file:
// one of the two type strings and a newline.
func ParseRoCEType(file string, data []byte) (string, error) {
	s := strings.TrimSuffix(string(data), "\n")
	switch s {
	case RoCEv1, RoCEv2:
		return s, nil
	case "":
		return "", source.Errorf(file, 1, "empty RoCE type: the RDMA core prints %q or %q", RoCEv1, RoCEv2)
	}
	if strings.ContainsRune(s, '\n') {
		return "", source.Errorf(file, 1, "more than one line in a RoCE type file: %q", clip(s))
	}
	return "", source.Errorf(file, 1, "RoCE type %q: want %q or %q", clip(s), RoCEv1, RoCEv2)
}

// ReadGIDTypes reads the captured GID types of ibdev's port below root,
// indices 0..layout.GIDTypesRead-1. It returns nil when none was captured
// (not collected); a malformed entry is reported and left out.
func ReadGIDTypes(fsys fs.FS, root, ibdev string, port int) (*GIDTypes, []error) {
	if !validIBName(ibdev) || port < 1 {
		return nil, nil // ReadSysfs reports the bad name once
	}
	r := &sysfsReader{fsys: fsys}
	g := &GIDTypes{Dir: layout.GIDTypePath(root, ibdev, port, 0), ByIndex: map[int]RoCEType{}}
	g.Dir = g.Dir[:strings.LastIndexByte(g.Dir, '/')]
	for i := range layout.GIDTypesRead {
		file := layout.GIDTypePath(root, ibdev, port, i)
		data, ok := r.read(file)
		if !ok {
			continue
		}
		t, err := ParseRoCEType(file, data)
		if err != nil {
			r.errs = append(r.errs, err)
			continue
		}
		g.ByIndex[i] = RoCEType{Type: t, File: file}
	}
	if len(g.ByIndex) == 0 {
		return nil, r.errs
	}
	return g, r.errs
}

// ReadRoCEMode reads RDMA-CM's default_roce_mode of ibdev's port below
// root; nil when it was not captured (the configfs group exists only
// after someone ran mkdir /sys/kernel/config/rdma_cm/<ibdev>).
func ReadRoCEMode(fsys fs.FS, root, ibdev string, port int) (*RoCEType, []error) {
	if !validIBName(ibdev) || port < 1 {
		return nil, nil
	}
	r := &sysfsReader{fsys: fsys}
	file := layout.RoCEModePath(root, ibdev, port)
	data, ok := r.read(file)
	if !ok {
		return nil, r.errs
	}
	t, err := ParseRoCEType(file, data)
	if err != nil {
		return nil, append(r.errs, err)
	}
	return &RoCEType{Type: t, File: file}, r.errs
}
