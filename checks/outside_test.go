package checks

import (
	"slices"
	"strings"
	"testing"
)

// gpu04 ens1f0np0 is cabled to leaf01 swp4 (both ends' lldp.json, in the
// shape of lldpcli -f json show neighbors, lldpd/lldpd); these edits leave
// swp4 out of leaf01's inventory ports list, so it is no checked port.
var leaf01PortsWithoutSwp4 = replace("inventory.hcl", "  role    = \"leaf\"\n  address = \"192.0.2.11\"\n",
	"  role    = \"leaf\"\n  address = \"192.0.2.11\"\n  ports   = [\"swp1-3\", \"swp31-32\"]\n")

// leaf01Swp4Edge binds swp4 alone to a mapping profile that trusts l2.
var leaf01Swp4Edge = []edit{
	replace(leaf01Y, "      swp31:\n        description: uplink-spine01", "      swp4:\n        qos:\n          mapping:\n            profile: EDGE\n      swp31:\n        description: uplink-spine01"),
	replace(leaf01Y, "    qos:\n      roce:", "    qos:\n      mapping:\n        EDGE:\n          trust: l2\n      roce:"),
}

func TestOutsidePortModel(t *testing.T) {
	f := fabric(t, append([]edit{leaf01PortsWithoutSwp4}, leaf01Swp4Edge...)...)
	sw := f.SwitchByName("leaf01")
	if slices.Contains(sw.Ports, "swp4") || !slices.Equal(sw.Outside, []string{"swp4"}) {
		t.Fatalf("ports %v, outside %v: want swp4 outside only", sw.Ports, sw.Outside)
	}
	if q := sw.PortQoS.At("swp4"); q == nil || q.MappingProfile.V != "EDGE" || q.Trust.V != "l2" {
		t.Fatalf("swp4 QoS %+v: want mapping EDGE trusting l2", q)
	}
	if m := sw.MTU.At("swp4"); m.V != 9216 || m.Origin.IsDefault() {
		t.Errorf("swp4 MTU %+v: want the configured 9216", m)
	}
	// Its LLDP is consistent from both ends: one link, seen twice.
	var n int
	for _, l := range f.Links {
		if this, other, ok := l.End("leaf01"); ok && this.Port == "swp4" {
			n++
			if l.OneSided() || other.Device != "gpu04" || other.Port != "ens1f0np0" {
				t.Errorf("link %v: want gpu04 ens1f0np0 seen from both ends", l)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d links on leaf01 swp4, want 1", n)
	}
	want := "RoCE NICs plug into ports outside the inventory's ports list, judged by the link checks only (add them to ports to have every switch check judge them): swp4 (gpu04 ens1f0np0)"
	for _, e := range f.Notes {
		if e.Device == "leaf01" && strings.Contains(e.Msg, want) {
			return
		}
	}
	t.Errorf("no note %q in %v", want, f.Notes)
}
