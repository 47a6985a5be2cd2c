package model

import (
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/inventory"
)

// The ECMP group from the roles: each case is one switch "sw" with the
// given role, its LLDP links to the named devices (role "host" for a
// host), in an inventory whose top tier is top.
func TestECMPGroup(t *testing.T) {
	type link struct{ port, dev, role string }
	cases := []struct {
		name, role, top string
		noLLDP          bool
		links           []link
		bonds           map[string][]string
		want            ECMPGroup
		note            string
	}{
		{name: "leaf: its spine links, not its hosts nor its MLAG peer", role: "leaf", top: "spine",
			links: []link{{"swp1", "gpu01", "host"}, {"swp29", "leaf02", "leaf"}, {"swp32", "spine02", "spine"}, {"swp31", "spine01", "spine"}},
			want:  ECMPGroup{Ports: []string{"swp31", "swp32"}, FromLLDP: true, Toward: "spine"}},
		{name: "border leaf: its spine links", role: "border", top: "spine",
			links: []link{{"swp49", "spine01", "spine"}, {"swp50", "spine02", "spine"}, {"swp51", "leaf01", "leaf"}},
			want:  ECMPGroup{Ports: []string{"swp49", "swp50"}, FromLLDP: true, Toward: "spine"}},
		{name: "spine of the top tier: its leaf and border links", role: "spine", top: "spine",
			links: []link{{"swp1", "leaf01", "leaf"}, {"swp2", "leaf02", "leaf"}, {"swp3", "border01", "border"}},
			want:  ECMPGroup{Ports: []string{"swp1", "swp2", "swp3"}, FromLLDP: true, Toward: "leaf"}},
		{name: "spine under super-spines: its super-spine links", role: "spine", top: "super-spine",
			links: []link{{"swp1", "leaf01", "leaf"}, {"swp63", "ss01", "super-spine"}, {"swp64", "ss02", "super-spine"}},
			want:  ECMPGroup{Ports: []string{"swp63", "swp64"}, FromLLDP: true, Toward: "super-spine"}},
		{name: "spine under super-spines, none cabled: routed ports", role: "spine", top: "super-spine",
			links: []link{{"swp1", "leaf01", "leaf"}},
			want:  ECMPGroup{Ports: []string{"swp1", "swp2"}, Why: "LLDP shows no link to a super-spine or above"}},
		{name: "super-spine: its spine links", role: "super-spine", top: "super-spine",
			links: []link{{"swp1", "spine01", "spine"}, {"swp2", "spine02", "spine"}},
			want:  ECMPGroup{Ports: []string{"swp1", "swp2"}, FromLLDP: true, Toward: "spine"}},
		{name: "no lldp.json: routed ports", role: "leaf", top: "spine", noLLDP: true,
			links: []link{{"swp31", "spine01", "spine"}},
			want:  ECMPGroup{Ports: []string{"swp1", "swp2"}, Why: "lldp.json not collected"}},
		{name: "uplinks on a bond: routed ports, and a note", role: "leaf", top: "spine",
			links: []link{{"swp31", "spine01", "spine"}, {"swp32", "spine01", "spine"}},
			bonds: map[string][]string{"bond1": {"swp31", "swp32"}},
			want:  ECMPGroup{Ports: []string{"swp1", "swp2"}, Why: "its LLDP links to a spine are on no port it can route adaptively"},
			note:  "fabric links on bond members, not judged for adaptive routing (not supported on bonds): swp31 (bond1), swp32 (bond1)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q := &QoS{}
			sw := &Switch{Name: "sw", Role: tc.role, ConfigFile: "sw.yaml", ARPorts: []string{"swp1", "swp2"},
				Bonds: tc.bonds}
			for _, p := range []string{"swp1", "swp2", "swp3", "swp29", "swp31", "swp32", "swp49", "swp50", "swp51", "swp63", "swp64", "bond1"} {
				if !slicesContainMember(tc.bonds, p) {
					sw.PortQoS.Set(p, q) // a bond member is no checked port
				}
			}
			f := &Fabric{Switches: []*Switch{sw}, LLDPFile: map[string]string{"sw": "sw/lldp.json"}}
			if tc.noLLDP {
				delete(f.LLDPFile, "sw")
			}
			roles := map[string]string{"sw": tc.role, "top": tc.top}
			for _, l := range tc.links {
				kind := layout.KindSwitch
				if l.role == "host" {
					kind = layout.KindHost
				} else {
					roles[l.dev] = l.role
				}
				f.Links = append(f.Links, &Link{A: LinkEnd{Device: "sw", Kind: layout.KindSwitch, Port: l.port}, B: LinkEnd{Device: l.dev, Kind: kind, Port: "x"}})
			}
			inv := &inventory.Inventory{}
			for name, role := range roles {
				inv.Switches = append(inv.Switches, inventory.Switch{Name: name, Role: role})
			}
			BuildECMPGroups(f, inv)
			if !reflect.DeepEqual(sw.ECMPGroup, tc.want) {
				t.Errorf("group %+v, want %+v", sw.ECMPGroup, tc.want)
			}
			var notes []string
			for _, n := range f.Notes {
				notes = append(notes, n.Msg)
			}
			all := strings.Join(notes, "\n")
			if tc.note != "" && !strings.Contains(all, tc.note) {
				t.Errorf("notes %q lack %q", all, tc.note)
			}
			if !tc.want.FromLLDP && !strings.Contains(all, "ECMP group for adaptive routing not known from LLDP ("+tc.want.Why+")") {
				t.Errorf("fallback without its note: %q", all)
			}
			if tc.want.FromLLDP && all != "" {
				t.Errorf("unexpected notes %q", all)
			}
		})
	}
}

func slicesContainMember(bonds map[string][]string, p string) bool {
	for _, ms := range bonds {
		for _, m := range ms {
			if m == p {
				return true
			}
		}
	}
	return false
}
