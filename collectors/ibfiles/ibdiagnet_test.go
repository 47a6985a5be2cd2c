package ibfiles

import (
	"reflect"
	"strings"
	"testing"
)

// testdata/ibdiagnet/ibdiagnet2.db_csv holds our own values in the shape
// public readers of real files rely on: START_<NAME>/END_<NAME> framing
// and section names (ibutils2 ibdiag_types.h); the NODES header of a Rust
// loader's NodeRecord (NodeDesc ... LocalPortNum), NodeDesc quoted as in
// the db_csv fixtures of several Go parsers; the 54-column PORTS header of
// log_parser3000 internal/parser/sections/ports.go (same as that loader's
// PortRecord), N/A in the last four columns as the loader's
// deserialize_maybe_nan expects; LINKS as its LinkRecord; one PORTS row
// with spaces around values, which the smdb/db_csv Python parser strips.
// The VL_ARBITRATION_TABLE header is made up: the test shows it is
// refused, not read.

func TestDBCSV(t *testing.T) {
	d, err := ParseDBCSV("ibdiagnet2.db_csv", read(t, "ibdiagnet/ibdiagnet2.db_csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Order, []string{"NODES", "PORTS", "LINKS", "VL_ARBITRATION_TABLE"}) {
		t.Errorf("order %v", d.Order)
	}
	vl := d.Sections["VL_ARBITRATION_TABLE"]
	if vl.Line != 25 || vl.HeaderLine != 26 || len(vl.Rows) != 1 || vl.Rows[0].Fields[4] != "0:0,1:64" || vl.Rows[0].Line != 27 {
		t.Errorf("generic section %+v", vl)
	}

	nodes, err := d.Nodes()
	if err != nil {
		t.Fatal(err)
	}
	want := []DiagNode{
		{GUID: "0x0c42a10300aa0001", Desc: "h1 mlx5_0", Type: NodeCA, NumPorts: 1, Line: 3},
		{GUID: "0x0c42a10300aa0002", Desc: "MT4123 ConnectX6 Mellanox Technologies", Type: NodeCA, NumPorts: 1, Line: 5},
		{GUID: "0x0c42a10300aa0003", Desc: "MT4123 ConnectX6 Mellanox Technologies", Type: NodeCA, NumPorts: 1, Line: 6},
		{GUID: "0x0c42a10300bb0000", Desc: "MF0;leaf1:MQM8700/U1", Type: NodeSwitch, NumPorts: 41, Line: 4},
	}
	if !reflect.DeepEqual(nodes, want) {
		t.Errorf("nodes %+v", nodes)
	}

	ports, err := d.Ports()
	if err != nil {
		t.Fatal(err)
	}
	h1 := DiagPort{NodeGUID: "0x0c42a10300aa0001", PortGUID: "0x0c42a10300aa0001", Port: 1, LID: 3,
		OperVLs: 8, VLCap: 8, VLHighLimit: 6, VLArbHighCap: 8, VLArbLowCap: 8, Line: 11}
	if len(ports) != 6 || ports[0] != h1 {
		t.Errorf("ports[0] %+v", ports[0])
	}
	// OpVLs code 3 is VL0-3 (libibmad mad_dump_opervls), 2 is VL0-1.
	if sw2 := ports[5]; sw2.NodeGUID != "0x0c42a10300bb0000" || sw2.Port != 2 || sw2.OperVLs != 4 {
		t.Errorf("switch port 2 %+v", sw2)
	}
	if ports[2].OperVLs != 2 || ports[2].LID != 5 {
		t.Errorf("%+v", ports[2])
	}

	links, err := d.Links()
	if err != nil {
		t.Fatal(err)
	}
	wantL := []DiagLink{{"0x0c42a10300bb0000", 1, "0x0c42a10300aa0001", 1, 21}, {"0x0c42a10300bb0000", 2, "0x0c42a10300aa0002", 1, 22}}
	if !reflect.DeepEqual(links, wantL) {
		t.Errorf("links %+v", links)
	}

	_, err = d.VLArbitration()
	if err == nil || err.Error() != "ibdiagnet2.db_csv:26: section VL_ARBITRATION_TABLE layout not verified: columns NodeGUID,PortGUID,PortNum,Block,Entries; qoslint does not read it (no public ibdiagnet output or source shows what they hold)" {
		t.Errorf("VLArbitration err = %v", err)
	}
}

func TestSplitCSV(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		msg  string
	}{
		{`a,b,c`, []string{"a", "b", "c"}, ""},
		{` 0x1 , 4 ,N/A`, []string{"0x1", "4", "N/A"}, ""},
		{`"h1 mlx5_0",1`, []string{"h1 mlx5_0", "1"}, ""},
		{`"a, b" ,"say ""hi""",`, []string{"a, b", `say "hi"`, ""}, ""},
		{`"open,1`, nil, "unterminated quote"},
		{`"x"y,1`, nil, "text after a closing quote"},
		{`a"b,1`, nil, "a quote inside an unquoted field"},
	} {
		got, msg := splitCSV(tc.in)
		if msg != tc.msg || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %q %q, want %q %q", tc.in, got, msg, tc.want, tc.msg)
		}
	}
}

func TestDBCSVErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "db: no START_<SECTION> line"},
		{"garbage\n", "db:1: outside a START_/END_ section"},
		{"START_NODES\nA,B\n1,2\n", "db:1: section NODES has no END_NODES: file cut off"},
		{"START_NODES\nA,B\nEND_PORTS\n", "db:3: END_PORTS inside section NODES"},
		{"START_NODES\nA,B\nSTART_PORTS\n", "db:3: START_PORTS inside section NODES (opened line 1): END_NODES missing"},
		{"START_NODES\nA,B\n1,2,3\nEND_NODES\n", "db:3: section NODES: 3 fields, the header (line 2) has 2"},
		{"START_X\nA\nEND_X\nSTART_X\nA\nEND_X\n", "db:4: section X again (first at line 1)"},
		{"START_X\nA\n\"1\nEND_X\n", "db:3: section X: unterminated quote"},
	} {
		_, err := ParseDBCSV("db", []byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestDBCSVAccessorErrors(t *testing.T) {
	const nodesHdr = "NodeDesc,NumPorts,NodeType,NodeGUID\n"
	for _, tc := range []struct {
		in, want string
		call     func(*DBCSV) error
	}{
		{"START_LINKS\nNodeGuid1,PortNum1,NodeGuid2,PortNum2\nEND_LINKS\n", "db: no NODES section",
			func(d *DBCSV) error { _, err := d.Nodes(); return err }},
		{"START_NODES\nNodeDesc,NumPorts,NodeGUID\nEND_NODES\n", "db:2: section NODES has no NodeType column",
			func(d *DBCSV) error { _, err := d.Nodes(); return err }},
		{"START_NODES\n" + nodesHdr + "\"a\",1,7,0x1\nEND_NODES\n", "db:3: section NODES: NodeType \"7\": want 1-3",
			func(d *DBCSV) error { _, err := d.Nodes(); return err }},
		{"START_NODES\n" + nodesHdr + "\"a\",1,1,xyz\nEND_NODES\n", "db:3: section NODES: NodeGUID \"xyz\" is not a GUID",
			func(d *DBCSV) error { _, err := d.Nodes(); return err }},
		{"START_NODES\n" + nodesHdr + "\"a\",1,1,0x1\n\"b\",1,1,0x01\nEND_NODES\n", "db:4: section NODES: NodeGUID 0x0000000000000001 again (first at line 3)",
			func(d *DBCSV) error { _, err := d.Nodes(); return err }},
		{"START_PORTS\nNodeGuid,PortGuid,PortNum,LID,OpVLs\n0x1,0x1,1,3,9\nEND_PORTS\n", "db:3: section PORTS: OpVLs \"9\": want 0-5",
			func(d *DBCSV) error { _, err := d.Ports(); return err }},
		{"START_LINKS\nNodeGuid1,PortNum1,NodeGuid2,PortNum2\n0x1,300,0x2,1\nEND_LINKS\n", "db:3: section LINKS: PortNum1 \"300\": want 0-255",
			func(d *DBCSV) error { _, err := d.Links(); return err }},
		{"START_NODES\n" + nodesHdr + "END_NODES\n", "db: no VL_ARBITRATION_TABLE section",
			func(d *DBCSV) error { _, err := d.VLArbitration(); return err }},
	} {
		d, err := ParseDBCSV("db", []byte(tc.in))
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		if err := tc.call(d); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.in, err, tc.want)
		}
	}
	// Optional PORTS columns absent (an older, shorter header): -1 / 0.
	d, _ := ParseDBCSV("db", []byte("START_PORTS\nNodeGuid,PortGuid,PortNum,LID\n0x1,0x1,1,3\nEND_PORTS\n"))
	p, err := d.Ports()
	if err != nil || p[0].OperVLs != 0 || p[0].VLHighLimit != -1 || p[0].VLArbLowCap != -1 {
		t.Errorf("%v %+v", err, p)
	}
}

func TestSLVL(t *testing.T) {
	s, err := ParseSLVL("ibdiagnet2.slvl", read(t, "ibdiagnet/ibdiagnet2.slvl"))
	if err != nil {
		t.Fatal(err)
	}
	// ibdm's own example line: 0x0002c90000000201 5 1 0x01 0x23 0x45 0x67 0x89 0xab 0xcd 0xe7
	r, msg := slvlRow("0x0002c90000000201 5 1 0x01 0x23 0x45 0x67 0x89 0xab 0xcd 0xe7")
	want := SLVLRow{GUID: "0x0002c90000000201", In: 5, Out: 1, VL: [16]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 7}}
	if msg != "" || r != want {
		t.Errorf("ibdm example: %+v %s", r, msg)
	}
	if len(s.Rows) != 4 {
		t.Fatalf("%+v", s.Rows)
	}
	// Sorted by GUID, out port, in port.
	first := SLVLRow{GUID: "0x0c42a10300aa0001", In: 0, Out: 1, Line: 6}
	if s.Rows[0] != first || s.Rows[1].In != 0 || s.Rows[1].Out != 1 || s.Rows[1].VL[15] != 7 || s.Rows[1].VL[14] != 15 || s.Rows[3].Out != 2 {
		t.Errorf("%+v", s.Rows)
	}
	for _, tc := range []struct{ in, want string }{
		{"", "f: no \"0x<guid>"},
		{"# only a comment\n", "f: no"},
		{"0x1 1 2 0x01\n", "f:1: want \"0x<guid> <in port> <out port>\""},
		{"guid 1 2 0x01 0x23 0x45 0x67 0x01 0x23 0x45 0x67\n", "f:1: bad node GUID"},
		{"0x1 1 256 0x01 0x23 0x45 0x67 0x01 0x23 0x45 0x67\n", "f:1: bad port number"},
		{"0x1 1 2 0x01 0x23 0x45 0x67 0x01 0x23 0x45 0x6\n", "f:1: want 0x and two hex digits"},
		{"0x1 1 2 0x01 0x23 0x45 0x67 0x01 0x23 0x45 0x67\n0x01 1 2 0x01 0x23 0x45 0x67 0x01 0x23 0x45 0x67\n", "f:2: 0x0000000000000001 in 1 out 2 again (first at line 1)"},
	} {
		_, err := ParseSLVL("f", []byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestFromIBDiagnet(t *testing.T) {
	d, err := ParseDBCSV("ibdiagnet2.db_csv", read(t, "ibdiagnet/ibdiagnet2.db_csv"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := ParseSLVL("ibdiagnet2.slvl", read(t, "ibdiagnet/ibdiagnet2.slvl"))
	if err != nil {
		t.Fatal(err)
	}
	q, err := FromIBDiagnet(d, s)
	if err != nil {
		t.Fatal(err)
	}
	// Unique descriptions name their nodes; the two HCAs left at the
	// default description are named by GUID, with a note.
	if q.Names["0x0c42a10300aa0001"] != "h1 mlx5_0" || q.Names["0x0c42a10300aa0002"] != "0x0c42a10300aa0002" {
		t.Errorf("names %v", q.Names)
	}
	if len(q.Notes) != 1 || q.Notes[0].Pos.String() != "ibdiagnet2.db_csv:5" || !strings.Contains(q.Notes[0].Msg, "0x0c42a10300aa0002, 0x0c42a10300aa0003") {
		t.Errorf("notes %v", q.Notes)
	}
	pi := q.PortInfo[PortKey{"h1 mlx5_0", 1}]
	wantPI := &PortInfo{File: "ibdiagnet2.db_csv", PortID: "node 0x0c42a10300aa0001 lid 3", Port: 1,
		OperVLs: 8, OperVLsLine: 11, VLHighLimit: 6, VLHighLimitLine: 11}
	if !reflect.DeepEqual(pi, wantPI) {
		t.Errorf("portinfo %+v", pi)
	}
	if len(q.PortInfo) != 6 || q.PortInfo[PortKey{"0x0c42a10300aa0003", 1}].OperVLs != 2 {
		t.Errorf("portinfo %v", q.PortInfo)
	}
	// The switch's out port 1 holds rows for in ports 0 and 2, like
	// `smpquery sl2vl <lid> 1` prints them.
	sw := q.SL2VL[PortKey{"MF0;leaf1:MQM8700/U1", 1}]
	if sw == nil || len(sw.Rows) != 2 || sw.Rows[0].In != 0 || sw.Rows[1].In != 2 || sw.Rows[1].Line != 4 || sw.File != "ibdiagnet2.slvl" {
		t.Fatalf("switch %+v", sw)
	}
	if hca := q.SL2VL[PortKey{"h1 mlx5_0", 1}]; hca == nil || hca.Rows[0].VL != [16]int{} {
		t.Errorf("hca %+v", hca)
	}
	if len(q.SL2VL) != 3 || (PortKey{"x", 2}).String() != "x/2" {
		t.Errorf("%v", q.SL2VL)
	}
}
