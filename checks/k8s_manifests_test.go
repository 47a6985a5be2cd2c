package checks

// The Kubernetes manifests the k8s-* and host NCCL check tests build, and
// the tests of the examples' manifests and their input errors, which span
// the k8s checks.

import (
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/model"
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

// The shipped Kubernetes examples: k8s-pod lints clean, k8s-broken gives
// the 11 errors and 2 warnings its README lists.
func TestK8sExamples(t *testing.T) {
	want := map[string][]string{
		"k8s-pod": nil,
		"k8s-broken": {
			"gpu01 host-nccl-fifo-tc warning", "gpu01 k8s-cnp-conflict error", "gpu01 k8s-nic-template error", "gpu01 k8s-workload-tos error",
			"gpu02 host-nccl-fifo-tc warning", "gpu02 k8s-cnp-conflict error", "gpu02 k8s-nic-template error", "gpu02 k8s-workload-tos error",
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

// testdata reads a fixture of the Kubernetes collector.
func k8sFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("../collectors/k8s/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// crd is the NicConfigurationTemplate CRD of an operator release
// (network-operator-v<release>).
func crd(t testing.TB, release string) edit {
	return write("k8s/crds/nicconfigurationtemplates.yaml", k8sFixture(t, "crd-nicconfigurationtemplates-v"+release+".yaml"))
}

// spxTemplate is a Spectrum-X template in the shape of the operator's
// docs/examples/spectrum-x/example-nicconfigurationtemplate-spectrum-x.yaml,
// for ConnectX-8 (1023) on every node; extra goes under template.
func spxTemplate(version, extra string) string {
	return `apiVersion: configuration.net.nvidia.com/v1alpha1
kind: NicConfigurationTemplate
metadata:
  name: spectrum-x-configuration
  namespace: nvidia-network-operator
spec:
  nodeSelector:
` + anySelector + `
  nicSelector:
    nicType: "1023"
  template:
    numVfs: 1
    linkType: Ethernet
    spectrumXOptimized:
      enabled: true
      version: "` + version + `"
      overlay: "none"
` + extra
}

const spxID = "NicConfigurationTemplate/nvidia-network-operator/spectrum-x-configuration"

// spxProfile is the operator's RA2.2 profile as a profile ConfigMap named
// name, with the profile's text edited by old -> new pairs.
func spxProfile(t testing.TB, name string, edits ...string) string {
	s := strings.Replace(k8sFixture(t, "spectrum-x-profile-ra2.2.yaml"), "  name: RA2.2\n", "  name: "+name+"\n", 1)
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(s, edits[i]) {
			t.Fatalf("profile lacks %q", edits[i])
		}
		s = strings.Replace(s, edits[i], edits[i+1], 1)
	}
	return s
}

func hasNote(f *model.Fabric, want string) bool {
	for _, n := range f.Notes {
		if strings.Contains(n.Error(), want) {
			return true
		}
	}
	return false
}
