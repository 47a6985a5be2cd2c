package inventory

import (
	"strings"
	"testing"
)

// A switch's platform, where its configuration has no header to name it
// (`nv config show -o commands`), in both inventory forms, at its line.
func TestSwitchPlatform(t *testing.T) {
	for name, text := range map[string]string{
		"inventory.yaml": "fabric: sx\nswitches:\n  - name: leaf01\n    role: leaf\n    platform: SN5600\n  - name: leaf02\n    role: leaf\n",
		"inventory.hcl":  "fabric = \"sx\"\nswitch \"leaf01\" {\n  role = \"leaf\"\n  platform = \"SN5600\"\n}\nswitch \"leaf02\" {\n  role = \"leaf\"\n}\n",
	} {
		t.Run(name, func(t *testing.T) {
			inv, err := Parse(name, []byte(text))
			if err != nil {
				t.Fatal(err)
			}
			if s := inv.Switches[0]; s.Platform != "SN5600" || s.PlatformLine == 0 {
				t.Errorf("leaf01 platform %q at line %d", s.Platform, s.PlatformLine)
			}
			if s := inv.Switches[1]; s.Platform != "" {
				t.Errorf("leaf02 platform %q, want none", s.Platform)
			}
		})
	}
	_, err := Parse("inventory.yaml", []byte("fabric: sx\nswitches:\n  - name: leaf01\n    platform: \"SN5600; reboot\"\n"))
	if err == nil || !strings.Contains(err.Error(), `inventory.yaml:4: switch "leaf01": platform "SN5600; reboot" is not a switch model`) {
		t.Errorf("error %v", err)
	}
}
