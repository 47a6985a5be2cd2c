package inventory

import (
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/policy"
)

func TestIBPolicy(t *testing.T) {
	yml := "fabric: f\nfabric_type: infiniband\npolicy:\n  ib: {sl: 3, vl: 2, adaptive_routing: true}\nhosts:\n  - {name: gpu01, address: 192.0.2.1}\n"
	hcl := "fabric = \"f\"\nfabric_type = \"infiniband\"\npolicy {\n  ib {\n    sl = 3\n    vl = 2\n    adaptive_routing = true\n  }\n}\nhost \"gpu01\" {\n  address = \"192.0.2.1\"\n}\n"
	for name, src := range map[string]string{"inventory.yaml": yml, "inventory.hcl": hcl} {
		inv, err := Parse(name, []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !inv.HasIB() || inv.Policy.IB != (policy.IBPolicy{SL: 3, VL: 2, HasVL: true, AdaptiveRouting: true, HasAdaptiveRouting: true}) {
			t.Errorf("%s: %+v %+v", name, inv.FabricType, inv.Policy.IB)
		}
		if p := inv.Policy.Pos["ib.sl"]; p.Line == 0 {
			t.Errorf("%s: ib.sl has no position", name)
		}
		if p := inv.Policy.Pos["ib.adaptive_routing"]; p.Line == 0 {
			t.Errorf("%s: ib.adaptive_routing has no position", name)
		}
	}
	for _, tc := range []struct{ src, want string }{
		{"fabric: f\nfabric_type: token-ring\nhosts: [{name: h, address: 192.0.2.1}]\n", "inventory.yaml:2: fabric_type \"token-ring\""},
		{"fabric: f\npolicy:\n  ib: {sl: 16}\nhosts: [{name: h, address: 192.0.2.1}]\n", "inventory.yaml:3: ib.sl 16: want 0-15"},
		{"fabric: f\npolicy:\n  ib: {sl: 1, vl: 15}\nhosts: [{name: h, address: 192.0.2.1}]\n", "ib.vl 15: want 0-14"},
		{"fabric: f\npolicy:\n  ib: {adaptive_routing: sometimes}\nhosts: [{name: h, address: 192.0.2.1}]\n", "inventory.yaml:3"},
		{"fabric: f\npolicy:\n  ib: {sl: 1, lane: 2}\nhosts: [{name: h, address: 192.0.2.1}]\n", "inventory.yaml:3"},
	} {
		_, err := Parse("inventory.yaml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.src, err, tc.want)
		}
	}
	inv, err := Parse("inventory.yaml", []byte("fabric: f\nhosts: [{name: h, address: 192.0.2.1}]\n"))
	if err != nil || inv.HasIB() || inv.FabricType != "" {
		t.Errorf("default: %v %+v", err, inv)
	}
}
