package checks

import "testing"

// The GID types are laid out as show_gids prints a RoCE port
// (MLNX-TOOLS sbin/show_gids, from gid_attrs/types/<index>): a v1 and a v2
// entry for the link-local address (0, 1), then for the IPv4 one (2, 3).
var (
	gpu01Types0 = dev("gpu01", "sysfs/class/infiniband/mlx5_0/ports/1/gid_attrs/types/")
	gpu01Types1 = dev("gpu01", "sysfs/class/infiniband/mlx5_1/ports/1/gid_attrs/types/")
	gpu01Mode0  = dev("gpu01", "sysfs/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode")
	gpu01Mode1  = dev("gpu01", "sysfs/kernel/config/rdma_cm/mlx5_1/ports/1/default_roce_mode")
)

const v1, v2 = "IB/RoCE v1\n", "RoCE v2\n"

var _ = register(hostRoCEVersion, func(testing.TB) []checkCase {
	autoGID := replace(gpu01N, "NCCL_IB_GID_INDEX=3\n", "")
	return []checkCase{
		{name: "clean"},
		{name: "automatic choice with RoCE v2 GIDs", edits: []edit{autoGID}},
		{name: "NCCL on a RoCE v1 GID", edits: []edit{replace(gpu01N, "NCCL_IB_GID_INDEX=3", "NCCL_IB_GID_INDEX=2")},
			want: []string{"error gpu01 ens1f0np0", "error gpu01 ens1f1np1"},
			msg:  `NCCL_IB_GID_INDEX=2 selects a RoCE v1 GID (type "IB/RoCE v1") of mlx5_0 port 1`},
		{name: "NCCL on a RoCE v1 GID from the environment", edits: []edit{
			write(dev("gpu01", "nccl-env.txt"), "HOME=/home/ml\nNCCL_IB_GID_INDEX=0\n"),
			write(dev("gpu01", "home-nccl.conf"), "NCCL_IB_TC=106\n")},
			want: []string{"error gpu01 ens1f0np0", "error gpu01 ens1f1np1"},
			msg:  "set in the job environment"},
		{name: "no RoCE v2 GID for the automatic choice", edits: []edit{autoGID,
			write(gpu01Types0+"/1", v1), write(gpu01Types0+"/3", v1)},
			want: []string{"error gpu01 ens1f0np0"}, msg: "mlx5_0 port 1 has no RoCE v2 GID"},
		{name: "NCCL asked for RoCE v1", edits: []edit{autoGID, appendTo(gpu01N, "NCCL_IB_ROCE_VERSION_NUM=1\n")},
			want: []string{"error gpu01 ens1f0np0", "error gpu01 ens1f1np1"}, msg: "NCCL_IB_ROCE_VERSION_NUM=1"},
		{name: "GID index beyond what is read", edits: []edit{replace(gpu01N, "NCCL_IB_GID_INDEX=3", "NCCL_IB_GID_INDEX=40")},
			want: []string{"info gpu01 ens1f0np0", "info gpu01 ens1f1np1"}, msg: "beyond the GID entries qoslint reads"},
		{name: "GID index with no GID", edits: []edit{replace(gpu01N, "NCCL_IB_GID_INDEX=3", "NCCL_IB_GID_INDEX=7")},
			want: []string{"warning gpu01 ens1f0np0", "warning gpu01 ens1f1np1"}, msg: "has no type in the capture"},
		{name: "nccl.conf not collected: NCCL's automatic choice finds RoCE v2", edits: []edit{remove(gpu01N)}},
		{name: "nccl.conf not collected and no RoCE v2 GID", edits: []edit{remove(gpu01N),
			write(gpu01Types0+"/1", v1), write(gpu01Types0+"/3", v1)},
			want: []string{"error gpu01 ens1f0np0"}, msg: "mlx5_0 port 1 has no RoCE v2 GID"},
		{name: "NCCL_IB_GID_INDEX in octal, as strtoll reads it", edits: []edit{replace(gpu01N, "NCCL_IB_GID_INDEX=3", "NCCL_IB_GID_INDEX=02")},
			want: []string{"error gpu01 ens1f0np0", "error gpu01 ens1f1np1"}, msg: "NCCL_IB_GID_INDEX=2 selects a RoCE v1 GID"},
		{name: "RDMA-CM in RoCE v1", edits: []edit{write(gpu01Mode1, v1)},
			want: []string{"error gpu01 ens1f1np1"}, msg: "RDMA-CM's default RoCE mode of mlx5_1 port 1 is IB/RoCE v1"},
		{name: "RDMA-CM mode not collected is no finding", edits: []edit{remove(gpu01Mode0)}},
		{name: "GID types not collected", edits: []edit{
			remove(gpu01Types1 + "/0"), remove(gpu01Types1 + "/1"), remove(gpu01Types1 + "/2"), remove(gpu01Types1 + "/3")},
			want: []string{"info gpu01"}, msg: "gid_attrs/types not collected"},
	}
})
