package inventory

import (
	"strings"
	"testing"
)

// A switch's os, in both inventory forms: sonic and cumulus at their line,
// absent as "" (the collectors decide), anything else an error at its line.
func TestSwitchOS(t *testing.T) {
	for name, text := range map[string]string{
		"inventory.yaml": "fabric: sx\nswitches:\n  - name: spine01\n    role: spine\n    os: sonic\n  - name: leaf01\n    role: leaf\n    os: Cumulus\n  - name: leaf02\n    role: leaf\n",
		"inventory.hcl":  "fabric = \"sx\"\nswitch \"spine01\" {\n  role = \"spine\"\n  os = \"sonic\"\n}\nswitch \"leaf01\" {\n  role = \"leaf\"\n  os = \"Cumulus\"\n}\nswitch \"leaf02\" {\n  role = \"leaf\"\n}\n",
	} {
		t.Run(name, func(t *testing.T) {
			inv, err := Parse(name, []byte(text))
			if err != nil {
				t.Fatal(err)
			}
			if s := inv.Switches[0]; s.OS != OSSONiC || s.OSLine == 0 {
				t.Errorf("spine01 os %q at line %d", s.OS, s.OSLine)
			}
			if s := inv.Switches[1]; s.OS != OSCumulus {
				t.Errorf("leaf01 os %q, want %q", s.OS, OSCumulus)
			}
			if s := inv.Switches[2]; s.OS != "" {
				t.Errorf("leaf02 os %q, want none", s.OS)
			}
		})
	}
	_, err := Parse("inventory.yaml", []byte("fabric: sx\nswitches:\n  - name: leaf01\n    role: leaf\n    os: eos\n"))
	if err == nil || !strings.Contains(err.Error(), `inventory.yaml:5: switch "leaf01": unknown os "eos" (want cumulus or sonic)`) {
		t.Errorf("error %v", err)
	}
}
