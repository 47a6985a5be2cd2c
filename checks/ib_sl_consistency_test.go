package checks

import (
	"strings"
	"testing"
)

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
