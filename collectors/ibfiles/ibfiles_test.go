package ibfiles

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// The fixtures in testdata are our own values in the exact shapes of:
// opensm.conf: linux-rdma/opensm opensm/osm_subnet.c (osm_subn_output_conf,
// subn_dump_qos_options) and doc/QoS_management_in_OpenSM.txt §7 (whose
// example CA/switch values they use); sl2vl-hca.txt, vlarb-hca.txt,
// portinfo-hca.txt: linux-rdma/rdma-core infiniband-diags/smpquery.c with
// libibmad/dump.c mad_dump_sltovl, mad_dump_vlarbitration ("0x%-2X|"),
// mad_dump_opervls and libibmad/fields.c _mad_dump_field; ibstat.txt:
// rdma-core infiniband-diags/ibstat.c ca_dump/port_dump.

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestOpenSMConf(t *testing.T) {
	c, err := ParseOpenSMConf("opensm.conf", read(t, "opensm.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if c.QoS == nil || c.QoS.Value != "TRUE" || c.QoS.Line != 4 {
		t.Errorf("qos = %+v", c.QoS)
	}
	def := c.Sets[ClassDefault]
	// "(null)" is how opensm -c writes an unset string: unset.
	if def.VLArbHigh != nil || def.SL2VL != nil {
		t.Errorf("(null) taken as a value: %+v", def)
	}
	ca := c.Sets[ClassCA]
	if ca.HighLimit.Value != "6" || ca.VLArbLow.Value != "0:0,1:64,2:128,3:192,4:0,5:64,6:64,7:64" || ca.SL2VL.Line != 21 {
		t.Errorf("ca = %+v %+v %+v", ca.HighLimit, ca.VLArbLow, ca.SL2VL)
	}
	swe := c.Sets[ClassSWE]
	if swe.VLArbHigh.Value != "0:4" || swe.SL2VL.Value != "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7" {
		t.Errorf("swe quotes/comment/tab: %+v %+v", swe.VLArbHigh, swe.SL2VL)
	}
	if c.Sets[ClassSW0].MaxVLs != nil {
		t.Error("sw0 set although absent")
	}
	if c.PolicyFile == nil || c.PolicyFile.Value != "/etc/opensm/qos-policy.conf" || c.PolicyFile.Line != 7 {
		t.Errorf("qos_policy_file = %+v", c.PolicyFile)
	}
	if c, _ := ParseOpenSMConf("f", []byte("qos_policy_file (null)\n")); c.PolicyFile != nil {
		t.Errorf("(null) qos_policy_file = %+v", c.PolicyFile)
	}
}

func TestOpenSMConfErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"qos maybe\n", "opensm.conf:1: qos \"maybe\": want TRUE or FALSE"},
		{"\nqos_ca_sl2vl 0,1,2\n", "opensm.conf:2: qos_ca_sl2vl \"0,1,2\": want 16 VLs"},
		{"qos_swe_vlarb_low 0:0,15:4\n", "opensm.conf:1: qos_swe_vlarb_low"},
		{"qos_max_vls 16\n", "want 1-15"},
		{"qos_rtr_high_limit x\n", "want 0-255"},
	} {
		_, err := ParseOpenSMConf("opensm.conf", []byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.in, err, tc.want)
		}
	}
	// Unknown keys are ignored, as OpenSM only logs them.
	if _, err := ParseOpenSMConf("f", []byte("sweep_interval 10\nqos_foo 1\n")); err != nil {
		t.Error(err)
	}
}

func TestLists(t *testing.T) {
	// The defaults of include/opensm/osm_base.h.
	e, msg := ParseVLArbList("0:0,1:4,2:4,3:4,4:4,5:4,6:4,7:4,8:4,9:4,10:4,11:4,12:4,13:4,14:4")
	if msg != "" || len(e) != 15 || e[1] != (VLArbEntry{1, 4}) || e[0].Weight != 0 {
		t.Errorf("%v %s", e, msg)
	}
	sl, msg := ParseSL2VLList("0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7")
	if msg != "" || sl[15] != 7 || sl[14] != 14 {
		t.Errorf("%v %s", sl, msg)
	}
}

func TestSL2VL(t *testing.T) {
	s, err := ParseSL2VL("sl2vl.txt", read(t, "sl2vl-hca.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := SL2VLRow{In: 0, Out: 0, VL: [16]int{0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7}, Line: 3}
	if s.PortID != "Lid 3" || len(s.Rows) != 1 || s.Rows[0] != want {
		t.Errorf("%+v", s)
	}
	for _, bad := range []string{
		"",
		"# SL2VL table: Lid 3\nports: in  0, out  0: | 0| 1|\n",
		"# SL2VL table: Lid 3\nports: in  0, out  0: | 0| 1| 2| 3| 4| 5| 6| 7| 0| 1| 2| 3| 4| 5| 6|16|\n",
		"# SL2VL table: Lid 3\nslvl query failed\n",
	} {
		if _, err := ParseSL2VL("f", []byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestVLArb(t *testing.T) {
	v, err := ParseVLArb("vlarb.txt", read(t, "vlarb-hca.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if v.PortID != "Lid 3" || v.Port != 0 || v.LowCap != 8 || v.HighCap != 8 || len(v.Low) != 8 || len(v.High) != 8 {
		t.Fatalf("%+v", v)
	}
	if v.Low[3] != (VLArbEntry{3, 192}) || v.Low[4] != (VLArbEntry{4, 0}) || v.High[0] != (VLArbEntry{0, 4}) {
		t.Errorf("low %v high %v", v.Low, v.High)
	}
	// A table over 32 entries continues after an empty line (smpquery.c
	// vlarb_dump_table calls the dump twice).
	row := "VL    : |" + strings.Repeat("0x1 |", 32) + "\nWEIGHT: |" + strings.Repeat("0x40|", 32) + "\n"
	two := "# VLArbitration tables: Lid 9 port 1 LowCap 40 HighCap 0\n# Low priority VL Arbitration Table:\n" +
		row + "\n" + "VL    : |" + strings.Repeat("0x2 |", 8) + "\nWEIGHT: |" + strings.Repeat("0x0 |", 8) + "\n"
	v, err = ParseVLArb("f", []byte(two))
	if err != nil || len(v.Low) != 40 || v.Low[39] != (VLArbEntry{2, 0}) || len(v.High) != 0 {
		t.Errorf("%v %+v", err, v)
	}
	for _, bad := range []string{
		"",
		"# VLArbitration tables: Lid 3 port 0 LowCap 8\n",
		"# VLArbitration tables: Lid 3 port 0 LowCap 8 HighCap 8\n# Low priority VL Arbitration Table:\nVL    : |0x0 |\n",
		"# VLArbitration tables: Lid 3 port 0 LowCap 8 HighCap 8\n# Low priority VL Arbitration Table:\nVL    : |0x0 |0x1 |\nWEIGHT: |0x0 |\n",
		"# VLArbitration tables: Lid 3 port 0 LowCap 8 HighCap 8\n# Low priority VL Arbitration Table:\nVL    : |0x10|\nWEIGHT: |0x0 |\n",
	} {
		if _, err := ParseVLArb("f", []byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestPortInfo(t *testing.T) {
	p, err := ParsePortInfo("pi.txt", read(t, "portinfo-hca.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if p.PortID != "Lid 3" || p.Port != 1 || p.OperVLs != 8 || p.OperVLsLine != 9 || p.VLHighLimit != 6 {
		t.Errorf("%+v", p)
	}
	if _, err := ParsePortInfo("pi.txt", []byte("# Port info: Lid 3 port 1\nOperVLs:.........................VL0-5\n")); err == nil || !strings.Contains(err.Error(), "pi.txt:2:") {
		t.Errorf("err = %v", err)
	}
}

func TestIBStat(t *testing.T) {
	s, err := ParseIBStat("ibstat.txt", read(t, "ibstat.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := []IBStatPort{
		{CA: "mlx5_0", NodeGUID: "0x0c42a10300aa0001", Port: 1, State: "Active", BaseLID: 3, LinkLayer: "InfiniBand", Line: 8},
		{CA: "mlx5_1", NodeGUID: "0x0c42a10300aa0002", Port: 1, State: "Active", BaseLID: 0, LinkLayer: "Ethernet", Line: 25},
	}
	if !reflect.DeepEqual(s.Ports, want) {
		t.Errorf("%+v", s.Ports)
	}
	// ca_dump prints the node GUID as 0x%016 PRIx64; anything else is
	// not ibstat's.
	_, err = ParseIBStat("f", []byte("CA 'mlx5_0'\n\tNode GUID: 0xzz\n\tPort 1:\n"))
	if err == nil || !strings.Contains(err.Error(), "f:2: Node GUID") {
		t.Errorf("bad GUID: %v", err)
	}
	if _, err := ParseIBStat("f", []byte("\tPort 1:\n")); err == nil {
		t.Error("a port outside a CA accepted")
	}
}

// routing_engine in the shape osm_subnet.c writes it ("# Routing
// engine" then "routing_engine %s", "(null)" when unset), with the AR
// engine NVIDIA's bring-up guide names (docs.nvidia.com/networking/display/
// ibclusterbringupprocedure/adaptive+routing: default ar_updn).
func TestOpenSMRoutingEngine(t *testing.T) {
	c, err := ParseOpenSMConf("opensm.conf", read(t, "opensm.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if r := c.RoutingEngine; r == nil || r.Value != "ar_updn,updn" || r.Line != 31 {
		t.Errorf("routing_engine = %+v", r)
	}
	for in, want := range map[string]string{
		"routing_engine (null)\n": "", "# routing_engine ftree\n": "", "routing_engine \"ftree\"\n": "ftree",
		"routing_engine\n": "", "routing_engine minhop\nrouting_engine updn\n": "updn",
	} {
		c, err := ParseOpenSMConf("opensm.conf", []byte(in))
		got := ""
		if err == nil && c.RoutingEngine != nil {
			got = c.RoutingEngine.Value
		}
		if err != nil || got != want {
			t.Errorf("%q: %q (%v), want %q", in, got, err, want)
		}
	}
}
