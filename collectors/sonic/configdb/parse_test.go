package configdb

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

func parseFile(t testing.TB, name string) *Config {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(name, data)
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	return c
}

// at is file:line:column, for comparing positions in one string.
func at(p source.Pos) string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column) }

// TestPositions checks positions in real files against grep -n (the
// column is the key's opening quote).
func TestPositions(t *testing.T) {
	const qos = "qos-mellanox4600c-c64-remap-disabled.json"
	c := parseFile(t, qos)
	ns := c.Namespace("")
	if c.Shape != Nested || len(c.Namespaces) != 1 || ns == nil {
		t.Fatalf("%s: shape %s, %d namespaces", qos, c.Shape, len(c.Namespaces))
	}
	pqm := ns.Table("PORT_QOS_MAP")
	eth0 := pqm.Row("Ethernet0")
	sched := ns.Table("SCHEDULER").Row("scheduler.1")
	for _, tc := range []struct {
		what string
		got  source.Pos
		want string
	}{
		{"table SCHEDULER", ns.Table("SCHEDULER").Pos, qos + ":106:5"},
		{"row scheduler.1", sched.Pos(), qos + ":111:9"},
		{"field scheduler.1.weight", sched.Get("weight").Pos(), qos + ":113:13"},
		{"table PORT_QOS_MAP", pqm.Pos, qos + ":116:5"},
		{"row Ethernet0", eth0.Pos(), qos + ":120:9"},
		// "pfc_enable"      : "3,4": blanks before the colon.
		{"field Ethernet0.pfc_enable", eth0.Get("pfc_enable").Pos(), qos + ":125:13"},
	} {
		if at(tc.got) != tc.want {
			t.Errorf("%s at %s, want %s", tc.what, at(tc.got), tc.want)
		}
	}
	if v := eth0.Get("pfc_enable").Value; v != "3,4" {
		t.Errorf("PORT_QOS_MAP|Ethernet0.pfc_enable = %q, want 3,4 (the sample rendering, testdata/SOURCE.md)", v)
	}
	if v := sched.Get("weight").Value; v != "15" {
		t.Errorf("SCHEDULER|scheduler.1.weight = %q, want 15", v)
	}
	if got := pqm.Keys[:2]; !slices.Equal(got, []string{"global", "Ethernet0"}) {
		t.Errorf("PORT_QOS_MAP keys start %q, want file order global, Ethernet0", got)
	}
	if got := eth0.Names()[:2]; !slices.Equal(got, []string{"dscp_to_tc_map", "tc_to_queue_map"}) {
		t.Errorf("Ethernet0 fields start %q, want file order", got)
	}

	const flat = "reclaiming-buffer-traditional-double-pools-input.json"
	c = parseFile(t, flat)
	if c.Shape != Flat {
		t.Errorf("%s: shape %s, want flat", flat, c.Shape)
	}
	pg := c.Namespace("").Table("BUFFER_PG")
	r := pg.Row("Ethernet20|3-4")
	if r == nil {
		t.Fatalf("%s: no BUFFER_PG|Ethernet20|3-4", flat)
	}
	if at(pg.Pos) != flat+":2:5" || at(r.Pos()) != flat+":23:5" || at(r.Get("profile").Pos()) != flat+":24:9" {
		t.Errorf("%s: BUFFER_PG at %s, Ethernet20|3-4 at %s, profile at %s; want :2:5, :23:5, :24:9", flat, at(pg.Pos), at(r.Pos()), at(r.Get("profile").Pos()))
	}
	if v := r.Get("profile").Value; v != "pg_lossless_100000_5m_profile" {
		t.Errorf("BUFFER_PG|Ethernet20|3-4.profile = %q, want pg_lossless_100000_5m_profile (the sample rendering, testdata/SOURCE.md)", v)
	}
}

// TestSamples checks values of the sonic-net/sonic-buildimage renderings
// src/sonic-config-engine/tests/sample_output/py3/ (testdata/SOURCE.md).
func TestSamples(t *testing.T) {
	c := parseFile(t, "buffers-mellanox4600c-t1.json")
	ns := c.Namespace("")
	pool := ns.Table("BUFFER_POOL").Row("ingress_lossless_pool")
	want := map[string]string{"size": "44130304", "xoff": "8790016", "type": "ingress", "mode": "dynamic"}
	for k, v := range want {
		if got := pool.Get(k); got == nil || got.Value != v {
			t.Errorf("BUFFER_POOL|ingress_lossless_pool.%s = %v, want %q", k, got, v)
		}
	}
	if got := ns.Table("BUFFER_PG").Row("Ethernet0|0").Get("profile").Value; got != "ingress_lossy_profile" {
		t.Errorf("BUFFER_PG|Ethernet0|0.profile = %q", got)
	}
	if ns.Table("BUFFER_PG").Row("Ethernet0|3-4") != nil {
		t.Error("the traditional rendering has no lossless PG")
	}
	if got := ns.Table("CABLE_LENGTH").Row("AZURE").Get("Ethernet8").Value; got != "5m" {
		t.Errorf("CABLE_LENGTH|AZURE.Ethernet8 = %q, want 5m", got)
	}

	c = parseFile(t, "buffers-mellanox4600c-t1-dynamic.json")
	ns = c.Namespace("")
	pool = ns.Table("BUFFER_POOL").Row("ingress_lossless_pool")
	if pool.Get("size") != nil || pool.Get("mode").Value != "dynamic" {
		t.Errorf("dynamic ingress_lossless_pool = %v, want mode dynamic and no size", pool.Fields)
	}
	if got := ns.Table("LOSSLESS_TRAFFIC_PATTERN").Row("AZURE").Get("mtu").Value; got != "1024" {
		t.Errorf("LOSSLESS_TRAFFIC_PATTERN|AZURE.mtu = %q, want 1024", got)
	}

	c = parseFile(t, "qos_tables_db_field_value_reference_format_3_0_1.json")
	prof := c.Namespace("").Table("BUFFER_PG").Row("Ethernet0|3-4").Get("profile").Value
	if tbl, name := Ref(prof); tbl != "BUFFER_PROFILE" || name != "pg_lossless_100000_40m_profile" {
		t.Errorf("Ref(%q) = %q, %q", prof, tbl, name)
	}
}

func TestLeafList(t *testing.T) {
	const f = "sample_config_db.SAMPLE_CONFIG_DB_JSON.json"
	c := parseFile(t, f)
	h := c.Namespace("").Table("SWITCH_HASH").Row("GLOBAL")
	e := h.Get("ecmp_hash")
	want := []string{"DST_IP", "SRC_IP", "IP_PROTOCOL", "L4_DST_PORT", "L4_SRC_PORT", "INNER_DST_IP", "INNER_SRC_IP"}
	if !slices.Equal(e.List, want) || e.Value != strings.Join(want, ",") {
		t.Errorf("ecmp_hash = %q %q, want %q", e.List, e.Value, want)
	}
	if at(e.Pos()) != f+":379:17" {
		t.Errorf("ecmp_hash at %s, want %s:379:17", at(e.Pos()), f)
	}
	if a := h.Get("ecmp_hash_algorithm"); a.Value != "CRC" || a.List != nil {
		t.Errorf("ecmp_hash_algorithm = %q %q, want a string CRC", a.Value, a.List)
	}
}

// TestDuplicates: the YANG sample has real duplicate keys; Python's json
// keeps the last value in the first key's place.
func TestDuplicates(t *testing.T) {
	const f = "sample_config_db.SAMPLE_CONFIG_DB_JSON.json"
	c := parseFile(t, f)
	ns := c.Namespace("")
	pfcwd := ns.Table("PFC_WD")
	if pfcwd.Row("Ethernet9") != nil || pfcwd.Row("GLOBAL").Get("POLL_INTERVAL").Value != "100" || pfcwd.Pos.Line != 1658 {
		t.Errorf("PFC_WD = %v at %s, want only the second table's GLOBAL, at line 1658", pfcwd.Keys, at(pfcwd.Pos))
	}
	if n := slices.Index(ns.Order, "PFC_WD"); n < 0 || slices.Index(ns.Order[n+1:], "PFC_WD") >= 0 {
		t.Errorf("PFC_WD in Order %d times, want once", strings.Count(strings.Join(ns.Order, " "), "PFC_WD"))
	}
	dm := ns.Table("DEVICE_METADATA").Row("localhost")
	if bm := dm.Get("buffer_model"); bm.Pos().Line != 418 || dm.Names()[0] != "buffer_model" {
		t.Errorf("buffer_model at line %d, first name %q: want the last (418) in the first place", bm.Pos().Line, dm.Names()[0])
	}
	var lines []int
	for _, n := range c.Notes {
		if strings.Contains(n.Msg, "given twice") {
			lines = append(lines, n.Line)
		}
	}
	if !slices.Equal(lines, []int{16, 351, 418, 1658}) {
		t.Errorf("duplicate notes at lines %v, want 16 351 418 1658 (grep -n); notes %v", lines, c.Notes)
	}

	// A flat row and a nested table of the same name join; a field twice.
	in := `{"PORT|Ethernet0": {"mtu": "9100"},
"PORT": {"Ethernet4": {"mtu": "1500", "mtu": "9100"}},
"PORT|Ethernet0": {"mtu": "1500"}}`
	c, err := Parse("dup.json", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	port := c.Namespace("").Table("PORT")
	if !slices.Equal(port.Keys, []string{"Ethernet0", "Ethernet4"}) || port.Row("Ethernet0").Get("mtu").Value != "1500" || port.Row("Ethernet4").Get("mtu").Value != "9100" {
		t.Errorf("PORT = %v: Ethernet0 %v Ethernet4 %v", port.Keys, port.Row("Ethernet0").Fields, port.Row("Ethernet4").Fields)
	}
	if c.Shape != Nested || len(c.Notes) != 2 || c.Notes[0].Line != 2 || c.Notes[1].Line != 3 {
		t.Errorf("shape %s, notes %v: want nested (mixed), notes at lines 2 and 3", c.Shape, c.Notes)
	}
}

func TestValues(t *testing.T) {
	in := `{"PORT": {"Ethernet0": {
  "mtu": 9100, "admin": true, "fec": null, "speed": "400000",
  "nested": {"a": {"b": "c"}},
  "lanes": ["0", 1, false],
  "deep": ["a", ["b"], {"c": "d"}],
  "empty": []
}}}`
	c, err := Parse("v.json", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Namespace("").Table("PORT").Row("Ethernet0")
	for name, want := range map[string]string{"mtu": "9100", "admin": "true", "fec": "null", "speed": "400000", "lanes": "0,1,false", "empty": ""} {
		if f := r.Get(name); f == nil || f.Value != want {
			t.Errorf("%s = %v, want %q", name, f, want)
		}
	}
	if r.Get("nested") != nil || r.Get("deep") != nil {
		t.Errorf("nested = %v, deep = %v: want both skipped", r.Get("nested"), r.Get("deep"))
	}
	if !slices.Equal(r.Names(), []string{"mtu", "admin", "fec", "speed", "lanes", "empty"}) {
		t.Errorf("names %q", r.Names())
	}
	var got []string
	for _, n := range c.Notes {
		got = append(got, fmt.Sprintf("%d:%d", n.Line, n.Column))
	}
	// mtu, admin, fec values; nested's value; 1 and false in lanes; deep's ["b"].
	want := []string{"2:10", "2:25", "2:38", "3:13", "4:18", "4:21", "5:17"}
	if !slices.Equal(got, want) {
		t.Errorf("notes at %v, want %v: %v", got, want, c.Notes)
	}
	if !strings.Contains(c.Notes[0].Msg, "not a string") || !strings.HasPrefix(c.Notes[0].Msg, "column 10: ") {
		t.Errorf("note %q: want the column and \"not a string\"", c.Notes[0].Msg)
	}
}

func TestMultiASIC(t *testing.T) {
	const f = "multi_asic_dm_gen_sysinfo.json"
	c := parseFile(t, f)
	if c.Shape != MultiASIC || len(c.Namespaces) != 3 {
		t.Fatalf("shape %s, %d namespaces", c.Shape, len(c.Namespaces))
	}
	for i, want := range []struct {
		name, pos, subRole string
	}{{"localhost", f + ":2:5", ""}, {"asic0", f + ":17:5", "FrontEnd"}, {"asic1", f + ":35:5", "BackEnd"}} {
		ns := c.Namespaces[i]
		r := ns.Table("DEVICE_METADATA").Row("localhost")
		if ns.Name != want.name || at(ns.Pos) != want.pos || r == nil {
			t.Errorf("namespace %d = %q at %s, want %q at %s with DEVICE_METADATA|localhost", i, ns.Name, at(ns.Pos), want.name, want.pos)
			continue
		}
		if sr := r.Get("sub_role"); (sr == nil) != (want.subRole == "") || (sr != nil && sr.Value != want.subRole) {
			t.Errorf("%s sub_role = %v, want %q", ns.Name, sr, want.subRole)
		}
	}
	if c.Namespace("") != nil {
		t.Error("a multi-ASIC file has no namespace \"\"")
	}

	// "host" is not a namespace name: three tables of one namespace.
	c = parseFile(t, "multi_asic_missing_localhost.json")
	ns := c.Namespace("")
	if c.Shape != Nested || !slices.Equal(ns.Order, []string{"host", "asic0", "asic1"}) || ns.Table("asic0").Row("DEVICE_METADATA") == nil {
		t.Errorf("shape %s, tables %v: want nested host, asic0, asic1", c.Shape, ns.Order)
	}

	for _, tc := range []struct {
		in, shape string
		order     []string // the namespace or single tables
	}{
		// A namespace-looking key whose keys are not table names.
		{`{"asic0": {"PORT": {}}, "localhost": {"hostname": {"x": "y"}}}`, "nested", []string{"asic0", "localhost"}},
		// A table after namespaces.
		{`{"localhost": {"PORT": {}}, "PORT": {"Ethernet0": {}}}`, "nested", []string{"localhost", "PORT"}},
		// Flat rows inside namespaces (the sonic-utilities mock tables' shape).
		{`{"localhost": {"PORT|Ethernet0": {"mtu": "9100"}}, "asic12": {}}`, "multi-asic", []string{"localhost", "asic12"}},
		{`{"asic": {"PORT": {}}}`, "nested", []string{"asic"}},
		{`{"asic0": {"PORT": {"Ethernet0": {}}}, "asic1": {}, "asic0": {"QUEUE": {}}}`, "multi-asic", []string{"asic0", "asic1"}},
	} {
		c, err := Parse("m.json", []byte(tc.in))
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		var order []string
		if c.Shape == MultiASIC {
			for _, n := range c.Namespaces {
				order = append(order, n.Name)
			}
		} else {
			order = c.Namespaces[0].Order
		}
		if string(c.Shape) != tc.shape || !slices.Equal(order, tc.order) {
			t.Errorf("%s: shape %s, %v; want %s, %v", tc.in, c.Shape, order, tc.shape, tc.order)
		}
		twice := strings.Count(tc.in, `"asic0"`) > 1
		if len(c.Notes) != 0 && !twice || twice && (len(c.Notes) != 1 || c.Namespace("asic0").Table("QUEUE") == nil || c.Namespace("asic0").Table("PORT") != nil) {
			t.Errorf("%s: notes %v", tc.in, c.Notes)
		}
	}
}

func TestBgpraw(t *testing.T) {
	c := parseFile(t, "runningconfiguration-all.json")
	ns := c.Namespace("")
	if c.Shape != Nested || ns.Table(bgpraw) != nil || len(ns.Order) != 3 {
		t.Errorf("shape %s, tables %v: want nested without bgpraw", c.Shape, ns.Order)
	}
	if len(c.Notes) != 1 || c.Notes[0].Line != 29 || !strings.Contains(c.Notes[0].Msg, "ignored") {
		t.Errorf("notes %v, want one at line 29 (bgpraw)", c.Notes)
	}
	c = parseFile(t, "runningconfiguration-all-multi-asic.json")
	if c.Shape != MultiASIC || len(c.Namespaces) != 3 {
		t.Fatalf("shape %s, %d namespaces", c.Shape, len(c.Namespaces))
	}
	for _, ns := range c.Namespaces {
		if ns.Table(bgpraw) != nil || ns.Table("DEVICE_METADATA") == nil {
			t.Errorf("%s: tables %v", ns.Name, ns.Order)
		}
	}
	if got := c.Namespace("asic1").Table("PORT_QOS_MAP").Row("Ethernet4").Get("pfc_enable").Value; got != "3,4" {
		t.Errorf("asic1 PORT_QOS_MAP|Ethernet4.pfc_enable = %q", got)
	}
	if len(c.Notes) != 2 || c.Notes[0].Line >= c.Notes[1].Line {
		t.Errorf("notes %v, want two bgpraw notes (asic0, asic1) in file order", c.Notes)
	}
}

func TestMalformed(t *testing.T) {
	for _, tc := range []struct {
		in, at, msg string
	}{
		{"", "1:1", "empty"},
		{"  \n\t\n", "1:1", "empty"},
		{"{\n  \"PORT\": {\n    \"Ethernet0\": {\"mtu\": \"9100\",}\n  }\n}", "3:33", "invalid character '}'"},
		{"{\"PORT\": {\"Ethernet0\": {\"mtu\": \"9100\"}}\n", "1:40", "unexpected end"},
		{"{\"PORT\": {}}\n}", "2:1", "after top-level value"},
		{"[]", "1:1", "top level is an array"},
		{"\"x\"", "1:1", "top level is a string"},
		{"{\"PORT\": []}", "1:10", "table PORT is an array"},
		{"{\"PORT\": {\"Ethernet0\": \"up\"}}", "1:24", `row "Ethernet0" of table PORT is a string`},
		{"{\"PORT|Ethernet0\": 1}", "1:20", `row "Ethernet0" of table PORT is a number`},
		{"{\"localhost\": {\"PORT\": \"x\"}}", "1:24", "table PORT is a string"},
		{"{\"localhost\": \"x\"}", "1:15", "table localhost is a string"},
		{"{\"PORT\": {\"Ethernet0\": {\"alias\": \"caf\xe9\"}}}", "1:38", "not UTF-8"},
		{"\ufeff{\"PORT\": 1}", "1:13", "table PORT is a number"},
		{"{\"a\": tru}", "1:10", "in literal true"},
		{"{\"PORT\": {}}\n{}", "2:1", "after top-level value"},
		{"{\"PORT\": {\"Ethernet0\": {\"mtu\": \"9100\"}}, \"QUEUE\": {\"a\": {\"b\" \"c\"}}}", "1:62", "after object key"},
	} {
		c, err := Parse("bad.json", []byte(tc.in))
		var se *source.Error
		if !errorsAs(err, &se) {
			t.Errorf("Parse(%q) = %v, %v; want a *source.Error", tc.in, c, err)
			continue
		}
		if got := fmt.Sprintf("%d:%d", se.Line, se.Column); got != tc.at || se.File != "bad.json" || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("Parse(%q) = %s at %s, want %q at %s", tc.in, se, got, tc.msg, tc.at)
		}
		if want := fmt.Sprintf("bad.json:%d: column %d: ", se.Line, se.Column); !strings.HasPrefix(se.Error(), want) {
			t.Errorf("Error() = %q, want prefix %q", se.Error(), want)
		}
	}
}

func errorsAs(err error, se **source.Error) bool {
	e, ok := err.(*source.Error)
	*se = e
	return ok && e != nil
}

func TestRef(t *testing.T) {
	for in, want := range map[string][2]string{
		"[BUFFER_PROFILE|pg_lossless_100000_5m_profile]": {"BUFFER_PROFILE", "pg_lossless_100000_5m_profile"},
		"[SCHEDULER|scheduler.0]":                        {"SCHEDULER", "scheduler.0"},
		"scheduler.0":                                    {"", "scheduler.0"},
		"AZURE_LOSSLESS":                                 {"", "AZURE_LOSSLESS"},
		"[AZURE]":                                        {"", "AZURE"},
		"[BUFFER_PROFILE|a":                              {"", "[BUFFER_PROFILE|a"},
		"":                                               {"", ""},
	} {
		if tbl, name := Ref(in); tbl != want[0] || name != want[1] {
			t.Errorf("Ref(%q) = %q, %q; want %q, %q", in, tbl, name, want[0], want[1])
		}
	}
	if got := SplitKey("Ethernet0|3-4"); !slices.Equal(got, []string{"Ethernet0", "3-4"}) {
		t.Errorf("SplitKey = %q", got)
	}
	if got := SplitKey("DATAACL|RULE0|x"); len(got) != 3 {
		t.Errorf("SplitKey = %q", got)
	}
}

func TestSorted(t *testing.T) {
	c := parseFile(t, "qos-mellanox4600c-c64-remap-disabled.json")
	q := c.Namespace("").Table("QUEUE")
	s := q.Sorted()
	if len(s) != len(q.Keys) || !slices.IsSorted(s) || len(s) == 0 {
		t.Errorf("Sorted = %d keys, sorted %v; Keys %d", len(s), slices.IsSorted(s), len(q.Keys))
	}
	var nilTable *Table
	if nilTable.Sorted() != nil || nilTable.Row("x") != nil {
		t.Error("nil table")
	}
}

// TestMatchesEncodingJSON compares every single-ASIC file's tables with
// encoding/json's reading of it (which, like Python, keeps the last of a
// key given twice).
func TestMatchesEncodingJSON(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, path := range files {
		name := filepath.Base(path)
		c := parseFile(t, name)
		if c.Shape == MultiASIC {
			continue
		}
		data, _ := os.ReadFile(path)
		var top map[string]any
		if err := json.Unmarshal(data, &top); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{}
		for tk, tv := range top {
			rows, _ := tv.(map[string]any)
			if tk == bgpraw {
				continue
			}
			if tbl, key, ok := strings.Cut(tk, "|"); ok {
				rows = map[string]any{key: tv}
				tk = tbl
			}
			for rk, rv := range rows {
				want[tk+"\x00"+rk] = ""
				for fk, fv := range rv.(map[string]any) {
					switch v := fv.(type) {
					case string:
						want[tk+"\x00"+rk+"\x00"+fk] = v
					case []any:
						var l []string
						for _, e := range v {
							l = append(l, fmt.Sprint(e))
						}
						want[tk+"\x00"+rk+"\x00"+fk] = strings.Join(l, ",")
					}
				}
			}
		}
		got := map[string]string{}
		ns := c.Namespaces[0]
		for _, tk := range ns.Order {
			tbl := ns.Table(tk)
			for _, rk := range tbl.Keys {
				got[tk+"\x00"+rk] = ""
				r := tbl.Row(rk)
				for _, f := range r.Fields {
					got[tk+"\x00"+rk+"\x00"+f.Name] = f.Value
				}
			}
		}
		if len(got) != len(want) || len(got) < 2 {
			t.Errorf("%s: %d rows+fields, encoding/json %d", name, len(got), len(want))
		}
		for k, v := range want {
			if g, ok := got[k]; !ok || g != v {
				t.Errorf("%s: %q = %q, encoding/json %q", name, k, g, v)
			}
		}
	}
}

// TestStrings: escaped strings read as encoding/json reads them (an
// escaped lone surrogate is U+FFFD), and the interned and the escaped
// paths give equal values.
func TestStrings(t *testing.T) {
	in := `{"PORT": {"Ethernet0": {
  "a": "caf\u00e9", "b": "\ud800", "c": "x\"y\\z\n", "d": "\ud83d\ude00",
  "e": "plain", "f": "pl\u0061in", "lanes": ["pl\u0061in", "plain", "\t"]
}}}`
	c, err := Parse("s.json", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]map[string]map[string]any
	if err := json.Unmarshal([]byte(in), &want); err != nil {
		t.Fatal(err)
	}
	r := c.Namespace("").Table("PORT").Row("Ethernet0")
	for name, v := range want["PORT"]["Ethernet0"] {
		f := r.Get(name)
		if l, ok := v.([]any); ok {
			var s []string
			for _, e := range l {
				s = append(s, e.(string))
			}
			if f == nil || !slices.Equal(f.List, s) {
				t.Errorf("%s = %v, encoding/json %q", name, f, s)
			}
			continue
		}
		if f == nil || f.Value != v {
			t.Errorf("%s = %v, encoding/json %q", name, f, v)
		}
	}
	if r.Get("e").Value != r.Get("f").Value || len(c.Notes) != 0 {
		t.Errorf("e %q, f %q; notes %v", r.Get("e").Value, r.Get("f").Value, c.Notes)
	}
}

// A table the model does not read is only scanned when it holds nothing to
// note, and reads on its first use with the positions of the file; one
// that holds something to note is read at once and noted as a read table
// is.
func TestScannedTables(t *testing.T) {
	const f = "sample_config_db.SAMPLE_CONFIG_DB_JSON.json"
	data, err := os.ReadFile(filepath.Join("testdata", f))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(f, data)
	if err != nil {
		t.Fatal(err)
	}
	ns := c.Namespace("")
	var scanned []string
	for _, name := range ns.Order {
		if ns.Tables[name].lazy != nil {
			scanned = append(scanned, name)
		}
		if ReadWithFile(name) && ns.Tables[name].lazy != nil {
			t.Errorf("table %s, which the model reads, was only scanned", name)
		}
	}
	if len(scanned) < len(ns.Order)/2 || !slices.Contains(scanned, "VLAN") {
		t.Errorf("scanned %d tables of %d (%v): want most, VLAN among them", len(scanned), len(ns.Order), scanned)
	}
	// Where the text has VLAN|Vlan111's vlanid.
	text := string(data)
	tableAt := strings.Index(text, `"VLAN": {`)
	rowAt := tableAt + strings.Index(text[tableAt:], `"Vlan111": {`)
	fieldAt := rowAt + strings.Index(text[rowAt:], `"vlanid"`)
	pos := func(off int) string {
		line := strings.Count(text[:off], "\n") + 1
		return fmt.Sprintf("%s:%d:%d", f, line, off-strings.LastIndexByte(text[:off], '\n'))
	}
	vlan := ns.Table("VLAN")
	r := vlan.Row("Vlan111")
	if at(vlan.Pos) != pos(tableAt) || r == nil || at(r.Pos()) != pos(rowAt) || at(r.Get("vlanid").Pos()) != pos(fieldAt) || r.Get("vlanid").Value != "111" {
		t.Errorf("VLAN at %s, Vlan111 %+v: want %s, %s, vlanid 111 at %s", at(vlan.Pos), r, pos(tableAt), pos(rowAt), pos(fieldAt))
	}

	// VLAN is as long as PORT: the same columns.
	for _, rows := range []string{
		`{"r": {"a": "1"}, "r": {"a": "2"}}`,
		`{"r": {"a": "1", "a": "2"}}`,
		`{"r": {"a": 1}}`,
		`{"r": {"a": ["1", 2]}}`,
		`{"r": {"a": {"b": "c"}}}`,
		`{"r": {"a": "\u0041\n"}}`,
		`{"r\"": {"a\\": "1"}}`,
	} {
		read, err := Parse("t.json", []byte(`{"PORT": `+rows+`}`))
		if err != nil {
			t.Fatal(err)
		}
		other, err := Parse("t.json", []byte(`{"VLAN": `+rows+`}`))
		if err != nil {
			t.Fatal(err)
		}
		if other.Namespaces[0].Tables["VLAN"].lazy != nil {
			t.Errorf("%s: scanned, want read at once", rows)
		}
		var want, got []string
		for _, n := range read.Notes {
			want = append(want, strings.ReplaceAll(n.Error(), "PORT", "VLAN"))
		}
		for _, n := range other.Notes {
			got = append(got, n.Error())
		}
		if !slices.Equal(got, want) || len(got) == 0 && !strings.Contains(rows, `\`) {
			t.Errorf("%s: notes %q, want %q", rows, got, want)
		}
		if g, w := dump(other, nil), strings.ReplaceAll(dump(read, nil), "PORT", "VLAN"); g != w {
			t.Errorf("%s: read as\n%s\nwant\n%s", rows, g, w)
		}
	}
}

// Plain tables read as the decoder reads them, edge by edge: blanks,
// empty objects and lists, non-ASCII text, a raw tab in a string, stray
// commas, long rows (indexed) with and without a name given twice, a row
// given twice in a table read and in one scanned, tables given twice or
// also flat, namespaces; and so does the top level read
// without the decoder: flat rows, "bgpraw", namespaces first or later,
// escapes in a key, bad JSON around the tables.
func TestPlainMatchesDecoder(t *testing.T) {
	for _, in := range []string{
		"{\"PORT\": {}}",
		"{\"PORT\": {\"a\": {}}, \"VLAN\": { }}",
		"{\r\n\t\"PORT\": {\r\n\t\t\"Ethernet0\" :\t{ \"mtu\" : \"9100\" , \"lanes\" : [ ] }\r\n\t}\r\n}",
		"{\"PORT\": {\"a\": {\"x\": [\"1\",\"2\" , \"3\"]}}}",
		"{\"PORT\": {\"é\": {\"ü\": \"€ 𝄞\"}}}",
		"{\"PORT\": {\"a\": {\"x\": \"1\t2\"}}}",
		"{\"PORT\": {\"a\": {\"x\": \"1\"},}}",
		"{\"PORT\": {\"a\": {\"x\": \"1\"}}",
		"{\"PORT\": {\"a\": {\"x\": \"1\"}} \"VLAN\": {}}",
		"{\"PORT\": {\"a\": {\"x\": \"1\",}}}",
		"{\"PORT\": {\"a\": {\"x\": [\"1\",]}}}",
		"{\"PORT\": {\"a\": {\"x\": \"1\"} \"b\": {}}}",
		"{\"CABLE_LENGTH\": {\"AZURE\": {\"f0\": \"0\", \"f1\": \"1\", \"f2\": \"2\", \"f3\": \"3\", \"f4\": \"4\", \"f5\": \"5\", \"f6\": \"6\", \"f7\": \"7\", \"f8\": \"8\", \"f9\": \"9\", \"f10\": \"10\", \"f11\": \"11\", \"f12\": \"12\", \"f13\": \"13\", \"f14\": \"14\", \"f15\": \"15\", \"f16\": \"16\", \"f17\": \"17\", \"f18\": \"18\", \"f19\": \"19\", \"f20\": \"20\", \"f21\": \"21\", \"f22\": \"22\", \"f23\": \"23\", \"f24\": \"24\", \"f25\": \"25\", \"f26\": \"26\", \"f27\": \"27\", \"f28\": \"28\", \"f29\": \"29\", \"f30\": \"30\", \"f31\": \"31\", \"f32\": \"32\", \"f33\": \"33\", \"f34\": \"34\", \"f35\": \"35\", \"f36\": \"36\", \"f37\": \"37\", \"f38\": \"38\", \"f39\": \"39\"}}}",
		"{\"CABLE_LENGTH\": {\"AZURE\": {\"f0\": \"0\", \"f1\": \"1\", \"f2\": \"2\", \"f3\": \"3\", \"f4\": \"4\", \"f5\": \"5\", \"f6\": \"6\", \"f7\": \"7\", \"f8\": \"8\", \"f9\": \"9\", \"f10\": \"10\", \"f11\": \"11\", \"f12\": \"12\", \"f13\": \"13\", \"f14\": \"14\", \"f15\": \"15\", \"f16\": \"16\", \"f17\": \"17\", \"f18\": \"18\", \"f19\": \"19\", \"f20\": \"20\", \"f21\": \"21\", \"f22\": \"22\", \"f23\": \"23\", \"f24\": \"24\", \"f25\": \"25\", \"f26\": \"26\", \"f27\": \"27\", \"f28\": \"28\", \"f29\": \"29\", \"f30\": \"30\", \"f31\": \"31\", \"f32\": \"32\", \"f33\": \"33\", \"f34\": \"34\", \"f35\": \"35\", \"f36\": \"36\", \"f37\": \"37\", \"f38\": \"38\", \"f39\": \"39\", \"f3\": \"x\"}}}",
		"{\"VLAN\": {\"AZURE\": {\"f0\": \"0\", \"f1\": \"1\", \"f2\": \"2\", \"f3\": \"3\", \"f4\": \"4\", \"f5\": \"5\", \"f6\": \"6\", \"f7\": \"7\", \"f8\": \"8\", \"f9\": \"9\", \"f10\": \"10\", \"f11\": \"11\", \"f12\": \"12\", \"f13\": \"13\", \"f14\": \"14\", \"f15\": \"15\", \"f16\": \"16\", \"f17\": \"17\", \"f18\": \"18\", \"f19\": \"19\", \"f20\": \"20\", \"f21\": \"21\", \"f22\": \"22\", \"f23\": \"23\", \"f24\": \"24\", \"f25\": \"25\", \"f26\": \"26\", \"f27\": \"27\", \"f28\": \"28\", \"f29\": \"29\", \"f30\": \"30\", \"f31\": \"31\", \"f32\": \"32\", \"f33\": \"33\", \"f34\": \"34\", \"f35\": \"35\", \"f36\": \"36\", \"f37\": \"37\", \"f38\": \"38\", \"f39\": \"39\", \"f3\": \"x\"}}}",
		"{\"PORT\": {\"a\": {\"x\": \"1\"}}, \"PORT\": {\"b\": {\"y\": \"2\"}}}",
		"{\"PORT\": {\"a\": {\"x\": \"1\"}, \"b\": {}, \"a\": {\"y\": \"2\"}}}",
		"{\"VLAN\": {\"a\": {\"x\": \"1\"}, \"b\": {}, \"a\": {\"y\": \"2\"}}}",
		"{\"VLAN\": {\"a\": {\"x\": \"1\"}}, \"VLAN|b\": {\"y\": \"2\"}}",
		"{\"VLAN|b\": {\"y\": \"2\"}, \"VLAN\": {\"a\": {\"x\": \"1\"}}}",
		"{\"PORT\": {\"b\": {\"x\": \"1\"}, \"a\": {}}, \"VLAN\": {\"b\": {}, \"a\": {\"x\": \"1\"}}}",
		"{\"PORT\": {\"a\": {}, \"a\": {\"x\": \"1\"}}, \"VLAN\": {\"a\": {}, \"a\": {}}}",
		"{\"PORT\": {\"a\": {}, \"c\": {}, \"b\": {}, \"c\": {\"x\": \"1\"}}, \"VLAN\": {\"a\": {}, \"c\": {}, \"b\": {}, \"c\": {}}}",
		"{\"PORT\": {\"\": {}, \"a\": {}}, \"VLAN\": {\"a\": {}, \"\": {}}}",
		"{\"PORT\": {\"a\": {\"x\": \"1\"}, \"b\": {}}, \"PORT|a\": {\"y\": \"2\"}, \"PORT|0\": {}}",
		"{\"VLAN\": {\"a\": {}, \"b\": {}}, \"VLAN|b\": {\"y\": \"2\"}, \"VLAN|0\": {}}",
		"{\"localhost\": {\"PORT\": {\"a\": {\"x\": \"1\"}}, \"VLAN\": {\"v\": {}}}, \"asic0\": {\"PORT\": {}}}",
		"{\"asic0\": {\"VLAN\": {\"v\": {\"x\": \"1\"}}}, \"PORT\": {}}",
		"{}",
		" \n{ } \n",
		"\ufeff{\"PORT\": {\"a\": {\"x\": \"1\"}}}",
		"{\"PORT\": {\"a\": {\"x\": \"1\"}}} x",
		"{\"PORT\": {\"a\": {\"x\": \"1\"}}}{}",
		"{\"PORT\": \"x\"}",
		"{\"PORT\": {\"a\": \"x\"}}",
		"{\"PO\\u0052T\": {\"a\": {\"x\": \"1\"}}}",
		"{\"PORT|a\": {\"x\": \"1\"}, \"PORT\": {\"b\": {\"y\": \"2\"}}, \"VERSIONS|DATABASE\": {\"VERSION\": \"v\"}}",
		"{\"PORT|a\": {\"x\": \"1\"}, \"PORT|a\": {\"x\": \"2\"}}",
		"{\"PORT|a\": \"x\"}",
		"{\"bgpraw\": \"router bgp 1\\n\", \"PORT\": {}}",
		"{\"PORT\": {}, \"bgpraw\": [\"x\"]}",
		"{\"bgpraw\": \"x\", \"localhost\": {\"PORT\": {}}}",
		"{\"PORT\": {}, \"localhost\": {\"PORT\": {\"a\": {\"x\": \"1\"}}}}",
		"{\"localhost\": {\"PORT\": {}}, \"VLAN\": {}}",
		"{\"PORT\": {\"a\": {\"x\": \"1\"}}, \"VLAN\": {\"v\": {\"x\": 1}}, \"PORT\": {\"b\": {\"x\": \"2\"}}}",
		"{\"PORT\": {\"a\": {\"x\": \"1\"}},}",
		"{\"PORT\" {\"a\": {\"x\": \"1\"}}}",
		"{\"PORT\": {\"a\": {\"x\": \"1\"}}",
		"[]",
		"\"x\"",
	} {
		c, err := Parse("p.json", []byte(in))
		ref, rerr := parse("p.json", []byte(in), in, true)
		if got, want := dump(c, err), dump(ref, rerr); got != want {
			t.Errorf("%s:\n%s\nthe decoder reads\n%s", in, got, want)
		}
	}
}

// A Config released gives its blocks to the next parse, which reads as a
// parse of fresh memory; a string read from a released Config of Parse
// still holds its text (one of ParseOwned gives its text back, filebuf),
// and the released one has no namespace left.
func TestRelease(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) < 2 {
		t.Fatalf("testdata: %v", err)
	}
	var want []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Parse(f, data)
		want = append(want, dump(c, err))
	}
	var kept, copies []string
	for round := range 2 {
		for i, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			parse := ParseOwned
			if round == 1 {
				parse = Parse
			}
			c, err := parse(f, data)
			if got := dump(c, err); got != want[i] {
				t.Fatalf("round %d, %s: a parse after Release reads differently", round, f)
			}
			if err != nil {
				continue
			}
			for _, name := range c.Namespaces[0].Order {
				if round == 0 {
					break
				}
				if tbl := c.Namespaces[0].Table(name); tbl.Len() > 0 {
					kept = append(kept, tbl.Keys[0])
					copies = append(copies, strings.Clone(tbl.Keys[0]))
					break
				}
			}
			c.Release()
			if c.Namespace("") != nil {
				t.Errorf("%s: released, still has its namespace", f)
			}
		}
	}
	for i := range kept {
		if kept[i] != copies[i] {
			t.Errorf("key %q read from a released Config is now %q", copies[i], kept[i])
		}
	}
}
