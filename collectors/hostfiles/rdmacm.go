package hostfiles

import (
	"io/fs"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// RoCEToS is RDMA-CM's default_roce_tos of one port.
type RoCEToS struct {
	ToS  int
	File string
}

// ParseRoCEToS reads a default_roce_tos file: the kernel prints the u8
// with sprintf(buf, "%u\n", tos) (drivers/infiniband/core/cma_configfs.c
// default_roce_tos_show), "The possible RoCE TOS values are 0-255"
// (Documentation/ABI/testing/configfs-rdma_cm).
func ParseRoCEToS(file string, data []byte) (int, error) {
	s := strings.TrimSuffix(string(data), "\n")
	v, err := strconv.Atoi(s)
	switch {
	case s == "":
		return 0, source.Errorf(file, 1, "empty default_roce_tos: the kernel prints a number 0-255")
	case err != nil || v < 0 || v > 255 || s[0] == '+' || (len(s) > 1 && s[0] == '0'):
		return 0, source.Errorf(file, 1, "default_roce_tos %q: want the kernel's decimal 0-255", clip(s))
	}
	return v, nil
}

// ReadRoCEToS reads RDMA-CM's default_roce_tos of ibdev's port below
// root; nil when it was not captured (the configfs group exists only
// after mkdir /sys/kernel/config/rdma_cm/<ibdev>).
func ReadRoCEToS(fsys fs.FS, root, ibdev string, port int) (*RoCEToS, []error) {
	if !validIBName(ibdev) || port < 1 {
		return nil, nil
	}
	r := &sysfsReader{fsys: fsys}
	file := layout.RoCEToSPath(root, ibdev, port)
	data, ok := r.read(file)
	if !ok {
		return nil, r.errs
	}
	v, err := ParseRoCEToS(file, data)
	if err != nil {
		return nil, append(r.errs, err)
	}
	return &RoCEToS{ToS: v, File: file}, r.errs
}
