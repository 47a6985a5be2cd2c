package k8smodel

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/k8s"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

func TestSelects(t *testing.T) {
	labels := map[string]string{"pool": "gpu", inventory.HostnameLabel: "node-a"}
	for _, tc := range []struct {
		sel  map[string]string
		want bool
	}{
		{nil, true},
		{map[string]string{"pool": "gpu"}, true},
		{map[string]string{"pool": "gpu", inventory.HostnameLabel: "node-a"}, true},
		{map[string]string{"pool": "cpu"}, false},
		{map[string]string{"zone": "a"}, false},
	} {
		if got := Selects(tc.sel, labels); got != tc.want {
			t.Errorf("%v: %v", tc.sel, got)
		}
	}
}

// The operator README's example template (tos: 0 written) resolves to the
// operator's documented defaults: ToS 0, and its CNP marking 4 / 6.
func TestResolveReadmeTemplate(t *testing.T) {
	data, err := os.ReadFile("../testdata/nictemplate-readme.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := &k8s.Manifests{}
	if err := m.Parse("nic.yaml", data); err != nil {
		t.Fatal(err)
	}
	kt := resolveTemplate(&model.Fabric{}, m.Templates[0], nil)
	if kt.Trust.V != "dscp" || kt.Trust.Default != "" || !slices.Equal(kt.PFC.V, []int{3}) || kt.ToS.V != 0 || kt.ToS.Default == "" || kt.ToS.Pos.Line != 34 {
		t.Errorf("trust %+v pfc %+v tos %+v", kt.Trust, kt.PFC, kt.ToS)
	}
	if kt.CNP["CNP_DSCP_P1"].V != 4 || kt.CNP["CNP_802P_PRIO_P2"].V != 6 {
		t.Errorf("cnp %+v", kt.CNP)
	}
}

// A pfc the CRD's pattern refuses is an input problem at its line.
func TestK8sBadPFC(t *testing.T) {
	inv, err := inventory.Parse("inventory.yaml", []byte("fabric: f\nhosts:\n  - {name: gpu01, address: 192.0.2.1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := &k8s.Manifests{}
	src := "apiVersion: configuration.net.nvidia.com/v1alpha1\nkind: NicConfigurationTemplate\nmetadata: {name: t}\nspec:\n  template:\n    roceOptimized:\n      enabled: true\n      qos:\n        trust: dscp\n        pfc: \"3\"\n"
	if err := m.Parse("k8s/t.yaml", []byte(src)); err != nil {
		t.Fatal(err)
	}
	f := &model.Fabric{}
	Build(f, inv, m)
	if len(f.Problems) != 1 || f.Problems[0].Pos.Line != 10 || !strings.Contains(f.Problems[0].Msg, "not eight comma-separated") {
		t.Errorf("problems %v", f.Problems)
	}
}

// A selector that selects no mapped host is a note, and the findings stay
// on the manifest.
func TestK8sUnselectedNote(t *testing.T) {
	inv, err := inventory.Parse("inventory.yaml", []byte("fabric: f\nhosts:\n  - {name: gpu01, address: 192.0.2.1, k8s_node: node-a}\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := &k8s.Manifests{}
	if err := m.Parse("k8s/j.yaml", []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  nodeSelector: {pool: x}\n  affinity:\n    nodeAffinity: {}\n  containers:\n    - name: c\n      env: [{name: NCCL_IB_TC, value: \"0\"}]\n")); err != nil {
		t.Fatal(err)
	}
	f := &model.Fabric{}
	Build(f, inv, m)
	if len(f.K8s.Containers) != 1 || len(f.K8s.Containers[0].Hosts) != 0 || !f.K8s.Mapped {
		t.Fatalf("%+v", f.K8s)
	}
	var notes []string
	for _, n := range f.Notes {
		notes = append(notes, n.Error())
	}
	got := strings.Join(notes, "\n")
	for _, want := range []string{"k8s/j.yaml:1: Pod default/p selects no inventory host (nodeSelector pool=x)", "k8s/j.yaml:7: nodeAffinity is not evaluated"} {
		if !strings.Contains(got, want) {
			t.Errorf("notes %q lack %q", got, want)
		}
	}
}
