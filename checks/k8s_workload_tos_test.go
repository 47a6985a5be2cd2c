package checks

import (
	"strings"
	"testing"
	"testing/fstest"

	fabricbuild "github.com/qoslint/qoslint/collectors/fabric"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
)

var _ = register(k8sWorkloadToS, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "NCCL_IB_TC 106", edits: []edit{write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_TC, value: \"106\"}\n"))}},
		{name: "from a ConfigMap", edits: []edit{write("k8s/job.yaml", ncclConfigMap+pytorchJob("              envFrom:\n                - configMapRef: {name: nccl}\n"))}},
		{name: "UCX auto", edits: []edit{write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_TC, value: \"106\"}\n                - {name: UCX_IB_TRAFFIC_CLASS, value: auto}\n"))}},
		{name: "DSCP as ToS", edits: []edit{write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_TC, value: \"26\"}\n"))},
			want: []string{"error PyTorchJob/ml/train"}, msg: "PyTorchJob ml/train Worker container pytorch: NCCL_IB_TC=26 is the DSCP, not the ToS"},
		{name: "ConfigMap ToS 0 on mapped hosts", edits: []edit{mapNodes(), write("k8s/job.yaml", strings.Replace(ncclConfigMap, "106", "0", 1)+pytorchJob("              envFrom:\n                - configMapRef: {name: nccl}\n"))},
			want: []string{"error gpu01", "error gpu02"}, msg: "set in ConfigMap nccl"},
		{name: "unset in an RDMA container", edits: []edit{write("k8s/serve.yaml", deploymentNoEnv)},
			want: []string{"error Deployment/ml/serve"}, msg: "NCCL_IB_TC unset in the manifest"},
		{name: "UCX's default auto under a DSCP 46 policy", edits: []edit{replace("inventory.hcl", `preset = "cumulus-default"`, `preset = "custom-dscp46"`),
			write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_TC, value: \"184\"}\n                - {name: UCX_NET_DEVICES, value: \"mlx5_0:1\"}\n"))},
			want: []string{"error PyTorchJob/ml/train"}, msg: "UCX_IB_TRAFFIC_CLASS unset, UCX's default auto (106 on RoCE v2) puts DSCP 26 on the wire, not the RoCE DSCP 46"},
		{name: "NVSHMEM not a number", edits: []edit{write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_TC, value: \"106\"}\n                - {name: NVSHMEM_IB_TRAFFIC_CLASS, value: high}\n"))},
			want: []string{"error PyTorchJob/ml/train"}, msg: "is not a number"},
	}
})

// A profile ConfigMap whose profile the operator could not parse is an
// input error at its line; the template that names it gets a note, and
// the rest of the manifests are still judged.
func TestK8sProfileInputError(t *testing.T) {
	fsys := fstest.MapFS{}
	bad := spxProfile(t, "sx", "      roce:\n        - name: Trust", "      roce:\n        trust:\n        - name: Trust")
	for _, e := range []edit{write("k8s/nic.yaml", spxTemplate("sx", "")), write("k8s/profile.yaml", bad),
		write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_TC, value: \"26\"}\n"))} {
		e(t, fsys)
	}
	c := &collectors.Capture{}
	offline.ReadK8s(c, fsys, "k8s", "k8s")
	if len(c.Errors) != 1 || c.Errors[0].Pos.String() != "k8s/profile.yaml:456" || !strings.Contains(c.Errors[0].Msg, "runtimeConfig.roce: want a list") {
		t.Fatalf("errors %v", c.Errors)
	}
	if len(c.K8s.ConfigMaps) != 1 || len(c.K8s.Workloads) != 1 || len(c.K8s.Templates) != 1 {
		t.Fatalf("%+v", c.K8s)
	}
	inv, err := inventory.Parse("inventory.yaml", []byte("fabric: f\nhosts:\n  - {name: gpu01, address: 192.0.2.1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	f := fabricbuild.Build(inv, c)
	if !hasNote(f, "k8s/nic.yaml:16: NicConfigurationTemplate nvidia-network-operator/spectrum-x-configuration: the profile ConfigMap nvidia-network-operator/sx could not be read (k8s/profile.yaml:456: runtimeConfig.roce: want a list") {
		t.Errorf("notes %v", f.Notes)
	}
	if fs := k8sWorkloadToS.Run(f); len(fs) != 1 {
		t.Errorf("workload findings %+v", fs)
	}
}
