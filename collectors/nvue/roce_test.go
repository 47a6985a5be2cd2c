package nvue

import (
	"maps"
	"reflect"
	"strings"
	"testing"
)

// linear is the default map the docs elide with `...`: pcp N, DSCP 8N..8N+7,
// SP N (nvue.md §1.3), for the rows the example prints.
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
