package inventory

import (
	"reflect"
	"strings"
	"testing"
)

func TestK8sNodeMapping(t *testing.T) {
	yml := "fabric: f\nhosts:\n  - name: gpu01\n    address: 192.0.2.1\n    k8s_node: node-a\n    k8s_labels: {pool: gpu, rack: r1}\n  - {name: gpu02, address: 192.0.2.2}\n"
	hcl := "fabric = \"f\"\nhost \"gpu01\" {\n  address = \"192.0.2.1\"\n  k8s_node = \"node-a\"\n  k8s_labels = { pool = \"gpu\", rack = \"r1\" }\n}\nhost \"gpu02\" {\n  address = \"192.0.2.2\"\n}\n"
	for name, src := range map[string]string{"inventory.yaml": yml, "inventory.hcl": hcl} {
		inv, err := Parse(name, []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		h := inv.Hosts[0]
		labels, ok := h.NodeLabels()
		want := map[string]string{"pool": "gpu", "rack": "r1", HostnameLabel: "node-a"}
		if !ok || !reflect.DeepEqual(labels, want) || h.K8sPos.Line != 5 && h.K8sPos.Line != 4 {
			t.Errorf("%s: labels %v ok %v at %v", name, labels, ok, h.K8sPos)
		}
		if _, ok := inv.Hosts[1].NodeLabels(); ok {
			t.Errorf("%s: gpu02 is not mapped", name)
		}
	}
	for _, tc := range []struct{ name, src, want string }{
		{"inventory.yaml", "fabric: f\nhosts:\n  - {name: h, address: 192.0.2.1, k8s_node: Node_A}\n", "inventory.yaml:3: host \"h\": k8s_node \"Node_A\""},
		{"inventory.yaml", "fabric: f\nhosts:\n  - {name: h, address: 192.0.2.1, k8s_labels: {\"a b\": x}}\n", "k8s_labels: \"a b\""},
		{"inventory.yaml", "fabric: f\nhosts:\n  - {name: h, address: 192.0.2.1, k8s_lables: {a: b}}\n", "inventory.yaml:3"},
		{"inventory.hcl", "fabric = \"f\"\nhost \"h\" {\n  address = \"192.0.2.1\"\n  k8s_labels = [\"a\"]\n}\n", "inventory.hcl:4"},
	} {
		_, err := Parse(tc.name, []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.src, err, tc.want)
		}
	}
}
