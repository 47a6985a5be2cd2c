package checks

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// ucx.conf lines in the NAME=value shape `ucx_info -Cf` writes and
// openucx/ucx config/ucx.conf holds (sections with a "CPU model=" filter);
// job environments in `env` output shape (coreutils src/env.c), with the
// NVSHMEM variables of https://docs.nvidia.com/nvshmem/api/gen/env.html.
var (
	gpu01UCX = dev("gpu01", "ucx.conf")
	gpu01Env = dev("gpu01", "nccl-env.txt")
)

// The fixes: a plain ucx.conf line is rewritten in place (the nccl-set
// sed), default_roce_tos written in configfs; a value from the
// environment gets no command.
func TestAppFixChanges(t *testing.T) {
	f := fabric(t, write(gpu01UCX, "UCX_IB_TRAFFIC_CLASS=26\n"), write(dev("gpu01", "sysfs/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos"), "0\n"))
	var got []string
	for _, fd := range Run(f) {
		for _, c := range fd.Changes {
			if fd.Check == "host-app-tos" || fd.Check == "host-rdma-cm-tos" {
				got = append(got, fmt.Sprintf("%s %d %s %v %s<-%s %v", fd.Check, c.Kind, c.Target, c.Path, c.Value, c.Old, c.HasOld))
			}
		}
	}
	want := []string{
		"host-app-tos 4 /etc/ucx/ucx.conf [UCX_IB_TRAFFIC_CLASS] 104<-26 true",
		"host-rdma-cm-tos 3 /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos [] 104<-0 true",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("changes\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	f = fabric(t, write(gpu01Env, "HOME=/home/ml\nUCX_IB_TRAFFIC_CLASS=26\n"))
	for _, fd := range Run(f) {
		if fd.Check == "host-app-tos" && len(fd.Changes) > 0 {
			t.Errorf("environment value got changes %+v", fd.Changes)
		}
	}
}
