package checks

import (
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
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

// The fixes are kubectl JSON patches (RFC 6902) of the object the value
// came from, each with the patch that rolls it back. A template's fields
// that not every operator release has are patched only where a CRD in
// k8s/ shows them (TestK8sPatchGate).
func TestK8sPatches(t *testing.T) {
	for _, tc := range []struct {
		name       string
		check      *Check
		edits      []edit
		fix, undo  string
		target, at string
	}{
		{"template without qos", k8sNicTemplate, []edit{crd(t, "26.4.1"), write("k8s/nic.yaml", nicTemplate(anySelector, "", rawCNP))},
			`[{"op":"add","path":"/spec/template/roceOptimized/qos","value":{"pfc":"0,0,0,1,0,0,0,0","tos":104,"trust":"dscp"}}]`,
			`[{"op":"remove","path":"/spec/template/roceOptimized/qos"}]`, "nicconfigurationtemplate.configuration.net.nvidia.com", "roce"},
		{"template tos 26", k8sNicTemplate, []edit{crd(t, "26.4.1"), write("k8s/nic.yaml", nicTemplate(anySelector, strings.Replace(goodQoS, "106", "26", 1), rawCNP))},
			`[{"op":"add","path":"/spec/template/roceOptimized/qos/tos","value":104}]`,
			`[{"op":"replace","path":"/spec/template/roceOptimized/qos/tos","value":26}]`, "nicconfigurationtemplate.configuration.net.nvidia.com", "roce"},
		{"rawNvConfig with one CNP entry", k8sCNPConflict, []edit{crd(t, "26.4.1"), write("k8s/nic.yaml", nicTemplate(anySelector, goodQoS, "    rawNvConfig:\n      - {name: CNP_DSCP_P1, value: \"4\"}\n"))},
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

const (
	raPFC = "          value: \"00010000\"\n          dmsPath: /interfaces/interface/nvidia/qos/config/pfc\n          valueType: string\n"
	// raToS is the "Type of Service" entry RA1.3 and RA2.0 carried in
	// Network Operator 25.10 (bindata/spectrum-x/RA2.0.yaml at
	// network-operator-v25.10.0), indented as a profile ConfigMap has it.
	raToS = raPFC + "        - name: Type of Service\n          value: 96\n          dmsPath: /interfaces/interface/nvidia/roce/config/tos\n          valueType: int\n"
)

var _ = register(k8sNicTemplate, func(t testing.TB) []checkCase {
	return []checkCase{
		{name: "Spectrum-X RA2.2 profile ConfigMap", edits: []edit{write("k8s/nic.yaml", spxTemplate("spectrum-x-ra2.2-profile", "")), write("k8s/profile.yaml", spxProfile(t, "spectrum-x-ra2.2-profile"))}},
		{name: "Spectrum-X built in, CRD of 26.4.1", edits: []edit{crd(t, "26.4.1"), write("k8s/nic.yaml", spxTemplate("RA2.2", ""))}},
		{name: "Spectrum-X without its profile is a note", edits: []edit{crd(t, "26.7.0-rc.2"), write("k8s/nic.yaml", spxTemplate("spectrum-x-ra2.3-profile", ""))}},
		{name: "Spectrum-X with roceOptimized", edits: []edit{write("k8s/nic.yaml", spxTemplate("spectrum-x-ra2.2-profile", "    roceOptimized:\n      enabled: true\n")), write("k8s/profile.yaml", spxProfile(t, "spectrum-x-ra2.2-profile"))},
			want: []string{"error " + spxID}, msg: `both spectrumXOptimized and roceOptimized are enabled: "When Spectrum-X optimizations are enabled, roceOptimized must not be enabled`},
		{name: "Spectrum-X profile with PFC on priority 4", edits: []edit{mapNodes(), write("k8s/nic.yaml", strings.Replace(spxTemplate("sx", ""), anySelector, gpuSelector, 1)),
			write("k8s/profile.yaml", spxProfile(t, "sx", `value: "00010000"`, `value: "00001000"`))},
			want: []string{"error gpu01", "error gpu02"}, msg: "PFC is on priority 4 instead of 3"},
		{name: "Spectrum-X profile with Type of Service 96", edits: []edit{write("k8s/nic.yaml", spxTemplate("sx", "")), write("k8s/profile.yaml", spxProfile(t, "sx", raPFC, raToS))},
			want: []string{"error " + spxID}, msg: "the ToS 96 of the Spectrum-X profile ConfigMap nvidia-network-operator/sx puts DSCP 24 on the wire, not the RoCE DSCP 26"},
		{name: "Spectrum-X built-in RA2.0 of 25.10 sets ToS 96", edits: []edit{crd(t, "25.10.0"), write("k8s/nic.yaml", spxTemplate("RA2.0", ""))},
			want: []string{"error " + spxID}, msg: "the ToS 96 of the operator's built-in RA2.0 profile (bindata/spectrum-x/RA2.0.yaml, Network Operator 25.10)"},
		{name: "the Spectrum-X preset takes the 25.10 RA2.0's ToS 96", edits: []edit{replace("inventory.hcl", `preset = "cumulus-default"`, `preset = "spectrum-x-ra2.0"`), crd(t, "25.10.0"), write("k8s/nic.yaml", spxTemplate("RA2.0", ""))}},
		{name: "a CRD without tos: the operator sets no ToS", edits: []edit{crd(t, "25.7.0"), write("k8s/nic.yaml", nicTemplate(anySelector, "", ""))}},
		{name: "a CRD without spectrumXOptimized: not judged", edits: []edit{crd(t, "25.7.0"), write("k8s/nic.yaml", spxTemplate("RA2.0", ""))}},
	}
})

var _ = register(k8sCNPConflict, func(t testing.TB) []checkCase {
	cnp40 := replace("inventory.hcl", `preset = "cumulus-default"`, "preset = \"cumulus-default\"\n\n  cnp {\n    dscp = 40\n  }")
	return []checkCase{
		{name: "Spectrum-X writes cnp_dscp 48", edits: []edit{write("k8s/nic.yaml", spxTemplate("sx", "")), write("k8s/profile.yaml", spxProfile(t, "sx"))}},
		{name: "Spectrum-X's cnp_dscp 48 under a CNP DSCP 40 policy", edits: []edit{cnp40, write("k8s/nic.yaml", spxTemplate("sx", "")), write("k8s/profile.yaml", spxProfile(t, "sx"))},
			want: []string{"error " + spxID}, msg: "spectrumXOptimized sets the NICs' CNP marking: CNPs leave with DSCP 48, not the CNP DSCP 40"},
		{name: "Spectrum-X 25.10 writes no CNP DSCP", edits: []edit{cnp40, crd(t, "25.10.0"), write("k8s/nic.yaml", spxTemplate("RA1.3", ""))}},
		{name: "a CRD without rawNvConfig: the CNP cannot be overridden", edits: []edit{crd(t, "25.7.0"), write("k8s/nic.yaml", nicTemplate(anySelector, "        trust: dscp\n        pfc: \"0,0,0,1,0,0,0,0\"\n", rawCNP))},
			want: []string{"error " + k8sTmplID}, msg: "has no spec.template.rawNvConfig (it came with Network Operator 25.10"},
	}
})

// Without a CRD in k8s/, a patch that writes roceOptimized.qos.tos,
// rawNvConfig or roceMode is no command: the finding says why and gives
// the patch to apply once the field is verified. A field every release
// has (trust) is still patched, alone.
func TestK8sPatchGate(t *testing.T) {
	const tosPatch = `kubectl patch nicconfigurationtemplate.configuration.net.nvidia.com roce -n nic-configuration-operator --type=json -p '[{"op":"add","path":"/spec/template/roceOptimized/qos","value":{"pfc":"0,0,0,1,0,0,0,0","tos":104,"trust":"dscp"}}]' (rollback: -p '[{"op":"remove","path":"/spec/template/roceOptimized/qos"}]')`
	fs := k8sNicTemplate.Run(fabric(t, write("k8s/nic.yaml", nicTemplate(anySelector, "", rawCNP))))
	if len(fs) != 1 || len(fs[0].Changes) != 0 || !strings.Contains(fs[0].Message, "no NicConfigurationTemplate CRD in k8s/ shows whether the cluster's API has it, so qoslint prints no command for it") ||
		!strings.Contains(fs[0].Message, tosPatch) || !strings.Contains(fs[0].Message, "kubectl explain nicconfigurationtemplates.spec.template.roceOptimized.qos.tos") {
		t.Fatalf("%+v", fs)
	}
	fs = k8sCNPConflict.Run(fabric(t, write("k8s/nic.yaml", nicTemplate(anySelector, goodQoS, ""))))
	if len(fs) != 1 || len(fs[0].Changes) != 0 || !strings.Contains(fs[0].Message, `spec.template.rawNvConfig exists only from Network Operator 25.10`) ||
		!strings.Contains(fs[0].Message, `-p '[{"op":"add","path":"/spec/template/rawNvConfig","value":[{"name":"CNP_DSCP_P1","value":"48"},{"name":"CNP_DSCP_P2","value":"48"}]}]'`) {
		t.Fatalf("%+v", fs)
	}
	// trust pcp and roceMode 1: the trust patch is printed, the roceMode
	// one (Network Operator 26.7) is the roceMode finding's caveat.
	tmpl := nicTemplate(anySelector, "        trust: pcp\n        pfc: \"0,0,0,1,0,0,0,0\"\n        tos: 106\n", rawCNP) + "      roceMode: 1\n"
	fs = k8sNicTemplate.Run(fabric(t, write("k8s/nic.yaml", tmpl)))
	if len(fs) != 2 {
		t.Fatalf("%+v", fs)
	}
	for _, fd := range fs {
		if len(fd.Changes) != 1 || fd.Changes[0].Value != `[{"op":"add","path":"/spec/template/roceOptimized/qos/trust","value":"dscp"}]` {
			t.Errorf("change %+v", fd.Changes)
		}
		if strings.Contains(fd.Message, "RoCE v1") != strings.Contains(fd.Message, "spec.template.roceOptimized.roceMode exists only from Network Operator 26.7") {
			t.Errorf("caveat on the wrong finding: %s", fd.Message)
		}
	}
	// With the 26.7 CRD both are printed, in one patch.
	fs = k8sNicTemplate.Run(fabric(t, crd(t, "26.7.0-rc.2"), write("k8s/nic.yaml", tmpl)))
	want := `[{"op":"add","path":"/spec/template/roceOptimized/qos/trust","value":"dscp"},{"op":"replace","path":"/spec/template/roceOptimized/roceMode","value":2}]`
	if len(fs) != 2 || len(fs[0].Changes) != 1 || fs[0].Changes[0].Value != want || strings.Contains(fs[0].Message+fs[1].Message, "prints no command") {
		t.Fatalf("%+v", fs)
	}
	// The 26.4.1 CRD has no roceMode: the API server prunes it, the
	// template is judged without it, and a note says so.
	f := fabric(t, crd(t, "26.4.1"), write("k8s/nic.yaml", tmpl))
	fs = k8sNicTemplate.Run(f)
	if len(fs) != 1 || strings.Contains(fs[0].Message, "RoCE v1") || !hasNote(f, "k8s/nic.yaml:24: spec.template.roceOptimized.roceMode is not in the NicConfigurationTemplate CRD at k8s/crds/nicconfigurationtemplates.yaml:4") {
		t.Fatalf("%+v %v", fs, f.Notes)
	}
}

func hasNote(f *model.Fabric, want string) bool {
	for _, n := range f.Notes {
		if strings.Contains(n.Error(), want) {
			return true
		}
	}
	return false
}

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
	f := model.Build(inv, c)
	if !hasNote(f, "k8s/nic.yaml:16: NicConfigurationTemplate nvidia-network-operator/spectrum-x-configuration: the profile ConfigMap nvidia-network-operator/sx could not be read (k8s/profile.yaml:456: runtimeConfig.roce: want a list") {
		t.Errorf("notes %v", f.Notes)
	}
	if fs := k8sWorkloadToS.Run(f); len(fs) != 1 {
		t.Errorf("workload findings %+v", fs)
	}
}
