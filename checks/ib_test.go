package checks

import (
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
)

// ibPod replaces the fabric with examples/ib-pod (real-format ibstat,
// smpquery and opensm.conf files; sources in its README), so the IB
// cases start from a clean InfiniBand fabric.
func ibPod() edit {
	return func(t *testing.T, fsys fstest.MapFS) {
		t.Helper()
		for k := range fsys {
			delete(fsys, k)
		}
		root := os.DirFS("../examples/ib-pod")
		err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(root, p)
			fsys[p] = &fstest.MapFile{Data: data}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

const (
	ibSL2VLFile = "devices/gpu02/smpquery-sl2vl-mlx5_0-1.txt"
	ibVLArbFile = "devices/gpu01/smpquery-vlarb-mlx5_0-1.txt"
	ibPIFile    = "devices/gpu01/smpquery-portinfo-mlx5_0-1.txt"
	ibSMConf    = "devices/sm01/opensm.conf"
	ibRow       = "ports: in  0, out  0: | 0| 1|"
	swSL2VL1    = "devices/sm01/smpquery-sl2vl-lid4-1.txt"
	swPI1       = "devices/sm01/smpquery-portinfo-lid4-1.txt"
	swVLArb2    = "devices/sm01/smpquery-vlarb-lid4-2.txt"
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

var _ = register(ibSMConsistency, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean", edits: []edit{ibPod()}},
		{name: "port differs", edits: []edit{ibPod(), replace(ibSL2VLFile, ibRow, "ports: in  0, out  0: | 0|15|")},
			want: []string{"error gpu02 mlx5_0/1"}, msg: "SL2VL (devices/sm01/opensm.conf:25) differ"},
		{name: "defaults apply", edits: []edit{ibPod(), replace(ibSMConf, "qos_ca_vlarb_low 0:0,1:64,2:128,3:192,4:0,5:64,6:64,7:64\n", "")},
			want: []string{"error gpu01 mlx5_0/1", "error gpu02 mlx5_0/1", "error sm01 mlx5_0/1"}, msg: "low VL arbitration (OpenSM default"},
		// qos_high_limit 6 reaches the CAs (their own line gone) and the
		// switch's port 0 (no qos_sw0_ line), which holds 0.
		{name: "qos_ fall-back", edits: []edit{ibPod(), replace(ibSMConf, "qos_ca_high_limit 6\n", ""), replace(ibSMConf, "qos_high_limit -1", "qos_high_limit 6")},
			want: []string{"error sm01 ib-leaf01 (lid 4) port 0"}, msg: "qos_sw0_ class: VLHighLimit (devices/sm01/opensm.conf:"},
		{name: "switch external port", edits: []edit{ibPod(), replace(swSL2VL1, "ports: in 17, out  1: | 0| 1|", "ports: in 17, out  1: | 0| 3|")},
			want: []string{"error sm01 ib-leaf01 (lid 4) port 1"}, msg: "qos_swe_ class: SL2VL (devices/sm01/opensm.conf:"},
		{name: "switch qos_swe_ own line", edits: []edit{ibPod(), replace(ibSMConf, "qos_swe_vlarb_low 0:0,1:64,", "qos_swe_vlarb_low 0:0,1:32,")},
			want: []string{"error sm01 ib-leaf01 (lid 4) port 1", "error sm01 ib-leaf01 (lid 4) port 2", "error sm01 ib-leaf01 (lid 4) port 3"}, msg: "low VL arbitration (devices/sm01/opensm.conf:"},
		{name: "switch SL2VL by torus-2QoS", edits: []edit{ibPod(), replace(ibSMConf, "qos TRUE", "qos TRUE\nrouting_engine torus-2QoS"),
			replace(swSL2VL1, "ports: in 17, out  1: | 0| 1|", "ports: in 17, out  1: | 0| 3|")}},
		{name: "qos FALSE programs nothing", edits: []edit{ibPod(), replace(ibSMConf, "qos TRUE", "qos FALSE"), replace(ibSL2VLFile, ibRow, "ports: in  0, out  0: | 0|15|")}},
		{name: "high limit", edits: []edit{ibPod(), replace(ibPIFile, "VLHighLimit:.....................6", "VLHighLimit:.....................0")},
			want: []string{"error gpu01 mlx5_0/1"}, msg: "VLHighLimit"},
	}
})

var _ = register(ibSLConsistency, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean", edits: []edit{ibPod()}},
		{name: "other SL", edits: []edit{ibPod(), replace("devices/gpu01/nccl.conf", "NCCL_IB_SL=1", "NCCL_IB_SL=3")},
			want: []string{"error gpu01"}, msg: "jobs send on SL 3"},
		// OpenSM's QoS policy file, in the shapes of linux-rdma/opensm
		// doc/QoS_management_in_OpenSM.txt §5 (qos-levels) and §6
		// (simplified qos-ulps).
		{name: "policy file default on the policy's SL", edits: []edit{ibPod(), write(ibQoSPolicy, "qos-ulps\n    default : 1\n    ipoib   : 0\nend-qos-ulps\n")}},
		{name: "policy file default off the policy's SL", edits: []edit{ibPod(), write(ibQoSPolicy, "qos-ulps\n    default : 0 # default SL\n    any, pkey 0x0001 : 1\nend-qos-ulps\n")},
			want: []string{"warning sm01"}, msg: "the QoS policy file (/etc/opensm/qos-policy.conf) gives SL 0 to path records no rule matches (devices/sm01/qos-policy.conf:2), the policy's SL is 1"},
		{name: "policy file DEFAULT level beats the ULP default", edits: []edit{ibPod(), write(ibQoSPolicy, "qos-ulps\n default : 1\nend-qos-ulps\nqos-levels\n qos-level\n  name: DEFAULT\n  sl: 2\n end-qos-level\nend-qos-levels\n")},
			want: []string{"warning sm01"}, msg: "gives SL 2 to path records no rule matches (devices/sm01/qos-policy.conf:7)"},
		{name: "policy file without a default", edits: []edit{ibPod(), write(ibQoSPolicy, "qos-ulps\n ipoib : 1\nend-qos-ulps\n")},
			want: []string{"warning sm01"}, msg: "OpenSM refuses it (ERR AC10"},
		{name: "policy file at the path opensm.conf names", edits: []edit{ibPod(), replace(ibSMConf, "qos_policy_file /etc/opensm/qos-policy.conf", "qos_policy_file /opt/ufm/files/conf/opensm/qos-policy.conf"), write(ibQoSPolicy, "qos-ulps\n default : 0\nend-qos-ulps\n")},
			want: []string{"warning sm01"}, msg: "the QoS policy file (/opt/ufm/files/conf/opensm/qos-policy.conf) gives SL 0"},
		{name: "policy file unread with qos FALSE", edits: []edit{ibPod(), replace(ibSMConf, "qos TRUE", "qos FALSE"), write(ibQoSPolicy, "qos-ulps\n default : 0\nend-qos-ulps\n")}},
		{name: "NCCL default", edits: []edit{ibPod(), replace("devices/gpu01/nccl.conf", "NCCL_IB_SL=1", "")},
			want: []string{"error gpu01"}, msg: "SL 0 (NCCL default"},
		{name: "not collected", edits: []edit{ibPod(), remove("devices/gpu01/nccl.conf")},
			want: []string{"info gpu01"}, msg: "nccl.conf not collected: NCCL_IB_SL not checked"},
		// ucx.conf in the NAME=value shape of openucx/ucx docs/source/faq.md
		// ("UCX configuration file").
		{name: "UCX in ucx.conf", edits: []edit{ibPod(), write(ibUCXConf, "UCX_IB_SL=3\n")},
			want: []string{"error gpu01"}, msg: "UCX sends on SL 3 (UCX_IB_SL=3, set in /etc/ucx/ucx.conf)"},
		{name: "UCX on the policy's SL", edits: []edit{ibPod(), write(ibUCXConf, "UCX_IB_SL=1\n")}},
		{name: "UCX auto is SL 0 on InfiniBand", edits: []edit{ibPod(), write(ibUCXConf, "UCX_TLS=rc,sm\n")},
			want: []string{"error gpu01"}, msg: "UCX sends on SL 0 (UCX_IB_SL unset, UCX's auto → 0"},
		{name: "UCX auto with adaptive routing is not known", edits: []edit{ibPod(), write(ibUCXConf, "UCX_IB_AR_ENABLE=yes\n")}},
		{name: "UCX kept off the HCA", edits: []edit{ibPod(), write(ibUCXConf, "UCX_NET_DEVICES=mlx5_4:1\nUCX_IB_SL=3\n")}},
		{name: "UCX on the HCA", edits: []edit{ibPod(), write(ibUCXConf, "UCX_NET_DEVICES=mlx5_0:1\nUCX_IB_SL=3\n")},
			want: []string{"error gpu01"}, msg: "UCX sends on SL 3"},
		{name: "UCX in the job environment beats ucx.conf", edits: []edit{ibPod(), write(ibUCXConf, "UCX_IB_SL=1\n"), write(ibEnv, "HOME=/root\nUCX_IB_SL=5\n")},
			want: []string{"error gpu01"}, msg: "UCX sends on SL 5 (UCX_IB_SL=5, set in the job environment"},
		{name: "NVSHMEM in the job environment", edits: []edit{ibPod(), write(ibEnv, "HOME=/root\nNVSHMEM_IB_SL=2\n")},
			want: []string{"error gpu01"}, msg: "NVSHMEM sends on SL 2 (NVSHMEM_IB_SL=2, set in the job environment"},
		{name: "NVSHMEM unset is its default 0", edits: []edit{ibPod(), write(ibEnv, "HOME=/root\nNVSHMEM_BOOTSTRAP=MPI\n")},
			want: []string{"error gpu01"}, msg: "NVSHMEM sends on SL 0 (NVSHMEM_IB_SL unset, NVSHMEM's default 0"},
		{name: "NCCL in a Kubernetes container", edits: []edit{ibPod(), ibMapGPU01(), write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_SL, value: \"4\"}\n"))},
			want: []string{"error gpu01"}, msg: "NCCL sends on SL 4 (NCCL_IB_SL=4, in PyTorchJob ml/train Worker container pytorch)"},
		{name: "NCCL unset in a container", edits: []edit{ibPod(), ibMapGPU01(), write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_DEBUG, value: INFO}\n"))},
			want: []string{"error gpu01"}, msg: "NCCL sends on SL 0 (NCCL_IB_SL unset in the manifest, NCCL's default 0"},
		{name: "UCX and NVSHMEM in a container", edits: []edit{ibPod(), ibMapGPU01(), write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_SL, value: \"1\"}\n                - {name: UCX_IB_SL, value: \"auto\"}\n                - {name: NVSHMEM_IB_SL, value: \"1\"}\n"))},
			want: []string{"error gpu01"}, msg: "UCX sends on SL 0 (UCX_IB_SL=auto → 0, in PyTorchJob"},
	}
})

const (
	ibUCXConf   = "devices/gpu01/ucx.conf"
	ibQoSPolicy = "devices/sm01/qos-policy.conf"
	ibEnv       = "devices/gpu01/nccl-env.txt"
)

// ibMapGPU01 places gpu01 on the Kubernetes node labelled pool=gpu.
func ibMapGPU01() edit {
	return replace("inventory.yaml", "{name: gpu01, address: 198.51.100.101}", "{name: gpu01, address: 198.51.100.101, k8s_node: node-gpu01, k8s_labels: {pool: gpu}}")
}

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

// The shipped InfiniBand examples: ib-pod lints clean, ib-broken gives
// the 8 errors its README lists.
func TestIBExamples(t *testing.T) {
	want := map[string][]string{
		"ib-pod": nil,
		"ib-broken": {
			"gpu01 ib-sl-consistency error", "gpu01 ib-sl2vl error", // UCX_IB_SL=3
			"gpu01 ib-sm-consistency error", "gpu01 ib-vlarb error",
			"gpu02 ib-sl2vl error", "gpu02 ib-sm-consistency error",
			"sm01 ib-sl-consistency error", "sm01 ib-sl2vl error", "sm01 ib-sl2vl error", "sm01 ib-sm-consistency error",
		},
	}
	for dir, w := range want {
		if got := lintDir(t, "../examples/"+dir); !slices.Equal(got, w) {
			t.Errorf("%s: %q, want %q", dir, got, w)
		}
	}
}

// A switch whose drop comes from qos_swe_sl2vl itself gets that line
// fixed in place; a switch port that only differs from it, a reload. The
// swe fix leaves qos_ca_sl2vl alone.
func TestIBSwitchFixTargetsSWE(t *testing.T) {
	good := "qos_swe_sl2vl 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7"
	f := fabric(t, ibPod(), replace(ibSMConf, good, "qos_swe_sl2vl 0,15,2,3,4,5,6,7,8,9,10,11,12,13,14,7"),
		replace(swSL2VL1, "ports: in  2, out  1: | 0| 1|", "ports: in  2, out  1: | 0|15|"))
	fs := ibSL2VL.Run(f)
	if len(fs) != 1 || len(fs[0].Changes) != 2 {
		t.Fatalf("%+v", fs)
	}
	c := fs[0].Changes[0]
	if c.Kind != OpenSMConf || c.Device != "sm01" || c.Path[0] != "qos_swe_sl2vl" || "qos_swe_sl2vl "+c.Value != good || !c.HasOld {
		t.Errorf("%+v", c)
	}
	f = fabric(t, ibPod(), replace(swSL2VL1, "ports: in  2, out  1: | 0| 1|", "ports: in  2, out  1: | 0|15|"))
	if fs := ibSL2VL.Run(f); len(fs) != 1 || len(fs[0].Changes) != 1 || fs[0].Changes[0].Kind != OpenSMReload {
		t.Errorf("port-only defect: %+v", fs)
	}
	// qos_swe_vlarb_low's weight-0 entry for VL 1 gets 64 credits, in
	// place.
	f = fabric(t, ibPod(), replace(ibSMConf, "qos_swe_vlarb_low 0:0,1:64,2:128,3:192,4:0,5:64,6:64,7:64\n", "qos_swe_vlarb_low 0:0,1:0,2:128\n"),
		replace(swVLArb2, "WEIGHT: |0x0 |0x40|", "WEIGHT: |0x0 |0x0 |"))
	var got []Change
	for _, fd := range ibVLArb.Run(f) {
		if fd.Interface == "ib-leaf01 (lid 4) port 2" {
			got = fd.Changes
		}
	}
	if len(got) != 2 || got[0].Path[0] != "qos_swe_vlarb_low" || got[0].Value != "0:0,1:64,2:128" || !got[0].HasOld {
		t.Errorf("%+v", got)
	}
}

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

// Each application's SL is fixed where it was decided: a NAME=value line
// of /etc/ucx/ucx.conf, the container's env entry; the job environment
// gets no command, the message says where.
func TestIBAppSLFixes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edits []edit
		kind  ChangeKind
		none  bool // no command
		value string
		msg   string
	}{
		{"ucx.conf", []edit{write(ibUCXConf, "UCX_IB_SL=3\n")}, NCCLConf, false, "1", "set in /etc/ucx/ucx.conf"},
		{"container env", []edit{ibMapGPU01(), write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_SL, value: \"4\"}\n"))},
			KubectlPatch, false, `[{"op":"replace","path":"/spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/env/0/value","value":"1"}]`, "in PyTorchJob ml/train"},
		{"job environment", []edit{write(ibEnv, "HOME=/root\nNVSHMEM_IB_SL=2\n")}, 0, true, "", "set NVSHMEM_IB_SL=1 there (qoslint prints no command for it)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := ibSLConsistency.Run(fabric(t, append([]edit{ibPod()}, tc.edits...)...))
			if len(fs) != 1 || !strings.Contains(fs[0].Message, tc.msg) {
				t.Fatalf("%+v, want one finding saying %q", fs, tc.msg)
			}
			if tc.none {
				if len(fs[0].Changes) != 0 {
					t.Errorf("changes %+v, want none", fs[0].Changes)
				}
				return
			}
			if len(fs[0].Changes) != 1 || fs[0].Changes[0].Kind != tc.kind || fs[0].Changes[0].Value != tc.value {
				t.Errorf("changes %+v, want kind %d %s", fs[0].Changes, tc.kind, tc.value)
			}
		})
	}
}

// The sections of the QoS policy file that are not read are a note
// naming them; a DEFAULT qos-level without sl is a note too, and no
// finding (the documentation is silent on its SL).
func TestIBQoSPolicyNotes(t *testing.T) {
	full := "port-groups\n port-group\n  name: CAs\n  node-type: CA\n end-port-group\nend-port-groups\n" +
		"qos-levels\n qos-level\n  name: DEFAULT\n end-qos-level\nend-qos-levels\n" +
		"qos-match-rules\nend-qos-match-rules\n"
	f := fabric(t, ibPod(), write(ibQoSPolicy, full))
	var notes []string
	for _, n := range f.Notes {
		notes = append(notes, n.Error())
	}
	got := strings.Join(notes, "\n")
	for _, want := range []string{
		"devices/sm01/qos-policy.conf: sections not read (their rules are not checked): port-groups at line 1, qos-match-rules at line 12",
		"devices/sm01/qos-policy.conf:8: the DEFAULT qos-level sets no sl",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("notes lack %q:\n%s", want, got)
		}
	}
	if fs := ibSLConsistency.Run(f); len(fs) != 0 {
		t.Errorf("findings %+v, want none", fs)
	}
}

// A policy file OpenSM could not parse is an input error at its line.
func TestIBQoSPolicyInputError(t *testing.T) {
	fsys := loadBase(t)
	ibPod()(t, fsys)
	write(ibQoSPolicy, "qos-ulps\n default : 16\nend-qos-ulps\n")(t, fsys)
	inv, err := inventory.Parse("inventory.yaml", fsys["inventory.yaml"].Data)
	if err != nil {
		t.Fatal(err)
	}
	c := offline.CollectFS(fsys, inv)
	if len(c.Errors) != 1 || !strings.Contains(c.Errors[0].Error(), "devices/sm01/qos-policy.conf:2: SL \"16\": want 0-15") {
		t.Errorf("errors = %v", c.Errors)
	}
}
