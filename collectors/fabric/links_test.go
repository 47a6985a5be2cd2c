package fabric

import (
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/collectors/lldp"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

// The neighbour shapes are lldpd's (lldpd/lldpd
// tests/integration/test_lldpcli.py): a Cumulus switch sends its ifname
// as port ID; a host's lldpd its MAC, with the ifname as description; a
// ConnectX firmware agent only MACs (no system name, no description).
func TestBuildLinks(t *testing.T) {
	inv := &inventory.Inventory{
		Switches: []inventory.Switch{{Name: "leaf01"}, {Name: "spine01"}},
		Hosts:    []inventory.Host{{Name: "gpu01"}, {Name: "gpu02"}},
	}
	q := &model.QoS{}
	leaf := &model.Switch{Name: "leaf01", PortQoS: model.PortMapOf(map[string]*model.QoS{"swp1": q, "swp2": q, "bond1": q, "swp31": q}),
		Bonds: map[string][]string{"bond1": {"swp3", "swp4"}}}
	spine := &model.Switch{Name: "spine01", PortQoS: model.PortMapOf(map[string]*model.QoS{"swp1": q})}
	f := &model.Fabric{Switches: []*model.Switch{leaf, spine}}
	nb := func(file string, ns ...lldp.Neighbor) *lldp.Neighbors {
		return &lldp.Neighbors{File: file, Neighbors: ns}
	}
	c := &collectors.Capture{
		Switches: []*collectors.SwitchCapture{
			{Name: "leaf01", LLDP: nb("devices/leaf01/lldp.json",
				lldp.Neighbor{Interface: "swp1", SysName: "gpu01.example.com", ChassisIDType: "mac", ChassisID: "00:00:5e:00:53:10",
					PortIDType: "mac", PortID: "00:00:5e:00:53:12", PortDescr: "ens1f0np0", Line: 5},
				lldp.Neighbor{Interface: "swp2", ChassisIDType: "mac", ChassisID: "00:00:5e:00:53:22",
					PortIDType: "mac", PortID: "00:00:5e:00:53:22", Line: 40},
				lldp.Neighbor{Interface: "swp3", SysName: "gpu02", ChassisIDType: "mac", ChassisID: "00:00:5e:00:53:20",
					PortIDType: "mac", PortID: "00:00:5e:00:53:99", PortDescr: "bond0", Line: 50},
				lldp.Neighbor{Interface: "swp31", SysName: "spine01", ChassisIDType: "mac", ChassisID: "00:00:5e:00:53:f1",
					PortIDType: "ifname", PortID: "swp1", PortDescr: "leaf01-uplink", Line: 60},
				lldp.Neighbor{Interface: "swp32", SysName: "spine09", ChassisIDType: "mac", ChassisID: "00:00:5e:00:53:f9",
					PortIDType: "ifname", PortID: "swp1", Line: 70})},
			{Name: "spine01", LLDP: nb("devices/spine01/lldp.json",
				lldp.Neighbor{Interface: "swp1", SysName: "leaf01", ChassisIDType: "mac", ChassisID: "00:00:5e:00:53:e1",
					PortIDType: "ifname", PortID: "swp31", Line: 9})},
		},
		Hosts: []*collectors.HostCapture{
			{Name: "gpu01", Links: []hostfiles.Link{{Name: "ens1f0np0", LinkType: "ether", MAC: "00:00:5e:00:53:12"}},
				LLDP: nb("devices/gpu01/lldp.json",
					lldp.Neighbor{Interface: "ens1f0np0", SysName: "leaf01", ChassisIDType: "mac", ChassisID: "00:00:5e:00:53:e1",
						PortIDType: "ifname", PortID: "swp1", Line: 3})},
			{Name: "gpu02", Links: []hostfiles.Link{{Name: "ens1f1np1", LinkType: "ether", MAC: "00:00:5e:00:53:22"}}},
		},
	}
	buildLinks(f, inv, c)
	var got []string
	for _, l := range f.Links {
		got = append(got, l.String()+" "+strings.Trim(strings.ReplaceAll(
			l.A.Seen.String()+"|"+l.B.Seen.String(), "devices/", ""), "|"))
	}
	want := []string{
		"gpu01:ens1f0np0 - leaf01:swp1 gpu01/lldp.json:3|leaf01/lldp.json:5",
		"gpu02:ens1f1np1 - leaf01:swp2 leaf01/lldp.json:40", // one-sided: gpu02 has no lldp.json
		"leaf01:swp31 - spine01:swp1 leaf01/lldp.json:60|spine01/lldp.json:9",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("links:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if f.Links[1].OneSided() != true || f.Links[0].OneSided() || f.Links[2].OneSided() {
		t.Errorf("one-sided wrong: %v %v %v", f.Links[0].OneSided(), f.Links[1].OneSided(), f.Links[2].OneSided())
	}
	var notes []string
	for _, n := range f.Notes {
		notes = append(notes, n.Device+": "+n.Msg)
	}
	wantNotes := []string{
		"leaf01: 1 LLDP neighbour is not an inventory device, ignored: spine09 on swp32",
		`leaf01: LLDP neighbour gpu02 on swp3 (port ID mac 00:00:5e:00:53:99, description "bond0") at line 50 names no interface of it: link ignored`,
	}
	if strings.Join(notes, "\n") != strings.Join(wantNotes, "\n") {
		t.Errorf("notes:\n%s\nwant\n%s", strings.Join(notes, "\n"), strings.Join(wantNotes, "\n"))
	}
	if len(f.LLDPFile) != 3 || f.LLDPFile["gpu02"] != "" {
		t.Errorf("LLDPFile %v", f.LLDPFile)
	}
	if leaf.PortOf("swp4") != "bond1" || leaf.PortOf("swp1") != "swp1" || leaf.PortOf("swp9") != "" {
		t.Errorf("PortOf: %q %q %q", leaf.PortOf("swp4"), leaf.PortOf("swp1"), leaf.PortOf("swp9"))
	}
}
