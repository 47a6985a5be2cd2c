package inventory

import (
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

const railSwitchesYAML = "switches:\n  - {name: leaf01, address: 192.0.2.1}\n  - {name: leaf02, address: 192.0.2.2}\n  - {name: leaf03, address: 192.0.2.3}\n"
const railSwitchesHCL = "switch \"leaf01\" { address = \"192.0.2.1\" }\nswitch \"leaf02\" { address = \"192.0.2.2\" }\nswitch \"leaf03\" { address = \"192.0.2.3\" }\n"

// The rail rule reads the same in YAML and HCL; a rail may span planes
// (several leaves in its group).
func TestRails(t *testing.T) {
	for _, tc := range []struct{ name, text string }{
		{"inventory.yaml", "fabric: x\npolicy:\n  rails:\n    groups: [[leaf01, leaf03], [leaf02]]\n" + railSwitchesYAML},
		{"inventory.hcl", "fabric = \"x\"\npolicy {\n  rails {\n    groups = [[\"leaf01\", \"leaf03\"], [\"leaf02\"]]\n  }\n}\n" + railSwitchesHCL},
	} {
		inv, err := Parse(tc.name, []byte(tc.text))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if want := [][]string{{"leaf01", "leaf03"}, {"leaf02"}}; !reflect.DeepEqual(inv.Policy.Rails, want) {
			t.Errorf("%s: rails %v, want %v", tc.name, inv.Policy.Rails, want)
		}
		if got := inv.Policy.Pos["rails.groups"]; got != (source.Pos{File: tc.name, Line: 4}) {
			t.Errorf("%s: rails.groups at %v", tc.name, got)
		}
	}
	inv, err := Parse("inventory.yaml", []byte("fabric: x\n"+railSwitchesYAML))
	if err != nil || inv.Policy.Rails != nil {
		t.Errorf("no rail rule: %v %v", inv, err)
	}
}

// Strict decoding: unknown keys, wrong shapes, unknown or repeated leaves
// are errors at their lines.
func TestRailsErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"inventory.yaml", "fabric: x\npolicy:\n  rails:\n    group: [[leaf01]]\n" + railSwitchesYAML, "inventory.yaml:4: "},
		{"inventory.yaml", "fabric: x\npolicy:\n  rails:\n    groups: [leaf01]\n" + railSwitchesYAML, "inventory.yaml:4: "},
		{"inventory.yaml", "fabric: x\npolicy:\n  rails:\n    groups:\n      - [leaf01]\n      - [leaf09]\n" + railSwitchesYAML,
			`inventory.yaml:6: rails.groups[1]: "leaf09" is not a switch of the inventory`},
		{"inventory.yaml", "fabric: x\npolicy:\n  rails:\n    groups:\n      - [leaf01]\n      - [leaf01]\n" + railSwitchesYAML,
			`inventory.yaml:6: rails.groups[1]: leaf01 is already in rail 0`},
		{"inventory.yaml", "fabric: x\npolicy:\n  rails:\n    groups:\n      - []\n" + railSwitchesYAML, `inventory.yaml:5: rails.groups[0]: a rail needs at least one leaf`},
		{"inventory.yaml", "fabric: x\npolicy:\n  rails:\n    groups: []\n" + railSwitchesYAML, `inventory.yaml:4: rails.groups must list at least one rail`},
		{"inventory.hcl", "fabric = \"x\"\npolicy {\n  rails {\n    group = []\n  }\n}\n" + railSwitchesHCL, "inventory.hcl:4"},
		{"inventory.hcl", "fabric = \"x\"\npolicy {\n  rails {\n    groups = [\n      \"leaf01\"\n    ]\n  }\n}\n" + railSwitchesHCL,
			"inventory.hcl:5: rails.groups: want a list of list of strings"},
		{"inventory.hcl", "fabric = \"x\"\npolicy {\n  rails {\n    groups = [\n      [\"leaf01\"],\n      [\"leaf07\"],\n    ]\n  }\n}\n" + railSwitchesHCL,
			`inventory.hcl:6: rails.groups[1]: "leaf07" is not a switch of the inventory`},
	} {
		_, err := Parse(tc.name, []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: %v, want %q", tc.name, tc.text, err, tc.want)
		}
	}
}
