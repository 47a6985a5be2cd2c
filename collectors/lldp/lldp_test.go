package lldp

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

// testdata/leaf-json0.json is in the shape of lldpd's
// tests/integration/test_lldpcli.py test_json0_output (lldpd/lldpd), with
// our own values; leaf-json.json is the same data as -f json prints it
// (test_json_output; json_element_cleanup in src/client/json_writer.c).
// swp1 is a host running lldpd (MAC port ID, ifname description), swp2 a
// ConnectX firmware LLDP agent (MAC chassis and port IDs, no system name),
// swp31 a Cumulus switch (ifname port ID, interface alias description).
var wantLeaf = []Neighbor{
	{Interface: "swp1", Via: "LLDP", ChassisIDType: "mac", ChassisID: "00:00:5e:00:53:10", SysName: "gpu01",
		PortIDType: "mac", PortID: "00:00:5e:00:53:12", PortDescr: "ens1f0np0"},
	{Interface: "swp2", Via: "LLDP", ChassisIDType: "mac", ChassisID: "00:00:5e:00:53:22",
		PortIDType: "mac", PortID: "00:00:5e:00:53:22"},
	{Interface: "swp31", Via: "LLDP", ChassisIDType: "mac", ChassisID: "00:00:5e:00:53:f1", SysName: "spine01",
		PortIDType: "ifname", PortID: "swp1", PortDescr: "leaf01-uplink"},
}

func TestParseBothForms(t *testing.T) {
	for file, lines := range map[string][]int{
		"testdata/leaf-json0.json": {5, 66, 97},
		"testdata/leaf-json.json":  {5, 40, 60},
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Parse(file, data)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if got.File != file {
			t.Errorf("%s: File %q", file, got.File)
		}
		want := append([]Neighbor(nil), wantLeaf...)
		for i := range want {
			want[i].Line = lines[i]
		}
		if !reflect.DeepEqual(got.Neighbors, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", file, got.Neighbors, want)
		}
	}
}

// One neighbour in -f json: every list collapses, "interface" and
// "chassis" are keyed by name (test_json_output's expected value).
func TestParseJSONSingle(t *testing.T) {
	in := `{
  "lldp": {
    "interface": {
      "eth0": {
        "via": "LLDP",
        "rid": "1",
        "chassis": {
          "ns-2.example.com": {
            "id": {"type": "mac", "value": "00:00:5e:00:53:02"},
            "descr": "Spectacular GNU/Linux 2016",
            "mgmt-ip": "fe80::200:5eff:fe00:5302",
            "capability": [{"type": "Bridge", "enabled": false}, {"type": "Wlan", "enabled": false}]
          }
        },
        "port": {"id": {"type": "mac", "value": "00:00:5e:00:53:02"}, "descr": "eth1", "ttl": "120"}
      }
    }
  }
}
`
	got, err := Parse("lldp.json", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Neighbor{{Interface: "eth0", Via: "LLDP", ChassisIDType: "mac", ChassisID: "00:00:5e:00:53:02",
		SysName: "ns-2.example.com", PortIDType: "mac", PortID: "00:00:5e:00:53:02", PortDescr: "eth1", Line: 4}}
	if !reflect.DeepEqual(got.Neighbors, want) {
		t.Errorf("got %+v\nwant %+v", got.Neighbors, want)
	}
}

func TestParseNoNeighbours(t *testing.T) {
	// lldpcli with nothing to show: the lldp element is empty.
	for _, in := range []string{`{"lldp": [{}]}`, `{"lldp": {}}`, "{\n  \"lldp\": [\n    {\n    }\n  ]\n}\n"} {
		got, err := Parse("lldp.json", []byte(in))
		if err != nil || len(got.Neighbors) != 0 {
			t.Errorf("%s: %+v %v", in, got, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		line     int
		msg      string
	}{
		{"empty", "  \n", 1, "empty"},
		{"syntax", "{\n\"lldp\": [\n{,}\n]}", 3, "invalid JSON"},
		{"array root", "[\n]", 1, `want a JSON object with "lldp"`},
		{"no lldp", "{\n\"lldpd\": 1}", 1, `no "lldp"`},
		{"interface not object", "{\"lldp\": [{\"interface\": [\n\"swp1\"]}]}", 2, "interface: want an object"},
		{"no chassis", "{\"lldp\": [{\"interface\": [\n{\"name\": \"swp1\", \"port\": []}]}]}", 2, "neighbour without chassis"},
		{"no port", "{\"lldp\": [{\"interface\": [\n{\"name\": \"swp1\",\n\"chassis\": [{\"id\": [{\"type\": \"mac\", \"value\": \"00:00:5e:00:53:01\"}]}]}]}]}", 2, "neighbour without port"},
		{"port id without value", "{\"lldp\": [{\"interface\": [{\"name\": \"swp1\",\n\"chassis\": [{\"id\": [{\"type\": \"mac\", \"value\": \"00:00:5e:00:53:01\"}]}],\n\"port\": [{\"id\": [\n{\"type\": \"mac\"}]}]}]}]}", 4, "port id: want a type and a non-empty value"},
		{"empty name", "{\"lldp\": [{\"interface\": [{\n\"name\": [{\"value\": \"\"}]}]}]}", 2, "interface name"},
		{"json form not object", "{\"lldp\": {\"interface\": {\"swp1\":\n 3}}}", 2, `interface "swp1": want an object`},
		{"invalid utf-8", "{\"lldp\": {\"x\": \"\xff\"}}", 1, "UTF-8"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("lldp.json", []byte(tt.in))
			var se *source.Error
			if !errors.As(err, &se) {
				t.Fatalf("want a *source.Error, got %v", err)
			}
			if se.Pos.File != "lldp.json" || se.Pos.Line != tt.line || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("got %v (line %d), want line %d with %q", se, se.Pos.Line, tt.line, tt.msg)
			}
		})
	}
}
