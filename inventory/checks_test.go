package inventory

import (
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

// The checks section: the same names at their lines in YAML and HCL.
func TestChecksSection(t *testing.T) {
	for _, tc := range []struct{ name, text string }{
		{"inventory.yaml", "fabric: x\nchecks:\n  enable: [config, evidence-dcqcn]\n  disable:\n    - mtu\n" +
			"switches:\n  - {name: leaf01, address: 192.0.2.1}\n"},
		{"inventory.hcl", "fabric = \"x\"\nchecks {\n  enable = [\"config\", \"evidence-dcqcn\"]\n  disable = [\n    \"mtu\",\n  ]\n}\n" +
			"switch \"leaf01\" { address = \"192.0.2.1\" }\n"},
	} {
		inv, err := Parse(tc.name, []byte(tc.text))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		want := CheckSelection{
			Enable:  []CheckName{{"config", source.Pos{File: tc.name, Line: 3}}, {"evidence-dcqcn", source.Pos{File: tc.name, Line: 3}}},
			Disable: []CheckName{{"mtu", source.Pos{File: tc.name, Line: 5}}},
		}
		if !reflect.DeepEqual(inv.Checks, want) {
			t.Errorf("%s: %+v, want %+v", tc.name, inv.Checks, want)
		}
	}
}

// Strict decoding: an unknown key, a value that is not a list of strings
// or an empty name is an error at its line.
func TestChecksSectionErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"inventory.yaml", "fabric: x\nchecks:\n  enabled: [mtu]\n", "inventory.yaml:3: "},
		{"inventory.yaml", "fabric: x\nchecks:\n  enable: mtu\n", "inventory.yaml:3: "},
		{"inventory.yaml", "fabric: x\nchecks:\n  disable: [mtu, '']\n", `inventory.yaml:3: checks.disable: an empty name`},
		{"inventory.hcl", "fabric = \"x\"\nchecks {\n  enabled = [\"mtu\"]\n}\n", "inventory.hcl:3"},
		{"inventory.hcl", "fabric = \"x\"\nchecks {\n  enable = \"mtu\"\n}\n", "inventory.hcl:3: checks.enable: want a list of strings"},
		{"inventory.hcl", "fabric = \"x\"\nchecks {}\nchecks {}\n", "inventory.hcl:3"},
	} {
		_, err := Parse(tc.name, []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: %v, want %q", tc.name, tc.text, err, tc.want)
		}
	}
}
