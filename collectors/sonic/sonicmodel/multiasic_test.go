package sonicmodel

import (
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/sonic/configdb"
)

// A multi-ASIC switch's `show runningconfiguration all` (the shape of
// sonic-net/sonic-utilities show/main.py, def all): each asic<N>'s ports
// are judged with that namespace's own tables, the metadata comes from
// localhost, and backplane ports (role Int) are not checked.
const multiASIC = `{
    "localhost": {
        "DEVICE_METADATA": {"localhost": {"hwsku": "Mellanox-SN5600-O128", "platform": "x86_64-nvidia_sn5600-r0", "buffer_model": "dynamic"}}
    },
    "asic0": {
        "DEVICE_METADATA": {"localhost": {"asic_name": "asic0"}},
        "PORT": {
            "Ethernet0": {"admin_status": "up", "alias": "etp1a", "lanes": "0,1,2,3", "speed": "400000", "mtu": "9100"},
            "Ethernet-BP0": {"admin_status": "up", "role": "Int", "lanes": "64,65,66,67", "speed": "400000"}
        },
        "DSCP_TO_TC_MAP": {"ROCE": {"26": "3"}},
        "PORT_QOS_MAP": {"Ethernet0": {"dscp_to_tc_map": "ROCE", "pfc_enable": "3"}},
        "bgpraw": "!\n"
    },
    "asic1": {
        "PORT": {
            "Ethernet8": {"admin_status": "up", "alias": "etp2a", "lanes": "8,9,10,11", "speed": "400000", "mtu": "9100"}
        },
        "DSCP_TO_TC_MAP": {"ROCE": {"26": "1"}},
        "PORT_QOS_MAP": {"Ethernet8": {"dscp_to_tc_map": "ROCE", "pfc_enable": "3"}}
    }
}
`

func TestMultiASIC(t *testing.T) {
	cfg, err := configdb.Parse("config_db.json", []byte(multiASIC))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Shape != configdb.MultiASIC {
		t.Fatalf("shape %q", cfg.Shape)
	}
	sw, problems := Switch("spine01", "spine", cfg, nil)
	if len(problems) > 0 {
		t.Fatalf("problems %v", problems)
	}
	if got := strings.Join(sw.Ports, ","); got != "Ethernet0,Ethernet8" {
		t.Fatalf("ports %q, want Ethernet0,Ethernet8 (Ethernet-BP0 is a backplane port)", got)
	}
	line := func(sub string, nth int) int {
		seen := 0
		for i, l := range strings.Split(multiASIC, "\n") {
			if strings.Contains(l, sub) {
				if seen++; seen == nth {
					return i + 1
				}
			}
		}
		return 0
	}
	for _, c := range []struct {
		port     string
		tc, line int
	}{{"Ethernet0", 3, line(`"26": "3"`, 1)}, {"Ethernet8", 1, line(`"26": "1"`, 1)}} {
		v := sw.PortQoS.At(c.port).DSCP.At(26)
		if v.V != c.tc || v.Origin.Pos().Line != c.line {
			t.Errorf("%s DSCP 26 → %d at line %d, want %d at line %d", c.port, v.V, v.Origin.Pos().Line, c.tc, c.line)
		}
	}
	if sw.Flow.Platform != "SN5600" || sw.Buffers.Model.V != "dynamic" {
		t.Errorf("platform %q, buffer model %q: localhost's metadata", sw.Flow.Platform, sw.Buffers.Model.V)
	}
}
