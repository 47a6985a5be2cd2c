package checks

import (
	"testing"
)

var _ = register(hostRDMACMToS, func(testing.TB) []checkCase {
	tos0 := dev("gpu01", "sysfs/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos")
	return []checkCase{
		{name: "RDMA-CM with the RoCE ToS", edits: []edit{write(tos0, "106\n")}},
		{name: "RDMA-CM with ToS 0", edits: []edit{write(tos0, "0\n")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "RoCE leaves with ToS 0 (RDMA-CM's default_roce_tos 0 on mlx5_0 port 1)"},
		{name: "a forced traffic_class overrides RDMA-CM", edits: []edit{write(tos0, "0\n"),
			write(dev("gpu01", "sysfs/class/infiniband/mlx5_0/tc/1/traffic_class"), "Global tclass=106\n")}},
		{name: "RDMA-CM with the DSCP", edits: []edit{write(tos0, "26\n")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "is the DSCP, not the ToS"},
	}
})
