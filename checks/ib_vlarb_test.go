package checks

import (
	"testing"
)

var _ = register(ibVLArb, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean", edits: []edit{ibPod()}},
		{name: "zero weight", edits: []edit{ibPod(), replace(ibVLArbFile, "WEIGHT: |0x0 |0x40|", "WEIGHT: |0x0 |0x0 |")},
			want: []string{"error gpu01 mlx5_0/1"}, msg: "weight 0 in both VL arbitration tables"},
		{name: "high table only, limit 0", edits: []edit{ibPod(), replace(ibVLArbFile, "WEIGHT: |0x0 |0x40|", "WEIGHT: |0x0 |0x0 |"),
			replace(ibVLArbFile, "VL    : |0x0 |0x0 |", "VL    : |0x0 |0x1 |"), replace(ibVLArbFile, "WEIGHT: |0x4 |0x0 |", "WEIGHT: |0x4 |0x40|"),
			replace(ibPIFile, "VLHighLimit:.....................6", "VLHighLimit:.....................0")},
			want: []string{"warning gpu01 mlx5_0/1"}, msg: "only by the high-priority table with VLHighLimit 0"},
		{name: "high table only, limit 6", edits: []edit{ibPod(), replace(ibVLArbFile, "WEIGHT: |0x0 |0x40|", "WEIGHT: |0x0 |0x0 |"),
			replace(ibVLArbFile, "VL    : |0x0 |0x0 |", "VL    : |0x0 |0x1 |"), replace(ibVLArbFile, "WEIGHT: |0x4 |0x0 |", "WEIGHT: |0x4 |0x40|")}},
		// An entry past LowCap is not on the port.
		{name: "weight past the cap", edits: []edit{ibPod(), replace(ibVLArbFile, "WEIGHT: |0x0 |0x40|", "WEIGHT: |0x0 |0x0 |"),
			replace(ibVLArbFile, "LowCap 8", "LowCap 1")},
			want: []string{"error gpu01 mlx5_0/1"}},
		{name: "dropped SL is ib-sl2vl's", edits: []edit{ibPod(), replace(ibSL2VLFile, ibRow, "ports: in  0, out  0: | 0|15|")}},
		// Every application's SL: examples/ib-pod's low table gives VL 4
		// (SL 4's) weight 0 and its high table serves only VL 0.
		{name: "UCX on an SL whose VL has weight 0", edits: []edit{ibPod(), write(ibUCXConf, "UCX_IB_SL=4\n")},
			want: []string{"error gpu01 mlx5_0/1"}, msg: "SL 4 of UCX (UCX_IB_SL=4, devices/gpu01/ucx.conf:1) maps to VL 4 on mlx5_0/1, which has weight 0 in both"},
		{name: "UCX beside NCCL on a starved VL", edits: []edit{ibPod(), write(ibUCXConf, "UCX_IB_SL=1\n"), replace(ibVLArbFile, "WEIGHT: |0x0 |0x40|", "WEIGHT: |0x0 |0x0 |")},
			want: []string{"error gpu01 mlx5_0/1"}, msg: "and UCX (UCX_IB_SL=1, devices/gpu01/ucx.conf:1) maps to VL 1"},
		{name: "NVSHMEM in a container on a starved VL", edits: []edit{ibPod(), ibMapGPU01(), write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_SL, value: \"1\"}\n                - {name: NVSHMEM_IB_SL, value: \"4\"}\n"))},
			want: []string{"error gpu01 mlx5_0/1"}, msg: "SL 4 of NVSHMEM (NVSHMEM_IB_SL=4, PyTorchJob ml/train Worker container pytorch) maps to VL 4"},
		{name: "UCX on a served VL", edits: []edit{ibPod(), write(ibUCXConf, "UCX_IB_SL=5\n")}},
		// The switch's output port 2 arbitrates what leaves towards
		// gpu01; its low table gives VL 1 (SL 1's) nothing.
		{name: "switch zero weight", edits: []edit{ibPod(), replace(swVLArb2, "WEIGHT: |0x0 |0x40|", "WEIGHT: |0x0 |0x0 |")},
			want: []string{"error sm01 ib-leaf01 (lid 4) port 2"}, msg: "leaves ib-leaf01 (lid 4) port 2 on VL 1, which has weight 0 in both"},
		{name: "switch vlarb not collected", edits: []edit{ibPod(), remove(swVLArb2)},
			want: []string{"info sm01"}, msg: "smpquery-vlarb-lid4-2.txt not collected"},
	}
})

// An SL only UCX sends on, starved by VL arbitration, is fixed by moving
// UCX to the policy's SL in ucx.conf, as ib-sl-consistency does.
func TestIBVLArbAppFix(t *testing.T) {
	fs := ibVLArb.Run(fabric(t, ibPod(), write(ibUCXConf, "UCX_IB_SL=4\n")))
	if len(fs) != 1 {
		t.Fatalf("%+v, want one finding", fs)
	}
	c := fs[0].Changes
	if len(c) != 1 || c[0].Kind != NCCLConf || c[0].Value != "1" || c[0].Old != "4" {
		t.Errorf("changes %+v, want UCX_IB_SL 4 → 1 in ucx.conf", c)
	}
}
