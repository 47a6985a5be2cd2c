package gcu

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/collectors/sonic/configdb"
	"github.com/qoslint/qoslint/render"
)

// base is a leaf's QoS tables in the shape sonic-cfggen prints them, cut
// from examples/sonic-pod (whose maps follow sonic-buildimage's
// files/build_templates/qos_config.j2 and buffers_config.j2 names).
const base = `{
    "DEVICE_METADATA": {"localhost": {"buffer_model": "dynamic", "hwsku": "Mellanox-SN5600-O128"}},
    "PORT": {"Ethernet0": {"speed": "400000", "mtu": "9100"}, "Ethernet4": {"speed": "400000"}},
    "PORT_QOS_MAP": {
        "global": {"dscp_to_tc_map": "ROCE"},
        "Ethernet0": {"pfc_enable": "4", "tc_to_queue_map": "AZURE", "pfcwd_sw_enable": ""},
        "Ethernet4": {"pfc_enable": "3", "tc_to_queue_map": "AZURE"}
    },
    "DSCP_TO_TC_MAP": {"ROCE": {"26": "1", "48": "6"}},
    "TC_TO_QUEUE_MAP": {"AZURE": {"3": "3", "6": "6"}},
    "QUEUE": {
        "Ethernet0|0-2": {"scheduler": "scheduler.0"},
        "Ethernet0|3": {"scheduler": "scheduler.1"},
        "Ethernet0|4-6": {"scheduler": "scheduler.0"},
        "Ethernet4|3": {"scheduler": "scheduler.1", "wred_profile": "AZURE_LOSSLESS"}
    },
    "SCHEDULER": {"scheduler.0": {"type": "DWRR", "weight": "14"}, "scheduler.1": {"type": "DWRR", "weight": "15"}},
    "WRED_PROFILE": {"AZURE_LOSSLESS": {"ecn": "ecn_all", "wred_green_enable": "true", "green_min_threshold": "2000000", "green_max_threshold": "10000000"}},
    "BUFFER_PG": {"Ethernet4|3": {"profile": "NULL"}},
    "CABLE_LENGTH": {"AZURE": {"Ethernet4": "40m"}},
    "PFC_WD": {"Ethernet4": {"action": "drop", "detection_time": "200", "restoration_time": "200"}}
}`

func write(t *testing.T, cfg string, sets ...checks.Setting) Patch {
	t.Helper()
	c, err := configdb.Parse("config_db.json", []byte(cfg))
	if err != nil {
		t.Fatal(err)
	}
	var p render.Plan
	for i := range sets {
		p.Changes = append(p.Changes, checks.Change{Kind: checks.SwitchSetting, Set: &sets[i]})
	}
	return Write(p, c)
}

func compact(t *testing.T, ops []Op) string {
	t.Helper()
	b, err := json.Marshal(ops)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWrite(t *testing.T) {
	e0 := []string{"Ethernet0"}
	for _, tc := range []struct {
		name  string
		cfg   string
		sets  []checks.Setting
		ops   string
		notes []string
	}{
		{"a map entry is replaced in the map the port uses (global's)", base,
			[]checks.Setting{{Aspect: checks.DSCPPriority, Ports: e0, Key: 26, Value: 3}},
			`[{"op":"replace","path":"/DSCP_TO_TC_MAP/ROCE/26","value":"3"}]`, nil},
		{"a missing entry is added", base,
			[]checks.Setting{{Aspect: checks.DSCPPriority, Ports: e0, Key: 24, Value: 3}},
			`[{"op":"add","path":"/DSCP_TO_TC_MAP/ROCE/24","value":"3"}]`, nil},
		{"PFC moves, and the dynamic model gets the new priority's PG", base,
			[]checks.Setting{{Aspect: checks.PFCPriority, Ports: e0, Key: 3, On: true}, {Aspect: checks.PFCPriority, Ports: e0, Key: 4}},
			`[{"op":"add","path":"/BUFFER_PG/Ethernet0|3","value":{"profile":"NULL"}},{"op":"replace","path":"/PORT_QOS_MAP/Ethernet0/pfc_enable","value":"3"}]`, nil},
		{"a queue without WRED takes the profile other ports' queue uses", base,
			[]checks.Setting{{Aspect: checks.QueueECN, Ports: e0, Key: 3, On: true}},
			`[{"op":"add","path":"/QUEUE/Ethernet0|3/wred_profile","value":"AZURE_LOSSLESS"}]`, nil},
		{"a strict class in a range row: a new scheduler, and a note", base,
			[]checks.Setting{{Aspect: checks.QueueStrict, Ports: e0, Key: 6}},
			`[{"op":"add","path":"/SCHEDULER/qoslint.strict","value":{"type":"STRICT"}},{"op":"replace","path":"/QUEUE/Ethernet0|4-6/scheduler","value":"qoslint.strict"}]`,
			[]string{"QUEUE|Ethernet0|4-6 covers more queues than 6"}},
		// Six other queues at 14 (84): 50% needs 84.
		{"a share needs a weight beside the others'", base,
			[]checks.Setting{{Aspect: checks.QueueShare, Ports: e0, Key: 3, Value: 50}},
			`[{"op":"add","path":"/SCHEDULER/qoslint.dwrr84","value":{"type":"DWRR","weight":"84"}},{"op":"replace","path":"/QUEUE/Ethernet0|3/scheduler","value":"qoslint.dwrr84"}]`, nil},
		{"a share no weight reaches", base,
			[]checks.Setting{{Aspect: checks.QueueShare, Ports: e0, Key: 3, Value: 60}},
			`null`, []string{"needs a weight above SCHEDULER's 100"}},
		{"the watchdog: a row, and pfcwd_sw_enable's empty list filled", base,
			[]checks.Setting{{Aspect: checks.PFCWatchdog, Ports: e0, On: true}},
			`[{"op":"add","path":"/PFC_WD/Ethernet0","value":{"action":"drop","detection_time":"200","restoration_time":"200"}},{"op":"replace","path":"/PORT_QOS_MAP/Ethernet0/pfcwd_sw_enable","value":"4"}]`, nil},
		{"the hash: a table the switch lacks is added whole", base,
			[]checks.Setting{{Aspect: checks.ECMPHashField, Ports: e0, Field: "source-port", On: true}},
			`[{"op":"add","path":"/SWITCH_HASH","value":{"GLOBAL":{"ecmp_hash":["L4_SRC_PORT"]}}}]`, nil},
		{"the cable length goes into the row that has the others", base,
			[]checks.Setting{{Aspect: checks.CableLength, Ports: e0, Value: 40}},
			`[{"op":"add","path":"/CABLE_LENGTH/AZURE/Ethernet0","value":"40m"}]`, nil},
		{"two MTUs for one port: the larger", base,
			[]checks.Setting{{Aspect: checks.PortMTU, Ports: e0, Value: 9216}, {Aspect: checks.PortMTU, Ports: e0, Value: 9000}},
			`[{"op":"replace","path":"/PORT/Ethernet0/mtu","value":"9216"}]`, nil},
		{"traditional model without the profile buffermgrd would name: a note, no op",
			strings.Replace(base, `"buffer_model": "dynamic"`, `"buffer_model": "traditional"`, 1),
			[]checks.Setting{{Aspect: checks.LosslessPG, Ports: []string{"Ethernet4"}, Key: 3}},
			`null`, []string{"BUFFER_PROFILE|pg_lossless_400000_40m_profile is not in the configuration", "config qos reload --ports Ethernet4"}},
		{"traditional model with it", strings.Replace(strings.Replace(base, `"buffer_model": "dynamic"`, `"buffer_model": "traditional"`, 1),
			`"BUFFER_PG"`, `"BUFFER_PROFILE": {"pg_lossless_400000_40m_profile": {"pool": "ingress_lossless_pool", "xoff": "1000", "size": "2000"}}, "BUFFER_PG"`, 1),
			[]checks.Setting{{Aspect: checks.LosslessPG, Ports: []string{"Ethernet4"}, Key: 3}},
			`[{"op":"replace","path":"/BUFFER_PG/Ethernet4|3/profile","value":"pg_lossless_400000_40m_profile"}]`, nil},
		{"802.1p without a bound map", base,
			[]checks.Setting{{Aspect: checks.PCPPriority, Ports: e0, Key: 3, Value: 3}},
			`null`, []string{"binds no DOT1P_TO_TC_MAP"}},
		{"a multi-ASIC switch", `{"localhost": {"DEVICE_METADATA": {"localhost": {}}}, "asic0": {"PORT": {"Ethernet0": {}}}}`,
			[]checks.Setting{{Aspect: checks.PortMTU, Ports: e0, Value: 9100}},
			`null`, []string{"multi-ASIC"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := write(t, tc.cfg, tc.sets...)
			if got := compact(t, p.Ops); got != tc.ops {
				t.Errorf("ops\n%s\nwant\n%s", got, tc.ops)
			}
			notes := strings.Join(p.Notes, "\n")
			for _, n := range tc.notes {
				if !strings.Contains(notes, n) {
					t.Errorf("notes %q lack %q", p.Notes, n)
				}
			}
			if len(tc.notes) == 0 && len(p.Notes) > 0 {
				t.Errorf("notes %q", p.Notes)
			}
		})
	}
}

// An empty patch is an empty JSON array, which apply-patch reads.
func TestPatchJSONEmpty(t *testing.T) {
	b, err := Patch{}.JSON()
	if err != nil || string(b) != "[]\n" {
		t.Errorf("%q %v", b, err)
	}
}
