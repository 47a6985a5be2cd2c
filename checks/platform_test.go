package checks

// Which platform a switch is: its configuration header over the inventory.

import (
	"strings"
	"testing"
)

// Edits of the clean pod in each switch's own syntax. The commands and
// their YAML keys are CumulusNetworks/docs content/cumulus-linux-518/
// Layer-1-and-Switch-Ports/Quality-of-Service/_index.md ("nv set qos pfc
// default-global cable-length 50", "nv set qos link-pause my_pause_ports tx
// enable", "nv set interface swp1-swp4,swp6 qos link-pause profile
// my_pause_ports", "nv set interface <interface> qos pfc-watchdog state
// disable"), the NVUE reference's "nv set qos roce cable-length 1000", and
// the ECMP page of content/cumulus-linux-519/Layer-3/Routing/
// Equal-Cost-Multipath-Load-Sharing.md ("nv set system forwarding
// hash-seed 50").

// The header names the model; an inventory that says otherwise is noted,
// and the header is used.
func TestInventoryPlatformDiffers(t *testing.T) {
	f := fabric(t, replace("inventory.hcl", "switch \"spine01\" {\n  role    = \"spine\"", "switch \"spine01\" {\n  platform = \"SN5600\"\n  role    = \"spine\""))
	if sw := f.SwitchByName("spine01"); sw.Flow.Platform != "MSN4700" || sw.Flow.ASIC != "Spectrum-3" {
		t.Errorf("spine01 platform %q (%s), want the header's MSN4700", sw.Flow.Platform, sw.Flow.ASIC)
	}
	want := "inventory.hcl:20: switch spine01: the inventory's platform SN5600 differs from the configuration header's MSN4700, which is used"
	for _, n := range f.Notes {
		if strings.HasSuffix(n.Error(), want) {
			return
		}
	}
	t.Errorf("no note %q in %v", want, f.Notes)
}
