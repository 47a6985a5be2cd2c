package checks

import (
	"strings"
	"testing"
)

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
