package preview

import (
	"encoding/json"
	"slices"
	"testing"
)

// buffermgrd keys its PGs as orchagent's generateIdListFromMap does
// (sonic-net/sonic-swss orchagent/orch.cpp): runs of bits as "lo-hi".
func TestPGRanges(t *testing.T) {
	for in, want := range map[string][]string{
		"3": {"3"}, "3,4": {"3-4"}, "4,3": {"3-4"}, "0,2,3,4,7": {"0", "2-4", "7"}, "": nil, "x,3": {"3"},
	} {
		if got := pgRanges(in); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// The traditional buffer manager gives a port's new lossless priority its
// PG when the profile it names for the port's speed and cable exists; it
// does nothing in the dynamic model, nor without the profile.
func TestBuffermgrd(t *testing.T) {
	cfg := func(model, pfc string, profile bool) []byte {
		db := map[string]map[string]map[string]any{
			"DEVICE_METADATA": {"localhost": {"buffer_model": model}},
			"PORT":            {"Ethernet0": {"speed": "400000"}},
			"PORT_QOS_MAP":    {"Ethernet0": {"pfc_enable": pfc}},
			"CABLE_LENGTH":    {"AZURE": {"Ethernet0": "40m"}},
			"BUFFER_PG":       {"Ethernet0|4": {"profile": "pg_lossless_400000_40m_profile"}},
		}
		if profile {
			db["BUFFER_PROFILE"] = map[string]map[string]any{"pg_lossless_400000_40m_profile": {"xoff": "1"}}
		}
		b, _ := json.Marshal(db)
		return b
	}
	withBGP := func(b []byte) []byte {
		var top map[string]any
		if err := json.Unmarshal(b, &top); err != nil {
			t.Fatal(err)
		}
		top["bgpraw"] = "router bgp 65100\n"
		out, _ := json.Marshal(top)
		return out
	}
	for _, tc := range []struct {
		name        string
		before, aft []byte
		want        []string
	}{
		// show runningconfiguration all adds FRR's text as bgpraw.
		{"beside bgpraw", withBGP(cfg("traditional", "4", true)), withBGP(cfg("traditional", "3", true)), []string{"Ethernet0|3", "Ethernet0|4"}},
		{"traditional", cfg("traditional", "4", true), cfg("traditional", "3", true), []string{"Ethernet0|3", "Ethernet0|4"}},
		{"two priorities", cfg("traditional", "4", true), cfg("traditional", "3,4", true), []string{"Ethernet0|3-4", "Ethernet0|4"}},
		{"no profile", cfg("traditional", "4", false), cfg("traditional", "3", false), []string{"Ethernet0|4"}},
		{"dynamic", cfg("dynamic", "4", true), cfg("dynamic", "3", true), []string{"Ethernet0|4"}},
	} {
		out, err := buffermgrd(tc.before, tc.aft)
		if err != nil {
			t.Fatal(err)
		}
		var db map[string]json.RawMessage
		if err := json.Unmarshal(out, &db); err != nil {
			t.Fatal(err)
		}
		var pgs map[string]any
		if err := json.Unmarshal(db["BUFFER_PG"], &pgs); err != nil {
			t.Fatal(err)
		}
		if tc.name == "beside bgpraw" && string(db["bgpraw"]) != `"router bgp 65100\n"` {
			t.Errorf("bgpraw %s", db["bgpraw"])
		}
		var got []string
		for k := range pgs {
			got = append(got, k)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: BUFFER_PG %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A flat redis dump (sonic-net/sonic-utilities tests/mock_tables/
// config_db.json's shape) is written nested for the patch's paths.
func TestNested(t *testing.T) {
	out, err := nested([]byte(`{"PORT|Ethernet0": {"mtu": "9100"}, "QUEUE|Ethernet0|3": {"scheduler": "s"}}`))
	if err != nil {
		t.Fatal(err)
	}
	var db map[string]map[string]map[string]string
	if err := json.Unmarshal(out, &db); err != nil {
		t.Fatal(err)
	}
	if db["PORT"]["Ethernet0"]["mtu"] != "9100" || db["QUEUE"]["Ethernet0|3"]["scheduler"] != "s" {
		t.Errorf("%s", out)
	}
	same := []byte(`{"PORT": {"Ethernet0": {}}}`)
	if out, _ := nested(same); string(out) != string(same) {
		t.Errorf("a nested file changed: %s", out)
	}
}
