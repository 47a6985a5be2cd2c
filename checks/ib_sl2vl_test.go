package checks

import (
	"testing"
)

var _ = register(ibSL2VL, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean", edits: []edit{ibPod()}},
		{name: "SL to VL 15", edits: []edit{ibPod(), replace(ibSL2VLFile, ibRow, "ports: in  0, out  0: | 0|15|")},
			want: []string{"error gpu02 mlx5_0/1"}, msg: "maps to VL 15 on mlx5_0/1: the port drops"},
		{name: "VL above OperVLs", edits: []edit{ibPod(), replace(ibPIFile, "OperVLs:.........................VL0-7", "OperVLs:.........................VL0-1"),
			write("devices/gpu01/smpquery-sl2vl-mlx5_0-1.txt", "# SL2VL table: Lid 2\n#                 SL: | 0| 1| 2| 3| 4| 5| 6| 7| 8| 9|10|11|12|13|14|15|\nports: in  0, out  0: | 0| 3| 2| 3| 4| 5| 6| 7| 0| 1| 2| 3| 4| 5| 6| 7|\n")},
			want: []string{"error gpu01 mlx5_0/1"}, msg: "which runs only VL0-1"},
		{name: "not the policy's VL", edits: []edit{ibPod(), replace("inventory.yaml", "vl: 1", "vl: 2")},
			want: []string{"error gpu01 mlx5_0/1", "error gpu02 mlx5_0/1",
				"error sm01 ib-leaf01 (lid 4) port 1→2", "error sm01 ib-leaf01 (lid 4) port 1→3", "error sm01 ib-leaf01 (lid 4) port 2→1",
				"error sm01 ib-leaf01 (lid 4) port 2→3", "error sm01 ib-leaf01 (lid 4) port 3→1", "error sm01 ib-leaf01 (lid 4) port 3→2",
				"error sm01 mlx5_0/1"}, msg: "not to the policy's VL 2"},
		// Switch ports (examples/ib-pod: ib-leaf01, LID 4, ports 1-3
		// Active; rows from port 0 and from the ports without a link
		// carry no job).
		{name: "switch SL to VL 15", edits: []edit{ibPod(), replace(swSL2VL1, "ports: in  2, out  1: | 0| 1|", "ports: in  2, out  1: | 0|15|")},
			want: []string{"error sm01 ib-leaf01 (lid 4) port 2→1"}, msg: "maps to VL 15 from port 2 to port 1 of ib-leaf01 (lid 4): the switch drops"},
		{name: "switch row from port 0 or a port without link", edits: []edit{ibPod(),
			replace(swSL2VL1, "ports: in  0, out  1: | 0| 1|", "ports: in  0, out  1: | 0|15|"),
			replace(swSL2VL1, "ports: in  9, out  1: | 0| 1|", "ports: in  9, out  1: | 0|15|"),
			replace(swSL2VL1, "ports: in  1, out  1: | 0| 1|", "ports: in  1, out  1: | 0|15|")}},
		{name: "switch VL above OperVLs", edits: []edit{ibPod(), replace(swPI1, "OperVLs:.........................VL0-7", "OperVLs:.........................VL0")},
			want: []string{"error sm01 ib-leaf01 (lid 4) port 2→1", "error sm01 ib-leaf01 (lid 4) port 3→1"}, msg: "whose output port runs only VL0-0"},
		{name: "switch port down", edits: []edit{ibPod(), replace(swPI1, "LinkState:.......................Active", "LinkState:.......................Down"),
			replace(swSL2VL1, "ports: in  2, out  1: | 0| 1|", "ports: in  2, out  1: | 0|15|")}},
		{name: "switch sl2vl not collected", edits: []edit{ibPod(), remove(swSL2VL1)},
			want: []string{"info sm01"}, msg: "smpquery-sl2vl-lid4-1.txt not collected"},
		{name: "SL from the environment", edits: []edit{ibPod(), write("devices/gpu01/nccl-env.txt", "NCCL_IB_SL=15\nHOME=/root\n")},
			want: []string{"error gpu01 mlx5_0/1"}, msg: "NCCL_IB_SL 15 (devices/gpu01/nccl-env.txt:1) maps to VL 7"},
		{name: "UCX's SL to VL 15", edits: []edit{ibPod(), write("devices/gpu02/ucx.conf", "UCX_IB_SL=1\n"), replace(ibSL2VLFile, ibRow, "ports: in  0, out  0: | 0|15|")},
			want: []string{"error gpu02 mlx5_0/1"}, msg: "and UCX (UCX_IB_SL=1, devices/gpu02/ucx.conf:1) maps to VL 15"},
		{name: "UCX alone on an SL the port drops", edits: []edit{ibPod(), write(ibUCXConf, "UCX_IB_SL=15\n")},
			want: []string{"error gpu01 mlx5_0/1"}, msg: "SL 15 of UCX (UCX_IB_SL=15, devices/gpu01/ucx.conf:1) maps to VL 7"},
		{name: "NVSHMEM in a container", edits: []edit{ibPod(), ibMapGPU01(), write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_SL, value: \"1\"}\n                - {name: NVSHMEM_IB_SL, value: \"2\"}\n"))},
			want: []string{"error gpu01 mlx5_0/1"}, msg: "SL 2 of NVSHMEM (NVSHMEM_IB_SL=2, PyTorchJob ml/train Worker container pytorch) maps to VL 2"},
		{name: "not collected", edits: []edit{ibPod(), remove(ibSL2VLFile)},
			want: []string{"info gpu02"}, msg: "smpquery-sl2vl-mlx5_0-1.txt not collected: SL2VL not checked"},
	}
})

// When OpenSM's own table drops the SL, the fix edits qos_ca_sl2vl in
// place on the SM's host; when only the port differs, a reload does.
func TestIBFixTargetsSM(t *testing.T) {
	bad := "qos_ca_sl2vl 0,15,2,3,4,5,6,7,8,9,10,11,12,13,14,7"
	f := fabric(t, ibPod(), replace(ibSMConf, "qos_ca_sl2vl 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7", bad),
		replace(ibSL2VLFile, ibRow, "ports: in  0, out  0: | 0|15|"))
	fs := ibSL2VL.Run(f)
	if len(fs) != 1 || len(fs[0].Changes) != 2 {
		t.Fatalf("%+v", fs)
	}
	c := fs[0].Changes[0]
	if c.Kind != OpenSMConf || c.Device != "sm01" || c.Path[0] != "qos_ca_sl2vl" || c.Value != "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7" || !c.HasOld || c.Old != "0,15,2,3,4,5,6,7,8,9,10,11,12,13,14,7" {
		t.Errorf("%+v", c)
	}
	if fs[0].Changes[1].Kind != OpenSMReload {
		t.Errorf("%+v", fs[0].Changes[1])
	}
	f = fabric(t, ibPod(), replace(ibSL2VLFile, ibRow, "ports: in  0, out  0: | 0|15|"))
	if fs := ibSL2VL.Run(f); len(fs) != 1 || len(fs[0].Changes) != 1 || fs[0].Changes[0].Kind != OpenSMReload {
		t.Errorf("port-only defect: %+v", fs)
	}
}
