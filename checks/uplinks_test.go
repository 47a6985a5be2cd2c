package checks

import (
	"strings"
	"testing"
	"testing/fstest"
)

// The ECMP group of adaptive routing from the cabling: leaf01 of the clean
// pod reaches spine01 and spine02 on swp31 and swp32 (its lldp.json, in the
// shape of lldpcli -f json0 show neighbors details, lldpd/lldpd), and in
// these cases also routes on swp30, a BGP unnumbered port cabled to no
// inventory switch. leaf01 runs CL 5.14, so the settings are `enable: on`
// (CumulusNetworks/docs content/cumulus-linux-514/Layer-3/Routing/
// Equal-Cost-Multipath-Load-Sharing.md). The spines and leaf02 are left
// without adaptive routing, and their findings are the same in every case.
// leaf01 is made a Spectrum-4 SN5600 whenever it turns adaptive routing on,
// which the clean pod's Spectrum-3 MSN4700 does not support
// (adaptive_routing_limits.go).
var (
	leaf01ARGlobal = edits(replace(leaf01Y, "    router:\n      bgp:\n", "    router:\n      adaptive-routing:\n        enable: on\n      bgp:\n"), leaf01SN5600)
	leaf01Swp30    = replace(leaf01Y, "            neighbor:\n              swp31:\n",
		"            neighbor:\n              swp30:\n                remote-as: external\n                type: unnumbered\n              swp31:\n")
	leaf01ARPort = func(port string) edit {
		return replace(leaf01Y, "      "+port+":\n        description: uplink-", "      "+port+":\n        router:\n          adaptive-routing:\n            enable: on\n        description: uplink-")
	}
	othersWithoutAR = []string{"error leaf02", "error leaf02 swp31-32", "error spine01", "error spine01 swp1-2", "error spine02", "error spine02 swp1-2"}
)

var _ = register(adaptiveRouting, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "policy wants it: on for both uplinks, a routed non-uplink without it passes",
			edits: []edit{wantAR, leaf01ARGlobal, leaf01Swp30, leaf01ARPort("swp31"), leaf01ARPort("swp32")},
			want:  othersWithoutAR},
		{name: "policy wants it: on for one uplink of two",
			edits: []edit{wantAR, leaf01ARGlobal, leaf01Swp30, leaf01ARPort("swp31")},
			want:  append([]string{"error leaf01 swp32"}, othersWithoutAR...),
			msg:   "adaptive routing is off on these uplinks to the spines but on for swp31: mixing"},
		{name: "policy wants it: without leaf01's lldp.json its routed ports stand in, and the finding says so",
			edits: []edit{wantAR, remove(dev("leaf01", "lldp.json")), leaf01ARGlobal, leaf01Swp30, leaf01ARPort("swp31"), leaf01ARPort("swp32")},
			want:  append([]string{"error leaf01 swp30"}, othersWithoutAR...),
			msg:   "off on these routed ports but on for swp31-32: mixing adaptive routing and ECMP hashing in one group gives unexpected route hashing (the ECMP group is approximated by the routed ports: lldp.json not collected)"},
		{name: "policy hashes: on for the switch and one uplink of leaf01",
			edits: []edit{leaf01ARGlobal, leaf01Swp30, leaf01ARPort("swp31")},
			want:  []string{"warning leaf01"}, msg: "on for swp31 but off for swp32, uplinks to the spines of the same ECMP group"},
	}
})

// leaf01SN5600 makes leaf01 a Spectrum-4 ("NVIDIA SN5600 (Spectrum-4)",
// CumulusNetworks/docs content/cumulus-linux-54/Whats-New/rn.md).
var leaf01SN5600 = replace(leaf01Y, "model: MSN4700", "model: SN5600")

// edits applies several edits as one.
func edits(es ...edit) edit {
	return func(t *testing.T, fsys fstest.MapFS) {
		for _, e := range es {
			e(t, fsys)
		}
	}
}

// The fallback is never silent: the report's notes say which switch's
// group is approximated, and why.
func TestECMPGroupFallbackNote(t *testing.T) {
	f := fabric(t, remove(dev("leaf01", "lldp.json")))
	var notes []string
	for _, n := range f.Notes {
		if strings.Contains(n.Error(), "ECMP group") {
			notes = append(notes, n.Error())
		}
	}
	want := "leaf01: devices/leaf01/nv-config.yaml: ECMP group for adaptive routing not known from LLDP (lldp.json not collected): its routed ports swp31-32 stand in for it"
	if len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q, want %q", notes, want)
	}
	for _, sw := range f.Switches {
		g := sw.ECMPGroup
		if sw.Name != "leaf01" && (!g.FromLLDP || len(g.Ports) != 2) {
			t.Errorf("%s: group %+v, want two LLDP ports", sw.Name, g)
		}
	}
}
