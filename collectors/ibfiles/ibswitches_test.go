package ibfiles

import (
	"reflect"
	"strings"
	"testing"
)

// testdata/ibswitches.txt is in the shape the awk of linux-rdma/rdma-core
// infiniband-diags/scripts/ibswitches.in prints ("Switch\t: 0x<guid> ports
// N <desc> port 0 lid L lmc M", the desc keeping ibnetdiscover's quotes and
// its "enhanced"/"base" word), with our own GUIDs and LIDs; published
// output in that shape: `Switch  : 0x0010e08028c7a0a0 ports 36 "SUN DCS 36P
// QDR ..." enhanced port 0 lid 3 lmc 0`. sl2vl-switch.txt is `smpquery
// sl2vl 5 1` on a 65-port switch: one row per input port 0-65 towards
// output port 1 (infiniband-diags/smpquery.c sl2vl_table).
func TestIBSwitches(t *testing.T) {
	s, err := ParseIBSwitches("sw.txt", read(t, "ibswitches.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := []IBSwitch{
		{GUID: "0x0010e08028c7a0a0", Ports: 36, Desc: "SUN DCS 36P QDR sw-iba0 10.0.0.6", LID: 3, Line: 2},
		{GUID: "0xfc6a1c0300a1b2c4", Ports: 65, Desc: "MF0;ib-leaf01:MQM9700/U1", Enhanced: true, LID: 5, Line: 1},
	}
	if !reflect.DeepEqual(s.Switches, want) {
		t.Errorf("got %+v", s.Switches)
	}
	if s, err := ParseIBSwitches("sw.txt", nil); err != nil || len(s.Switches) != 0 {
		t.Errorf("empty: %v %v", s, err)
	}
	for _, bad := range []string{
		"ibwarn: [123] mad_rpc_open_port: can't open UMAD port ((null):0)",
		"Switch\t: 0xfc6a1c0300a1b2c4 ports 65 MF0 enhanced port 0 lid 5 lmc 0",
		"Switch\t: 0xfc6a1c0300a1b2c4 ports 65 \"x\" enhanced port 0 lid 0 lmc 0",
		"Switch\t: 0xfc6a1c0300a1b2c4 ports 65 \"x\" enhanced port 0 lid 5",
		"Switch\t: 0xfc6a1c0300a1b2c4 ports 65 \"x\" port 0 lid 5 lmc 0\nSwitch\t: 0xfc6a1c0300a1b2c5 ports 65 \"y\" port 0 lid 5 lmc 0",
	} {
		if _, err := ParseIBSwitches("sw.txt", []byte("\n"+bad)); err == nil || !strings.Contains(err.Error(), "sw.txt:") {
			t.Errorf("%q: err = %v", bad, err)
		}
	}
}

func TestSL2VLSwitch(t *testing.T) {
	s, err := ParseSL2VL("s.txt", read(t, "sl2vl-switch.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if s.PortID != "Lid 5" || len(s.Rows) != 66 || s.Rows[3].In != 3 || s.Rows[3].Out != 1 || s.Rows[3].VL[9] != 1 || s.Rows[3].Line != 6 {
		t.Errorf("%+v", s.Rows[3])
	}
}

func TestPortInfoLinkState(t *testing.T) {
	p, err := ParsePortInfo("pi.txt", []byte("# Port info: Lid 5 port 2\nLinkState:.......................Down\nOperVLs:.........................VL0-7\n"))
	if err != nil || p.LinkState != "Down" || p.PortID != "Lid 5" || p.Port != 2 {
		t.Errorf("%+v %v", p, err)
	}
}

func FuzzIBSwitches(f *testing.F) {
	seed(f, "ibswitches.txt")
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseIBSwitches("f", b)
		if err != nil {
			return
		}
		for _, w := range s.Switches {
			if w.LID < 1 || w.Ports < 1 || len(w.GUID) != 18 {
				t.Fatalf("%+v", w)
			}
		}
	})
}
