package checks

import (
	"slices"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/offline"
	"strings"
	"testing"
	"testing/fstest"
)

// nicTemplate is a NicConfigurationTemplate in the shape of
// Mellanox/nic-configuration-operator
// config/samples/configuration.net_v1alpha1_nicconfigurationtemplate.yaml;
// qos is the roceOptimized.qos body (indented 8), "" for none.
func nicTemplate(selector, qos, extra string) string {
	s := `apiVersion: configuration.net.nvidia.com/v1alpha1
kind: NicConfigurationTemplate
metadata:
  name: roce
  namespace: nic-configuration-operator
spec:
  nodeSelector:
` + selector + `
  nicSelector:
    nicType: 101d
  template:
    numVfs: 0
    linkType: Ethernet
` + extra + `
    roceOptimized:
      enabled: true
`
	if qos != "" {
		s += "      qos:\n" + qos
	}
	return s
}

const (
	anySelector = "    feature.node.kubernetes.io/pci-15b3.present: \"true\""
	gpuSelector = "    pool: gpu"
	goodQoS     = "        trust: dscp\n        pfc: \"0,0,0,1,0,0,0,0\"\n        tos: 106\n"
	rawCNP      = "    rawNvConfig:\n      - {name: CNP_DSCP_P1, value: \"48\"}\n      - {name: CNP_DSCP_P2, value: \"48\"}\n"
	k8sTmplID   = "NicConfigurationTemplate/nic-configuration-operator/roce"
)

// mapNodes maps gpu01 and gpu02 of the clean pod to Kubernetes nodes
// labelled pool=gpu.
func mapNodes() edit {
	return func(t *testing.T, fsys fstest.MapFS) {
		t.Helper()
		for i, h := range []string{"gpu01", "gpu02"} {
			addr := []string{"198.51.100.11", "198.51.100.12"}[i]
			replace("inventory.hcl", `host "`+h+`" { address = "`+addr+`" }`,
				`host "`+h+`" {
  address    = "`+addr+`"
  k8s_node   = "node-`+h+`"
  k8s_labels = { pool = "gpu" }
}`)(t, fsys)
		}
	}
}

var _ = register(k8sNicTemplate, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "tos 106, trust dscp", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, goodQoS, rawCNP))}},
		{name: "default ToS 0", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, "", ""))},
			want: []string{"error " + k8sTmplID}, msg: "RoCE leaves with ToS 0 (roceOptimized.qos.tos unset or 0"},
		{name: "DSCP as ToS on mapped hosts", edits: []edit{mapNodes(), write("k8s/nic.yaml", nicTemplate(gpuSelector, strings.Replace(goodQoS, "106", "26", 1), ""))},
			want: []string{"error gpu01", "error gpu02"}, msg: "is the DSCP, not the ToS"},
		{name: "trust pcp and PFC moved", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, "        trust: pcp\n        pfc: \"0,0,0,0,1,0,0,0\"\n        tos: 106\n", ""))},
			want: []string{"error " + k8sTmplID, "error " + k8sTmplID}, msg: "PFC is on priority 4 instead of 3"},
		{name: "roceMode 1", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, goodQoS, "")+"      roceMode: 1\n")},
			want: []string{"error " + k8sTmplID}, msg: "RoCE v1"},
		{name: "disabled roceOptimized is not judged", edits: []edit{write("k8s/nic.yaml", strings.Replace(nicTemplate(anySelector, "", ""), "enabled: true", "enabled: false", 1))}},
	}
})

var _ = register(k8sCNPConflict, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "rawNvConfig sets CNP DSCP 48", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, goodQoS, rawCNP))}},
		{name: "operator's CNP DSCP 4", edits: []edit{write("k8s/nic.yaml", nicTemplate(anySelector, goodQoS, ""))},
			want: []string{"error " + k8sTmplID}, msg: "CNPs leave with DSCP 4, not the CNP DSCP 48"},
		{name: "on the mapped hosts", edits: []edit{mapNodes(), write("k8s/nic.yaml", nicTemplate(gpuSelector, goodQoS, ""))},
			want: []string{"error gpu01", "error gpu02"}},
	}
})

// workload is a manifest of kind with one container whose env block is
// env (indented 14), in the shape of the kubeflow/training-operator
// PyTorchJob and kubeflow/mpi-operator MPIJob examples.
func pytorchJob(env string) string {
	return `apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata:
  name: train
  namespace: ml
spec:
  pytorchReplicaSpecs:
    Worker:
      replicas: 2
      template:
        spec:
          nodeSelector:
            pool: gpu
          containers:
            - name: pytorch
              image: example/train:1
              resources:
                limits:
                  nvidia.com/gpu: 8
` + env
}

const deploymentNoEnv = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: serve
  namespace: ml
spec:
  template:
    spec:
      containers:
        - name: web
          image: nginx
        - name: infer
          image: example/infer
          resources:
            limits:
              rdma/rdma_shared_device_a: 1
`

const ncclConfigMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: nccl
  namespace: ml
data:
  NCCL_IB_TC: "106"
---
`

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

// The shipped Kubernetes examples: k8s-pod lints clean, k8s-broken gives
// the 11 errors its README lists.
func TestK8sExamples(t *testing.T) {
	want := map[string][]string{
		"k8s-pod": nil,
		"k8s-broken": {
			"gpu01 k8s-cnp-conflict error", "gpu01 k8s-nic-template error", "gpu01 k8s-workload-tos error",
			"gpu02 k8s-cnp-conflict error", "gpu02 k8s-nic-template error", "gpu02 k8s-workload-tos error",
			"gpu03 k8s-cnp-conflict error", "gpu03 k8s-nic-template error",
			"gpu04 k8s-cnp-conflict error", "gpu04 k8s-nic-template error", "gpu04 k8s-workload-tos error",
		},
	}
	for dir, w := range want {
		if got := lintDir(t, "../examples/"+dir); !slices.Equal(got, w) {
			t.Errorf("%s: %q, want %q", dir, got, w)
		}
	}
}

// A manifest that cannot be read is an input error at its line; the
// other manifests are still judged.
func TestK8sInputError(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, e := range []edit{write("k8s/a-bad.yaml", "kind: Pod\nspec:\n  containers: {}\n"), write("k8s/b.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_TC, value: \"26\"}\n"))} {
		e(t, fsys)
	}
	c := &collectors.Capture{}
	offline.ReadK8s(c, fsys, "k8s", "k8s")
	if len(c.Errors) != 1 || c.Errors[0].Pos.String() != "k8s/a-bad.yaml:3" || !strings.Contains(c.Errors[0].Msg, "containers: want a list") {
		t.Errorf("errors %v", c.Errors)
	}
	if len(c.K8s.Workloads) != 1 || c.K8s.Workloads[0].Name != "train" {
		t.Errorf("workloads %+v", c.K8s.Workloads)
	}
}

// The fixes are kubectl JSON patches (RFC 6902) of the object the value
// came from, each with the patch that rolls it back.
func TestK8sPatches(t *testing.T) {
	for _, tc := range []struct {
		name       string
		check      *Check
		edits      []edit
		fix, undo  string
		target, at string
	}{
		{"template without qos", k8sNicTemplate, []edit{write("k8s/nic.yaml", nicTemplate(anySelector, "", rawCNP))},
			`[{"op":"add","path":"/spec/template/roceOptimized/qos","value":{"pfc":"0,0,0,1,0,0,0,0","tos":104,"trust":"dscp"}}]`,
			`[{"op":"remove","path":"/spec/template/roceOptimized/qos"}]`, "nicconfigurationtemplate.configuration.net.nvidia.com", "roce"},
		{"template tos 26", k8sNicTemplate, []edit{write("k8s/nic.yaml", nicTemplate(anySelector, strings.Replace(goodQoS, "106", "26", 1), rawCNP))},
			`[{"op":"add","path":"/spec/template/roceOptimized/qos/tos","value":104}]`,
			`[{"op":"replace","path":"/spec/template/roceOptimized/qos/tos","value":26}]`, "nicconfigurationtemplate.configuration.net.nvidia.com", "roce"},
		{"rawNvConfig with one CNP entry", k8sCNPConflict, []edit{write("k8s/nic.yaml", nicTemplate(anySelector, goodQoS, "    rawNvConfig:\n      - {name: CNP_DSCP_P1, value: \"4\"}\n"))},
			`[{"op":"replace","path":"/spec/template/rawNvConfig/0/value","value":"48"},{"op":"add","path":"/spec/template/rawNvConfig/-","value":{"name":"CNP_DSCP_P2","value":"48"}}]`,
			`[{"op":"remove","path":"/spec/template/rawNvConfig/1"},{"op":"replace","path":"/spec/template/rawNvConfig/0/value","value":"4"}]`, "nicconfigurationtemplate.configuration.net.nvidia.com", "roce"},
		{"env entry", k8sWorkloadToS, []edit{write("k8s/job.yaml", pytorchJob("              env:\n                - {name: NCCL_IB_TC, value: \"26\"}\n"))},
			`[{"op":"replace","path":"/spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/env/0/value","value":"104"}]`,
			`[{"op":"replace","path":"/spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/env/0/value","value":"26"}]`, "pytorchjob.kubeflow.org", "train"},
		{"ConfigMap", k8sWorkloadToS, []edit{write("k8s/job.yaml", strings.Replace(ncclConfigMap, "106", "0", 1)+pytorchJob("              envFrom:\n                - configMapRef: {name: nccl}\n"))},
			`[{"op":"replace","path":"/data/NCCL_IB_TC","value":"104"}]`,
			`[{"op":"replace","path":"/data/NCCL_IB_TC","value":"0"}]`, "configmap", "nccl"},
		{"no env", k8sWorkloadToS, []edit{write("k8s/serve.yaml", deploymentNoEnv)},
			`[{"op":"add","path":"/spec/template/spec/containers/1/env","value":[{"name":"NCCL_IB_TC","value":"104"}]}]`,
			`[{"op":"remove","path":"/spec/template/spec/containers/1/env"}]`, "deployment.apps", "serve"},
	} {
		fs := tc.check.Run(fabric(t, tc.edits...))
		if len(fs) != 1 || len(fs[0].Changes) != 1 {
			t.Fatalf("%s: %+v", tc.name, fs)
		}
		c := fs[0].Changes[0]
		if c.Kind != KubectlPatch || c.Value != tc.fix || c.Old != tc.undo || c.Target != tc.target || c.Path[0] != tc.at {
			t.Errorf("%s:\n fix  %s\n undo %s\n on %s %v", tc.name, c.Value, c.Old, c.Target, c.Path)
		}
	}
}
