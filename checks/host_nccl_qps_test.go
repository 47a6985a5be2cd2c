package checks

import (
	"strings"
	"testing"
)

// The clean pod's hosts set NCCL_IB_QPS_PER_CONNECTION=4 in nccl.conf; the
// cases take it away or override it in the job environment, whose shape
// (`env` output) is collectors/hostfiles nccl_env.go's.
var _ = register(hostNCCLQPs, func(testing.TB) []checkCase {
	unset := replace(gpu01N, "NCCL_IB_QPS_PER_CONNECTION=4\n", "")
	return []checkCase{
		{name: "clean"},
		{name: "NCCL's default of one QP", edits: []edit{unset},
			want: []string{"warning gpu01"}, msg: "NCCL_IB_QPS_PER_CONNECTION unset (NCCL's default 1)"},
		{name: "one QP set explicitly", edits: []edit{replace(gpu01N, "NCCL_IB_QPS_PER_CONNECTION=4", "NCCL_IB_QPS_PER_CONNECTION=1")},
			want: []string{"warning gpu01"}, msg: "NCCL_IB_QPS_PER_CONNECTION=1 (set in /etc/nccl.conf)"},
		{name: "the job environment wins over nccl.conf", edits: []edit{
			write(dev("gpu01", "nccl-env.txt"), "HOME=/home/ml\nNCCL_IB_QPS_PER_CONNECTION=1\n"),
			write(dev("gpu01", "home-nccl.conf"), "NCCL_IB_TC=106\n")},
			want: []string{"warning gpu01"}, msg: "set NCCL_IB_QPS_PER_CONNECTION=4 there"},
		{name: "the job environment raises it", edits: []edit{unset,
			write(dev("gpu01", "nccl-env.txt"), "HOME=/home/ml\nNCCL_IB_QPS_PER_CONNECTION=2\n"),
			write(dev("gpu01", "home-nccl.conf"), "NCCL_IB_TC=106\n")}},
		{name: "adaptive routing spreads packets itself", edits: []edit{unset, wantAR}},
		{name: "no nccl.conf: no sign of NCCL", edits: []edit{remove(gpu01N)}},
		// Kubernetes workloads (k8s_manifests_test.go's PyTorchJob): judged where
		// the manifest sets the variable, on each host the job lands on.
		{name: "a workload with one QP per connection", edits: []edit{write("k8s/job.yaml", pytorchJob(
			"              env:\n                - {name: NCCL_IB_TC, value: \"106\"}\n                - {name: NCCL_IB_QPS_PER_CONNECTION, value: \"1\"}\n"))},
			want: []string{"warning PyTorchJob/ml/train"}, msg: "PyTorchJob ml/train Worker container pytorch: NCCL_IB_QPS_PER_CONNECTION=1: each NCCL connection is one QP"},
		{name: "a workload with one QP from a ConfigMap, on mapped hosts", edits: []edit{mapNodes(), write("k8s/job.yaml",
			strings.Replace(ncclConfigMap, "NCCL_IB_TC: \"106\"", "NCCL_IB_TC: \"106\"\n  NCCL_IB_QPS_PER_CONNECTION: \"1\"", 1)+
				pytorchJob("              envFrom:\n                - configMapRef: {name: nccl}\n"))},
			want: []string{"warning gpu01", "warning gpu02"}, msg: "set in ConfigMap nccl"},
		{name: "a workload with four QPs", edits: []edit{write("k8s/job.yaml", pytorchJob(
			"              env:\n                - {name: NCCL_IB_TC, value: \"106\"}\n                - {name: NCCL_IB_QPS_PER_CONNECTION, value: \"4\"}\n"))}},
		{name: "a workload without the variable is not judged", edits: []edit{write("k8s/job.yaml", pytorchJob(
			"              env:\n                - {name: NCCL_IB_TC, value: \"106\"}\n"))}},
		{name: "a workload with one QP under adaptive routing", edits: []edit{wantAR, write("k8s/job.yaml", pytorchJob(
			"              env:\n                - {name: NCCL_IB_TC, value: \"106\"}\n                - {name: NCCL_IB_QPS_PER_CONNECTION, value: \"1\"}\n"))}},
	}
})
