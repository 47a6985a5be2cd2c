package nvue

import (
	"maps"
	"reflect"
	"strings"
	"testing"
)

// linear is the default map the docs elide with `...`: pcp N, DSCP 8N..8N+7,
// SP N (CumulusNetworks/docs content/cumulus-linux-5*/.../
// RDMA-over-Converged-Ethernet-RoCE.md), for the rows the example prints.
func linear(rows ...int) (dscp, pcp map[int]int) {
	dscp, pcp = map[int]int{}, map[int]int{}
	for _, n := range rows {
		pcp[n] = n
		for d := 8 * n; d < 8*n+8; d++ {
			dscp[d] = n
		}
	}
	return dscp, pcp
}

func TestParseRoceShowLayouts(t *testing.T) {
	dscp53, pcp53 := linear(0, 3, 6, 7)
	dscp512, pcp512 := linear(0, 7)
	leaves512 := map[string]Field{
		"enable":                             {"", "on", 4},
		"mode":                               {"lossless-single-ipool", "lossless-single-ipool", 5},
		"pfc.pfc-priority":                   {"3", "", 7},
		"pfc.rx-enabled":                     {"enabled", "", 8},
		"pfc.tx-enabled":                     {"enabled", "", 9},
		"pfc.cable-length":                   {"100", "", 10},
		"congestion-control.congestion-mode": {"ECN", "", 12},
		"congestion-control.enabled-tc":      {"0,3", "", 13},
		"congestion-control.min-threshold":   {"146.48 KB", "", 14},
		"congestion-control.max-threshold":   {"1.43 MB", "", 15},
		"congestion-control.probability":     {"100", "", 16},
		"trust.trust-mode":                   {"pcp,dscp", "", 18},
		"lldp-app-tlv.priority":              {"3", "", 20},
		"lldp-app-tlv.protocol-id":           {"4791", "", 21},
		"lldp-app-tlv.selector":              {"UDP", "", 22},
	}
	leaves518 := maps.Clone(leaves512)
	delete(leaves518, "enable")
	leaves518["state"] = Field{"", "enabled", 4}
	ets512 := map[int]int{0: 0, 3: 3, 6: 6, 7: 0}
	sched512 := map[int]string{0: "DWRR-50%", 3: "DWRR-50%", 6: "strict-priority", 7: "DWRR-50%"}

	for _, c := range []struct {
		file string
		want RoceShow
	}{
		{"roce_show_5.3.txt", RoceShow{
			Leaves: map[string]Field{
				"enable":                             {"", "on", 4},
				"mode":                               {"lossless", "lossless", 5},
				"cable-length":                       {"100", "100", 6},
				"congestion-control.congestion-mode": {"ECN", "", 8},
				"congestion-control.enabled-tc":      {"0,3", "", 9},
				"congestion-control.max-threshold":   {"1.43 MB", "", 10},
				"congestion-control.min-threshold":   {"146.48 KB", "", 11},
				"pfc.pfc-priority":                   {"3", "", 13},
				"pfc.rx-enabled":                     {"enabled", "", 14},
				"pfc.tx-enabled":                     {"enabled", "", 15},
				"trust.trust-mode":                   {"pcp,dscp", "", 17},
			},
			DSCPToSP: dscp53, PCPToSP: pcp53, MappingLine: 19,
			SPToTC:      map[int]int{0: 0, 1: 0, 2: 0, 3: 3, 4: 0, 5: 0, 6: 6, 7: 0},
			SPScheduler: map[int]string{0: "DWRR-50%", 1: "DWRR-50%", 2: "DWRR-50%", 3: "DWRR-50%", 4: "DWRR-50%", 5: "DWRR-50%", 6: "strict-priority", 7: "DWRR-50%"},
			ETSLine:     30,
		}},
		{"roce_show_5.12.txt", RoceShow{
			Leaves: leaves512, DSCPToSP: dscp512, PCPToSP: pcp512, MappingLine: 23,
			SPToTC: ets512, SPScheduler: sched512, ETSLine: 30,
		}},
		{"roce_show_5.18.txt", RoceShow{
			Leaves: leaves518, DSCPToSP: dscp512, PCPToSP: pcp512, MappingLine: 23,
			SPToTC: ets512, SPScheduler: sched512, ETSLine: 30,
		}},
		{"roce_show_if.txt", RoceShow{
			Leaves: map[string]Field{
				"congestion-control.congestion-mode": {"ecn, absolute", "", 5},
				"congestion-control.enabled-tc":      {"0,3", "", 6},
				"congestion-control.max-threshold":   {"1.43 MB", "", 7},
				"congestion-control.min-threshold":   {"153.00 KB", "", 8},
				"congestion-control.probability":     {"100", "", 9},
				"lldp-app-tlv.priority":              {"3", "", 11},
				"lldp-app-tlv.protocol-id":           {"4791", "", 12},
				"lldp-app-tlv.selector":              {"UDP", "", 13},
				"pfc.pfc-priority":                   {"3", "", 15},
				"pfc.rx-enabled":                     {"yes", "", 16},
				"pfc.tx-enabled":                     {"yes", "", 17},
				"trust.trust-mode":                   {"pcp,dscp", "", 19},
				"mode":                               {"lossless", "", 20},
			},
			DSCPToSP: map[int]int{48: 6, 26: 3}, PCPToSP: map[int]int{6: 6, 3: 3}, MappingLine: 22,
			SPToTC: map[int]int{6: 6, 3: 3}, SPScheduler: map[int]string{6: "strict priority", 3: "dwrr-50%"}, ETSLine: 29,
			Interface: "swp16",
		}},
	} {
		t.Run(c.file, func(t *testing.T) {
			got, err := ParseRoceShow(c.file, readTestdata(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			c.want.File = c.file
			compareRoce(t, got, &c.want)
		})
	}
}

func compareRoce(t *testing.T, got, want *RoceShow) {
	t.Helper()
	for k, w := range want.Leaves {
		if g, ok := got.Leaves[k]; !ok || g != w {
			t.Errorf("leaf %q = %+v (present %v), want %+v", k, g, ok, w)
		}
	}
	for k, g := range got.Leaves {
		if _, ok := want.Leaves[k]; !ok {
			t.Errorf("unexpected leaf %q = %+v", k, g)
		}
	}
	g, w := *got, *want
	g.Leaves, w.Leaves = nil, nil
	// Row lines and pools are tested by TestParseRoceShowRows.
	g.DSCPLines, g.SPLines, g.Pools, g.PoolLine, g.PerInterface = nil, nil, nil, 0, false
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %+v\nwant %+v", g, w)
	}
}

func TestParseRoceShowVariants(t *testing.T) {
	base := string(readTestdata(t, "roce_show_5.12.txt"))
	noPrompt := base[strings.Index(base, "\n")+1:]

	t.Run("without prompt, CRLF, trailing blanks", func(t *testing.T) {
		in := strings.ReplaceAll(noPrompt, "\n", "  \r\n")
		got, err := ParseRoceShow("x", []byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if f := got.Leaves["mode"]; f.Value() != "lossless-single-ipool" || f.Line != 4 {
			t.Errorf("mode = %+v", f)
		}
		if f := got.Leaves["enable"]; f.Value() != "on" || f.Operational != "" {
			t.Errorf("enable = %+v, want applied-only on", f)
		}
		if got.DSCPToSP[26] != 0 || got.DSCPToSP[63] != 7 || got.ETSLine != 29 {
			t.Errorf("tables = %v %d", got.DSCPToSP, got.ETSLine)
		}
	})

	t.Run("No Data tables and unknown sections", func(t *testing.T) {
		in := "RoCE PCP/DSCP->SP mapping configurations\n===\nNo Data\n\n" +
			"Some Future Table\n=================\n    a  b\n    -  -\n    x  y\n" +
			"RoCE SP->TC mapping and ETS configurations\n=====\n       switch-prio  traffic-class  scheduler-weight\n" +
			"    -  -----------  -------------  ----------------\nNo Data\n"
		got, err := ParseRoceShow("x", []byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if got.DSCPToSP == nil || len(got.DSCPToSP) != 0 || got.PCPToSP == nil || got.MappingLine != 1 {
			t.Errorf("mapping = %v %v line %d, want empty non-nil at 1", got.DSCPToSP, got.PCPToSP, got.MappingLine)
		}
		if got.SPToTC == nil || len(got.SPToTC) != 0 || got.ETSLine != 10 {
			t.Errorf("ets = %v line %d, want empty non-nil at 10", got.SPToTC, got.ETSLine)
		}
		if len(got.Leaves) != 0 {
			t.Errorf("leaves = %v", got.Leaves)
		}
	})

	t.Run("leaf table only: tables are nil", func(t *testing.T) {
		in := "                    operational  applied\n------------------  -----------  -------\nstate               enabled      enabled\nmode                lossy        lossy\n"
		got, err := ParseRoceShow("x", []byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if got.DSCPToSP != nil || got.SPToTC != nil || got.SPScheduler != nil || got.PCPToSP != nil {
			t.Errorf("absent tables should be nil: %+v", got)
		}
		if got.Leaves["state"] != (Field{"enabled", "enabled", 3}) || got.Leaves["mode"].Value() != "lossy" {
			t.Errorf("leaves = %v", got.Leaves)
		}
	})

	t.Run("a valueless top row with no members stays a leaf", func(t *testing.T) {
		in := "      operational  applied\n----  -----------  -------\nmode\npfc\n  pfc-priority  3\n"
		got, err := ParseRoceShow("x", []byte(in))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]Field{"mode": {Line: 3}, "pfc.pfc-priority": {"3", "", 5}}
		if !reflect.DeepEqual(got.Leaves, want) {
			t.Errorf("leaves = %v, want %v", got.Leaves, want)
		}
	})
}

func TestParseRoceShowErrors(t *testing.T) {
	for _, c := range []struct {
		name, in string
		line     int
		msg      string
	}{
		{"empty", "", 1, "empty"},
		{"blank lines", "\n \n\n", 1, "empty"},
		{"command not found", "cumulus@switch:mgmt:~$ nv show qos roce\nbash: nv: command not found\n", 1, "not `nv show qos roce` output"},
		{"error text", "\n\nError: The requested item does not exist.\n", 3, "not `nv show qos roce` output"},
		{"bad switch-prio", "RoCE PCP/DSCP->SP mapping configurations\n===\n       pcp  dscp  switch-prio\n    -  ---  ----  -----------\n    0  0    0,1   x\n", 5, "switch-prio \"x\" is not an integer"},
		{"bad dscp list", "RoCE PCP/DSCP->SP mapping configurations\n===\n       pcp  dscp  switch-prio\n    -  ---  ----  -----------\n    0  0    0,,1  0\n", 5, "dscp \"\" is not an integer"},
		{"bad pcp", "RoCE PCP/DSCP->SP mapping configurations\n===\n       pcp  dscp  switch-prio\n    -  ---  ----  -----------\n    0  -1   0     0\n", 5, "pcp \"-1\" is not an integer"},
		{"bad traffic-class", "RoCE SP->TC mapping and ETS configurations\n===\n       switch-prio  traffic-class  scheduler-weight\n    -  -----------  -------------  ----------------\n    0  0            zero           DWRR-50%\n", 5, "traffic-class \"zero\""},
		{"huge number", "RoCE SP->TC mapping and ETS configurations\n===\n       switch-prio  traffic-class\n    -  -----------  -------------\n    0  99999999999999999999  0\n", 5, "not an integer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseRoceShow("sw/nv-show-qos-roce.txt", []byte(c.in))
			if err == nil {
				t.Fatal("no error")
			}
			wantSourceError(t, err, "sw/nv-show-qos-roce.txt", c.line, c.msg)
		})
	}
}

// TestParseRoceShowRows: each mapping and ETS row keeps its own line, and the
// pool table is read, in the global (5.3, lossy-multi-tc) and per-interface
// layouts.
func TestParseRoceShowRows(t *testing.T) {
	for _, c := range []struct {
		file         string
		dscp         map[int]int // DSCP → line of its row
		sp           map[int]int
		perInterface bool
		pools        []RocePool
		poolLine     int
	}{
		{"roce_show_5.3.txt", map[int]int{26: 25, 48: 27, 0: 23}, map[int]int{3: 37, 6: 40}, false, []RocePool{
			{"lossy-default-ingress", "Dynamic", "50.0%", []int{0, 1, 2, 4, 5, 6, 7}, nil, 47},
			{"roce-reserved-ingress", "Dynamic", "50.0%", []int{3}, nil, 48},
			{"lossy-default-egress", "Dynamic", "50.0%", nil, []int{0, 6}, 49},
			{"roce-reserved-egress", "Dynamic", "inf", nil, []int{3}, 50},
		}, 43},
		{"roce_show_if.txt", map[int]int{26: 27, 48: 26}, map[int]int{3: 34, 6: 33}, true, nil, 0},
		{"roce_show_multitc_drift.txt", map[int]int{5: 24, 26: 25, 48: 21}, map[int]int{3: 37, 7: 41}, false, []RocePool{
			{"lossy-default-ingress", "Dynamic", "100%", []int{0, 1, 2, 3, 4, 5, 6, 7}, nil, 47},
			{"lossy-default-egress", "Dynamic", "100%", nil, []int{0, 1, 2, 3, 4, 5, 6, 7}, 48},
		}, 43},
	} {
		t.Run(c.file, func(t *testing.T) {
			got, err := ParseRoceShow(c.file, readTestdata(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			for d, ln := range c.dscp {
				if got.DSCPLines[d] != ln {
					t.Errorf("DSCP %d row at line %d, want %d", d, got.DSCPLines[d], ln)
				}
			}
			for sp, ln := range c.sp {
				if got.SPLines[sp] != ln {
					t.Errorf("SP %d row at line %d, want %d", sp, got.SPLines[sp], ln)
				}
			}
			if got.PerInterface != c.perInterface {
				t.Errorf("PerInterface = %v", got.PerInterface)
			}
			if !reflect.DeepEqual(got.Pools, c.pools) || got.PoolLine != c.poolLine {
				t.Errorf("pools = %+v at %d, want %+v at %d", got.Pools, got.PoolLine, c.pools, c.poolLine)
			}
		})
	}
}

// TestParseSize uses the sizes of the CL 5.15/5.18 RoCE pages: 146.48 KB is
// the documented 150,000 bytes, 1.43 MB the default 1,500,000 maximum.
func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in      string
		ok      bool
		matches []int
		not     []int
	}{
		{"146.48 KB", true, []int{150000}, []int{149990, 150010}},
		{"1.43 MB", true, []int{1500000}, []int{1490000, 1510000}},
		{"163.00 KB", true, []int{166912}, []int{166000}},
		{"153.00 KB", true, []int{156672}, []int{150000}},
		{"40000 B", true, []int{40000}, []int{40001}},
		{"0 Bytes", true, []int{0}, []int{1}},
		{"inf", false, nil, nil},
		{"50.0%", false, nil, nil},
		{"-", false, nil, nil},
		{"1.2.3 KB", false, nil, nil},
		{"12 XB", false, nil, nil},
	} {
		s, ok := ParseSize(c.in)
		if ok != c.ok {
			t.Errorf("ParseSize(%q) ok = %v", c.in, ok)
			continue
		}
		for _, b := range c.matches {
			if !s.Matches(b) {
				t.Errorf("%q (%+v) should match %d", c.in, s, b)
			}
		}
		for _, b := range c.not {
			if s.Matches(b) {
				t.Errorf("%q (%+v) should not match %d", c.in, s, b)
			}
		}
	}
}

// TestParseRoceStatusDocs: `nv show interface swp16 qos roce status` as the
// CL 5.15 and 5.18 RoCE pages print it (roce_status_515.txt) and as the 5.12
// and 5.14 pages do, with a line of one space between the tables
// (roce_status_512.txt), CumulusNetworks/docs content/cumulus-linux-5{12,15}/
// Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md.
// Every value of the example is the expected one.
func TestParseRoceStatusDocs(t *testing.T) {
	leaves := map[string]Field{
		"congestion-control.congestion-mode": {"ecn, absolute", "", 5},
		"congestion-control.enabled-tc":      {"0,3", "", 6},
		"congestion-control.max-threshold":   {"1.43 MB", "", 7},
		"congestion-control.min-threshold":   {"153.00 KB", "", 8},
		"congestion-control.probability":     {"100", "", 9},
		"lldp-app-tlv.priority":              {"3", "", 11},
		"lldp-app-tlv.protocol-id":           {"4791", "", 12},
		"lldp-app-tlv.selector":              {"UDP", "", 13},
		"pfc.pfc-priority":                   {"3", "", 15},
		"pfc.rx-enabled":                     {"yes", "", 16},
		"pfc.tx-enabled":                     {"yes", "", 17},
		"trust.trust-mode":                   {"pcp,dscp", "", 19},
		"mode":                               {"lossless", "", 20},
	}
	for _, c := range []struct {
		file  string
		shift int // lines each table moves down: the 5.12 page prints two blank lines, 5.15 one
	}{{"roce_status_515.txt", 0}, {"roce_status_512.txt", 1}} {
		t.Run(c.file, func(t *testing.T) {
			got, err := ParseRoceShow(c.file, readTestdata(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			m, e, p := 22+c.shift, 29+2*c.shift, 36+3*c.shift
			want := RoceShow{
				File: c.file, Leaves: leaves, Interface: "swp16",
				DSCPToSP: map[int]int{48: 6, 26: 3}, PCPToSP: map[int]int{6: 6, 3: 3}, MappingLine: m,
				SPToTC: map[int]int{6: 6, 3: 3}, SPScheduler: map[int]string{6: "strict priority", 3: "dwrr-50%"}, ETSLine: e,
			}
			compareRoce(t, got, &want)
			if !got.PerInterface {
				t.Error("PerInterface not set")
			}
			if got.DSCPLines[48] != m+4 || got.DSCPLines[26] != m+5 || got.SPLines[6] != e+4 || got.SPLines[3] != e+5 {
				t.Errorf("row lines %v %v", got.DSCPLines, got.SPLines)
			}
			pools := []RocePool{
				{"lossy-default-ingress", "DYNAMIC", "15.16 MB", []int{0, 1, 2, 4, 5, 6, 7}, nil, p + 4},
				{"roce-reserved-ingress", "DYNAMIC", "15.16 MB", []int{3}, nil, p + 5},
				{"lossy-default-egress", "DYNAMIC", "15.16 MB", nil, []int{0, 6}, p + 6},
				{"roce-reserved-egress", "DYNAMIC", "inf", nil, []int{3}, p + 7},
			}
			if !reflect.DeepEqual(got.Pools, pools) || got.PoolLine != p {
				t.Errorf("pools = %+v at %d, want %+v at %d", got.Pools, got.PoolLine, pools, p)
			}
		})
	}

	t.Run("as collected: no prompt, the pool title marks the view", func(t *testing.T) {
		data := readTestdata(t, "roce_status_515.txt")
		data = data[strings.IndexByte(string(data), '\n')+1:]
		// Without its mapping tables only the pool title tells.
		s := string(data)
		s = s[:strings.Index(s, "RoCE PCP/DSCP")] + s[strings.Index(s, "RoCE Pool Status"):]
		got, err := ParseRoceShow("x", []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		if !got.PerInterface || got.Interface != "" || len(got.Pools) != 4 || got.Leaves["mode"].Line != 19 {
			t.Errorf("got %+v", got)
		}
	})
}
