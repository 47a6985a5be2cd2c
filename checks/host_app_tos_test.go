package checks

import (
	"testing"
)

var _ = register(hostAppToS, func(testing.TB) []checkCase {
	const both = "error gpu01 ens1f0np0,ens1f1np1"
	return []checkCase{
		{name: "UCX auto puts ToS 106 (DSCP 26)", edits: []edit{write(gpu01UCX, "UCX_IB_TRAFFIC_CLASS=auto\n")}},
		{name: "UCX seen in the environment only, unset: auto", edits: []edit{write(gpu01Env, "HOME=/home/ml\nUCX_NET_DEVICES=mlx5_0:1\n")}},
		{name: "UCX_IB_TRAFFIC_CLASS is the DSCP in ucx.conf", edits: []edit{write(gpu01UCX, "# ucx_info -Cf\nUCX_IB_TRAFFIC_CLASS=26\n")},
			want: []string{both}, msg: "UCX_IB_TRAFFIC_CLASS=26 is the DSCP, not the ToS: the wire carries DSCP 6 (26 >> 2); DSCP 26 is ToS 104 (DSCP × 4); set in /etc/ucx/ucx.conf; the job environment"},
		{name: "UCX: the environment beats a good ucx.conf", edits: []edit{write(gpu01UCX, "UCX_IB_TRAFFIC_CLASS=106\n"),
			write(gpu01Env, "HOME=/home/ml\nUCX_IB_TRAFFIC_CLASS=0\n")},
			want: []string{both}, msg: "RoCE leaves with ToS 0 (UCX_IB_TRAFFIC_CLASS=0): DSCP 0, priority 0, the lossy queue on every hop; set the ToS to 104 (DSCP 26 × 4); set in the job environment, which beats every file UCX reads; set UCX_IB_TRAFFIC_CLASS=104 there"},
		{name: "UCX: the environment fixes a bad ucx.conf", edits: []edit{write(gpu01UCX, "UCX_IB_TRAFFIC_CLASS=26\n"),
			write(gpu01Env, "HOME=/home/ml\nUCX_IB_TRAFFIC_CLASS=104\n")}},
		{name: "UCX: a later line overrides", edits: []edit{write(gpu01UCX, "UCX_IB_TRAFFIC_CLASS=104\nUCX_IB_TRAFFIC_CLASS = 96\n")},
			want: []string{both}, msg: "UCX_IB_TRAFFIC_CLASS=96 puts DSCP 24 on the wire"},
		{name: "UCX: a filtered section is not judged", edits: []edit{write(gpu01UCX, "[Grace Hopper]\nCPU model=Grace\nUCX_IB_TRAFFIC_CLASS=26\n")}},
		{name: "UCX: a value UCX refuses is not judged", edits: []edit{write(gpu01UCX, "UCX_IB_TRAFFIC_CLASS=high\n")}},
		{name: "NVSHMEM without a traffic class sends ToS 0", edits: []edit{write(gpu01Env, "HOME=/home/ml\nNVSHMEM_BOOTSTRAP=UID\n")},
			want: []string{both}, msg: "RoCE leaves with ToS 0 (NVSHMEM_IB_TRAFFIC_CLASS unset, NVSHMEM's default 0)"},
		{name: "a forced traffic_class overrides UCX on its NIC", edits: []edit{write(gpu01UCX, "UCX_IB_TRAFFIC_CLASS=26\n"),
			write(dev("gpu01", "sysfs/class/infiniband/mlx5_0/tc/1/traffic_class"), "Global tclass=106\n")},
			want: []string{"error gpu01 ens1f1np1"}, msg: "UCX_IB_TRAFFIC_CLASS=26 is the DSCP"},
		{name: "NVSHMEM with the RoCE ToS", edits: []edit{write(gpu01Env, "HOME=/home/ml\nNVSHMEM_IB_TRAFFIC_CLASS=106\n")}},
		{name: "NVSHMEM with the DSCP", edits: []edit{write(gpu01Env, "HOME=/home/ml\nNVSHMEM_IB_TRAFFIC_CLASS=26\n")},
			want: []string{both}, msg: "NVSHMEM_IB_TRAFFIC_CLASS=26 is the DSCP"},
		{name: "PCP policy: UCX_IB_SL auto is SL 0", edits: []edit{pcpPolicy, write(gpu01UCX, "UCX_IB_TRAFFIC_CLASS=106\n")},
			want: []string{both}, msg: "UCX_IB_SL unset, UCX's auto → 0 tags RoCE with PCP 0"},
		{name: "PCP policy: NVSHMEM_IB_SL unset is SL 0, UCX_IB_SL=3 is right", edits: []edit{pcpPolicy, write(gpu01UCX, "UCX_IB_TRAFFIC_CLASS=106\nUCX_IB_SL=3\n"),
			write(gpu01Env, "HOME=/home/ml\nNCCL_IB_SL=3\nNVSHMEM_IB_TRAFFIC_CLASS=106\n")},
			want: []string{both}, msg: "NVSHMEM_IB_SL unset, NVSHMEM's default 0 tags RoCE with PCP 0"},
	}
})
