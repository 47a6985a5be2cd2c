package sonicmodel

import (
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/sonic/configdb"
)

// A port outside the checked ones gets from AddPort what the builder
// gives a checked port, and the problems its reading raises there, not in
// Switch's: a QoS only such ports read reports its problems to the first
// AddPort that gives it (Ethernet8), not again (Ethernet12); a checked
// port named by its alias is given again, its mtu's problem again.
func TestAddPortOutside(t *testing.T) {
	cfg, err := configdb.Parse("config_db.json", []byte(`{
  "PORT": {
    "Ethernet0": {"admin_status": "up", "alias": "etp1", "mtu": "9100"},
    "Ethernet4": {"admin_status": "up", "alias": "etp2", "mtu": "x"},
    "Ethernet8": {"alias": "etp3", "speed": "400000"},
    "Ethernet12": {"alias": "etp4"}
  },
  "PORT_QOS_MAP": {
    "Ethernet8": {"dscp_to_tc_map": "MISSING"},
    "Ethernet12": {"dscp_to_tc_map": "MISSING"}
  },
  "PFC_WD": {"Ethernet8": {"action": "drop"}},
  "SWITCH_HASH": {"GLOBAL": {"ecmp_hash": ["SRC_IP"]}}
}`))
	if err != nil {
		t.Fatal(err)
	}
	sw, problems := Switch("leaf01", "leaf", cfg, nil)
	if len(problems) != 1 || !strings.Contains(problems[0].Msg, `mtu "x"`) {
		t.Fatalf("Switch's problems %v, want only Ethernet4's mtu", problems)
	}
	for _, n := range sw.Notes {
		if strings.Contains(n.Msg, "MISSING") {
			t.Errorf("Switch's note %q is an outside port's", n.Msg)
		}
	}
	cp := sw.ConfigPorts()
	if got := strings.Join(cp.Interfaces(), ","); got != "Ethernet0,Ethernet4,Ethernet8,Ethernet12" {
		t.Errorf("Interfaces %s", got)
	}
	port, ps := cp.AddPort(sw, "Ethernet8")
	if port != "Ethernet8" || len(ps) != 1 || !strings.Contains(ps[0].Msg, "DSCP_TO_TC_MAP|MISSING") {
		t.Errorf("AddPort(Ethernet8) = %s %v, want the undefined map", port, ps)
	}
	q := sw.PortQoS.At("Ethernet8")
	if q == nil || sw.MTU.At("Ethernet8").V != 9100 || sw.Flow.Speed["Ethernet8"].V != "400G" || !sw.Flow.Watchdog.At("Ethernet8").V {
		t.Errorf("Ethernet8: QoS %v, MTU %v, speed %v, watchdog %v", q != nil, sw.MTU.At("Ethernet8"), sw.Flow.Speed["Ethernet8"], sw.Flow.Watchdog.At("Ethernet8"))
	}
	if port, ps := cp.AddPort(sw, "etp4"); port != "Ethernet12" || len(ps) != 0 || sw.PortQoS.At("Ethernet12") != q {
		t.Errorf("AddPort(etp4) = %s %v, shared QoS %v: want Ethernet12, no problem, Ethernet8's QoS", port, ps, sw.PortQoS.At("Ethernet12") == q)
	}
	if port, ps := cp.AddPort(sw, "etp2"); port != "Ethernet4" || len(ps) != 1 || ps[0] == problems[0] || *ps[0] != *problems[0] {
		t.Errorf("AddPort(etp2) = %s %v, want Ethernet4 and its mtu's problem again", port, ps)
	}
	if port, ps := cp.AddPort(sw, "Ethernet99"); port != "" || ps != nil {
		t.Errorf("AddPort(Ethernet99) = %q %v", port, ps)
	}
	if _, light := cp.(*outsidePorts); !light {
		t.Error("the switch keeps its builder, and with it the configuration's tables")
	}
}

// The QoS of ports that bind one DSCP map read its table once and copy
// it; each still reports the map's problems, as a reading of its own did:
// three QoS (the global one and two cable lengths), three problems.
func TestSharedDSCPTable(t *testing.T) {
	cfg, err := configdb.Parse("config_db.json", []byte(`{
  "PORT": {
    "Ethernet0": {"admin_status": "up"},
    "Ethernet4": {"admin_status": "up"}
  },
  "PORT_QOS_MAP": {
    "global": {"dscp_to_tc_map": "ROCE"},
    "Ethernet0": {"dscp_to_tc_map": "ROCE"},
    "Ethernet4": {"dscp_to_tc_map": "ROCE"}
  },
  "DSCP_TO_TC_MAP": {"ROCE": {"26": "3", "48": "x"}},
  "CABLE_LENGTH": {"AZURE": {"Ethernet0": "5m", "Ethernet4": "40m"}},
  "SWITCH_HASH": {"GLOBAL": {"ecmp_hash": ["SRC_IP"]}}
}`))
	if err != nil {
		t.Fatal(err)
	}
	sw, problems := Switch("leaf01", "leaf", cfg, nil)
	n := 0
	for _, p := range problems {
		if strings.Contains(p.Msg, `"x" is not a number`) {
			n++
		}
	}
	q0, q4 := sw.PortQoS.At("Ethernet0"), sw.PortQoS.At("Ethernet4")
	if n != 3 || q0 == q4 || q0.DSCP.At(26).V != 3 || q4.DSCP.At(26) != q0.DSCP.At(26) || sw.Global.DSCP.At(48) != q4.DSCP.At(48) {
		t.Errorf("%d problems of DSCP 48 (want 3); DSCP 26 %v and %v", n, q0.DSCP.At(26), q4.DSCP.At(26))
	}
}
