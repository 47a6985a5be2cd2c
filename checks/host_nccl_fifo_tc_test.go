package checks

import (
	"strings"
	"testing"
)

var _ = register(hostNCCLFifoTC, func(testing.TB) []checkCase {
	fifo := func(host, v string) edit { return appendTo(dev(host, "nccl.conf"), "NCCL_IB_FIFO_TC="+v+"\n") }
	return []checkCase{
		{name: "unset: the data's class"},
		{name: "the CNP class, ToS 192", edits: []edit{fifo("gpu01", "192")}},
		// 0xC0 is 192 for NCCL's strtoll (AMD's published run scripts set
		// NCCL_IB_TC=104 with NCCL_IB_FIFO_TC=192).
		{name: "the CNP class in hexadecimal", edits: []edit{fifo("gpu01", "0xC0")}},
		{name: "the RoCE class", edits: []edit{fifo("gpu01", "106")}},
		{name: "-1 is NCCL's default", edits: []edit{fifo("gpu01", "-1")}},
		{name: "the CNP DSCP written as the ToS", edits: []edit{fifo("gpu01", "48")},
			want: []string{"warning gpu01 ens1f0np0,ens1f1np1"}, msg: "NCCL_IB_FIFO_TC=48 (set in /etc/nccl.conf) is the DSCP, not the ToS: NCCL's control messages leave with DSCP 12 (48 >> 2)"},
		{name: "ToS 0", edits: []edit{fifo("gpu02", "0")},
			want: []string{"warning gpu02 ens1f0np0,ens1f1np1"}, msg: "NCCL_IB_FIFO_TC=0 (set in /etc/nccl.conf) puts DSCP 0 on NCCL's control messages, neither a RoCE DSCP (26) nor the CNP DSCP 48 (ToS 192)"},
		{name: "a forced traffic_class replaces it", edits: []edit{fifo("gpu03", "0")}},
		{name: "the job environment wins over nccl.conf", edits: []edit{fifo("gpu01", "192"),
			write(dev("gpu01", "nccl-env.txt"), "HOME=/home/ml\nNCCL_IB_FIFO_TC=184\n"), write(dev("gpu01", "home-nccl.conf"), "NCCL_IB_TC=106\n")},
			want: []string{"warning gpu01 ens1f0np0,ens1f1np1"}, msg: "set NCCL_IB_FIFO_TC=192 there"},
		// Kubernetes workloads (k8s_manifests_test.go's PyTorchJob).
		{name: "a workload in the CNP class", edits: []edit{write("k8s/job.yaml", pytorchJob(
			"              env:\n                - {name: NCCL_IB_TC, value: \"106\"}\n                - {name: NCCL_IB_FIFO_TC, value: \"192\"}\n"))}},
		{name: "a workload writing the DSCP", edits: []edit{write("k8s/job.yaml", pytorchJob(
			"              env:\n                - {name: NCCL_IB_TC, value: \"106\"}\n                - {name: NCCL_IB_FIFO_TC, value: \"26\"}\n"))},
			want: []string{"warning PyTorchJob/ml/train"}, msg: "PyTorchJob ml/train Worker container pytorch: NCCL_IB_FIFO_TC=26 is the DSCP, not the ToS"},
		{name: "a workload's ConfigMap, on mapped hosts", edits: []edit{mapNodes(), write("k8s/job.yaml",
			strings.Replace(ncclConfigMap, "NCCL_IB_TC: \"106\"", "NCCL_IB_TC: \"106\"\n  NCCL_IB_FIFO_TC: \"8\"", 1)+
				pytorchJob("              envFrom:\n                - configMapRef: {name: nccl}\n"))},
			want: []string{"warning gpu01", "warning gpu02"}, msg: "set in ConfigMap nccl"},
	}
})

// The fixes set the CNP class's ToS in /etc/nccl.conf or the container's
// env entry.
func TestNCCLFifoTCFixes(t *testing.T) {
	fs := hostNCCLFifoTC.Run(fabric(t, appendTo(gpu01N, "NCCL_IB_FIFO_TC=48\n")))
	if len(fs) != 1 || len(fs[0].Changes) != 1 {
		t.Fatalf("%+v", fs)
	}
	if c := fs[0].Changes[0]; c.Kind != NCCLConf || c.Path[0] != "NCCL_IB_FIFO_TC" || c.Value != "192" || c.Old != "48" || !c.HasOld || fs[0].Source.String() != "devices/gpu01/nccl.conf:9" {
		t.Errorf("%+v at %v", c, fs[0].Source)
	}
	fs = hostNCCLFifoTC.Run(fabric(t, write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_FIFO_TC, value: \"26\"}\n"))))
	if len(fs) != 1 || len(fs[0].Changes) != 1 || fs[0].Changes[0].Value != `[{"op":"replace","path":"/spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/env/0/value","value":"192"}]` {
		t.Fatalf("%+v", fs)
	}
}
