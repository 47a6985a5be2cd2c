package sonicmodel

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/sonic/configdb"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// load parses files (paths under testdata or configdb's testdata) and lays
// their tables over each other, as one switch's config_db.json holds them
// all: the sonic-config-engine samples are each one template's tables.
func load(t *testing.T, files ...string) *configdb.Config {
	t.Helper()
	var out *configdb.Config
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c, err := configdb.Parse(filepath.Base(f), data)
		if err != nil {
			t.Fatal(err)
		}
		if out == nil {
			out = c
			continue
		}
		ns := out.Namespaces[0]
		for _, name := range c.Namespaces[0].Order {
			if _, ok := ns.Tables[name]; !ok {
				ns.Order = append(ns.Order, name)
			}
			ns.Tables[name] = c.Namespaces[0].Tables[name]
		}
	}
	return out
}

const (
	qosSample     = "../configdb/testdata/qos-mellanox4600c-c64-remap-disabled.json"
	dynamicSample = "../configdb/testdata/buffers-mellanox4600c-t1-dynamic.json"
	tradSample    = "../configdb/testdata/buffers-mellanox4600c-t1.json"
	portsSN5600   = "testdata/port-sn5600.json"
)

// lineOf is the line of the first line of file containing all of subs, in
// order, from after the line of the first marker.
func lineOf(t *testing.T, file string, after, sub string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	seen := after == ""
	for i, l := range strings.Split(string(data), "\n") {
		if !seen {
			seen = strings.Contains(l, after)
			continue
		}
		if strings.Contains(l, sub) {
			return i + 1
		}
	}
	t.Fatalf("%s: no %q after %q", file, sub, after)
	return 0
}

// The expected values are the stock template's (files/build_templates/
// qos_config.j2 as sonic-config-engine renders it for a Mellanox SKU):
// DSCP 26 → TC 1, 46 → 5, 48 → 6; PFC on 3 and 4; queues 3 and 4 on
// scheduler.1 (DWRR 15) with AZURE_LOSSLESS (ecn_all, 2000000-10000000
// bytes in this SKU's rendering); queues 0, 1, 2, 5 and 6 on scheduler.0
// (DWRR 14); no scheduler and no WRED on queue 7.
func TestStockMellanoxQoS(t *testing.T) {
	cfg := load(t, portsSN5600, qosSample, dynamicSample)
	sw, problems := Switch("leaf01", "leaf", cfg, nil)
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	if got := strings.Join(sw.Ports, ","); got != "Ethernet0" {
		t.Fatalf("checked ports %q, want Ethernet0 (Ethernet8 sets no admin_status: down)", got)
	}
	if sw.Flow.Platform != "SN5600" || sw.Flow.ASIC != "Spectrum-4" {
		t.Errorf("platform %q %q, want SN5600 Spectrum-4", sw.Flow.Platform, sw.Flow.ASIC)
	}
	q := sw.PortQoS.At("Ethernet0")
	dscpLine := func(d string) int {
		return lineOf(t, qosSample, `"DSCP_TO_TC_MAP"`, `"`+d+`"`)
	}
	for _, c := range []struct {
		dscp, tc int
		key      string
	}{{26, 1, "26"}, {46, 5, "46"}, {48, 6, "48"}, {8, 0, "8"}, {3, 3, "3"}} {
		v := q.DSCP.At(c.dscp)
		if v.V != c.tc || v.Origin.Pos().Line != dscpLine(c.key) || v.Origin.IsDefault() {
			t.Errorf("DSCP %d → %d at %v, want TC %d at line %d", c.dscp, v.V, v.Origin, c.tc, dscpLine(c.key))
		}
	}
	if q.Trust.V != "l3" {
		t.Errorf("trust %q, want l3", q.Trust.V)
	}
	for p, want := range []bool{false, false, false, true, true, false, false, false} {
		if q.PFC[p].V != want {
			t.Errorf("PFC %d = %v, want %v", p, q.PFC[p].V, want)
		}
	}
	for tc := range 8 {
		if q.TC[tc].V != tc || q.TC[tc].Origin.IsDefault() {
			t.Errorf("TC %d → queue %v, want %d from TC_TO_QUEUE_MAP|AZURE", tc, q.TC[tc], tc)
		}
	}
	if !q.ECN[3].V || q.ECNMin[3].V != 2000000 || q.ECNMax[3].V != 10000000 || q.ECN[0].V || q.ECN[6].V {
		t.Errorf("ECN %v/%v min %d max %d; want queue 3 only, 2000000-10000000", q.ECN[3].V, q.ECN[0].V, q.ECNMin[3].V, q.ECNMax[3].V)
	}
	// Five queues of weight 14 and two of 15 add to 100: the shares are
	// the weights.
	for i, want := range []int{14, 14, 14, 15, 15, 14, 14} {
		if q.Sched[i].V != "dwrr" || q.SchedBW[i].V != want {
			t.Errorf("queue %d: %s %d, want dwrr %d", i, q.Sched[i].V, q.SchedBW[i].V, want)
		}
	}
	if !q.SchedBW[7].Origin.IsDefault() || q.SchedBW[7].V != 0 {
		t.Errorf("queue 7 without a scheduler: %v", q.SchedBW[7])
	}
	if q.CableLength.V != 300 || q.CableFrom != "CABLE_LENGTH|AZURE" {
		t.Errorf("cable length %d from %s, want 300 (CABLE_LENGTH|AZURE Ethernet0 300m)", q.CableLength.V, q.CableFrom)
	}
	if sw.MTU.At("Ethernet0").V != 9100 || sw.Flow.Speed["Ethernet0"].V != "400G" {
		t.Errorf("MTU %d speed %s", sw.MTU.At("Ethernet0").V, sw.Flow.Speed["Ethernet0"].V)
	}
	if sw.PortAlias["etp1"] != "Ethernet0" || sw.PortAlias["etp2"] != "Ethernet8" {
		t.Errorf("aliases %v", sw.PortAlias)
	}
	b := sw.Buffers
	if b.Model.V != "dynamic" {
		t.Fatalf("buffer model %q", b.Model.V)
	}
	pg := b.PG("Ethernet0", 3)
	if pg == nil || !pg.Dynamic || !pg.Lossless || b.PG("Ethernet0", 4) != pg {
		t.Errorf("PG 3 of Ethernet0: %+v, want the dynamic (NULL) entry Ethernet0|3-4", pg)
	}
	if got := b.Lossless["Ethernet0"]; len(got) != 2 || got[0].PG != 3 || got[1].PG != 4 {
		t.Errorf("lossless PGs %+v, want 3 and 4 (TC_TO_PRIORITY_GROUP_MAP|AZURE)", got)
	}
	if _, ok := sw.ECMP["source-port"]; ok {
		t.Errorf("no SWITCH_HASH: ECMP must say nothing, got %v", sw.ECMP)
	}
}

// In the traditional rendering the lossless PG is not in the file:
// buffermgrd writes it at run time.
func TestTraditionalBuffers(t *testing.T) {
	cfg := load(t, portsSN5600, qosSample, tradSample)
	cfg.Namespaces[0].Table("DEVICE_METADATA").Row("localhost").Get("buffer_model").Value = "traditional"
	sw, _ := Switch("leaf01", "leaf", cfg, []string{"Ethernet0", "etp2"})
	if got := strings.Join(sw.Ports, ","); got != "Ethernet0,Ethernet8" {
		t.Fatalf("ports %q: the inventory names Ethernet0 and the alias etp2", got)
	}
	if pg := sw.Buffers.PG("Ethernet0", 3); pg != nil {
		t.Errorf("PG 3: %+v, want none", pg)
	}
	if pg := sw.Buffers.PG("Ethernet0", 0); pg == nil || pg.Profile != "ingress_lossy_profile" || pg.Lossless {
		t.Errorf("PG 0: %+v, want ingress_lossy_profile, lossy", pg)
	}
}

// Old releases wrote references as "[TABLE|name]"; the flat redis-dump
// shape keys rows "TABLE|key". Both read as the same model.
func TestOldReferencesAndFlatShape(t *testing.T) {
	cfg := load(t, "../configdb/testdata/qos_tables_db_field_value_reference_format_3_0_1.json")
	sw, problems := Switch("s", "leaf", cfg, []string{"Ethernet0"})
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	q := sw.PortQoS.At("Ethernet0")
	if q.MappingProfile.V != "AZURE" || !q.PFC[3].V || !q.PFC[4].V || q.Sched[0].V != "dwrr" {
		t.Errorf("mapping %q PFC3 %v PFC4 %v sched0 %q", q.MappingProfile.V, q.PFC[3].V, q.PFC[4].V, q.Sched[0].V)
	}
	if pg := sw.Buffers.PG("Ethernet0", 0); pg == nil || pg.Profile != "ingress_lossy_profile" {
		t.Errorf("PG 0 %+v: the [BUFFER_PROFILE|ingress_lossy_profile] reference", pg)
	}

	flat := load(t, "../configdb/testdata/reclaiming-buffer-traditional-double-pools-input.json")
	sw, _ = Switch("s", "leaf", flat, nil)
	pg := sw.Buffers.PG("Ethernet28", 3)
	if pg == nil || pg.Profile != "pg_lossless_100000_5m_profile" || !pg.Lossless {
		t.Errorf("Ethernet28 PG 3: %+v, want pg_lossless_100000_5m_profile (it has an xoff)", pg)
	}
	if sw.Buffers.Model.V != "traditional" {
		t.Errorf("model %q", sw.Buffers.Model.V)
	}
}

// A map a port names that the file does not define is an input problem
// at the reference, and the port's DSCPs are said to take the default TC.
func TestUndefinedMap(t *testing.T) {
	cfg := load(t, portsSN5600, qosSample)
	row := cfg.Namespaces[0].Table("PORT_QOS_MAP").Row("Ethernet0")
	row.Get("dscp_to_tc_map").Value = "ROCE"
	sw, problems := Switch("leaf01", "leaf", cfg, nil)
	if len(problems) != 1 || !strings.Contains(problems[0].Msg, "DSCP_TO_TC_MAP|ROCE") || problems[0].Line != row.Get("dscp_to_tc_map").Pos().Line {
		t.Fatalf("problems %v", problems)
	}
	if v := sw.PortQoS.At("Ethernet0").DSCP.At(26); v.V != 0 || !v.Origin.IsDefault() {
		t.Errorf("DSCP 26: %v", v)
	}
}

// A field the QoS tables' YANG does not define is a note at its line, once;
// a table the builder does not read is ignored.
func TestUnknownField(t *testing.T) {
	cfg := load(t, portsSN5600, qosSample)
	ns := cfg.Namespaces[0]
	row := ns.Table("PORT_QOS_MAP").Row("Ethernet0")
	f := *row.Get("dscp_to_tc_map")
	f.Name = "dscp_to_tc_mapp"
	row.Set(f)
	ns.Tables["NOT_A_QOS_TABLE"] = &configdb.Table{Name: "NOT_A_QOS_TABLE", Rows: map[string]*configdb.Row{"x": configdb.NewRow("x", source.Pos{}, configdb.Field{Name: "y"})}, Keys: []string{"x"}}
	ns.Order = append(ns.Order, "NOT_A_QOS_TABLE")
	sw, _ := Switch("leaf01", "leaf", cfg, nil)
	var notes []string
	for _, n := range sw.Notes {
		if strings.Contains(n.Msg, "unknown field") {
			notes = append(notes, n.Error())
		}
	}
	want := `PORT_QOS_MAP|Ethernet0: unknown field "dscp_to_tc_mapp", not read`
	if len(notes) != 1 || !strings.Contains(notes[0], want) || sw.Notes[0].Line != f.Pos().Line {
		t.Errorf("notes %q, want one %q at line %d", notes, want, f.Pos().Line)
	}
}

// BenchmarkSwitch builds sonic-pod's leaf01 (6 ports) from its parsed
// configuration: the builder's share of a SONiC switch's lint.
func BenchmarkSwitch(b *testing.B) {
	data, err := os.ReadFile("../../../examples/sonic-pod/devices/leaf01/config_db.json")
	if err != nil {
		b.Fatal(err)
	}
	cfg, err := configdb.Parse("config_db.json", data)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for range b.N {
		Switch("leaf01", "leaf", cfg, nil)
	}
}

// NVIDIA's lossy-RoCE SKU for the SN5600 (Mellanox-SN5600-C256S1, rendered
// in testdata/sn5600-c256s1-t0.json): its WRED profiles set ecn_all without
// wred_green_enable on queues 1-3, which a Spectrum marks (model.MarksECNWithoutWREDEnable);
// the same profile on a switch the file names no Spectrum for does not
// (sonic-net/sonic-buildimage#4545). DSCP 5 and 6 land in TC 3, 48 in 5;
// PFC is off; the DWRR weights 4/8/18/22/22/22/4 are the shares 4%, 8%,
// 18%, 22%, 22%, 22%, 4%.
func TestNVIDIALossySKU(t *testing.T) {
	cfg := load(t, "testdata/sn5600-c256s1-t0.json")
	if asic := ASIC(cfg); asic != "Spectrum-4" || !model.MarksECNWithoutWREDEnable(asic) {
		t.Fatalf("ASIC %q, or it does not mark on ecn alone", asic)
	}
	sw, problems := Switch("leaf01", "leaf", cfg, nil)
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	for _, port := range []string{"Ethernet0", "Ethernet7"} {
		q := sw.PortQoS.At(port)
		if q == nil {
			t.Fatalf("%s not checked: %v", port, sw.Ports)
		}
		for queue, want := range []bool{false, true, true, true, true, true, false} {
			if q.ECN[queue].V != want {
				t.Errorf("%s queue %d ECN %v (%v), want %v", port, queue, q.ECN[queue].V, q.ECN[queue].Origin, want)
			}
		}
		if q.DSCP.At(5).V != 3 || q.DSCP.At(6).V != 3 || q.DSCP.At(48).V != 5 || q.DSCP.At(26).V != 4 {
			t.Errorf("%s DSCP 5,6,48,26 → %d,%d,%d,%d, want 3,3,5,4", port, q.DSCP.At(5).V, q.DSCP.At(6).V, q.DSCP.At(48).V, q.DSCP.At(26).V)
		}
		for p, on := range q.PFC {
			if on.V {
				t.Errorf("%s PFC on %d", port, p)
			}
		}
		var shares []int
		for i := range 7 {
			shares = append(shares, q.SchedBW[i].V)
		}
		if fmt.Sprint(shares) != "[4 8 18 22 22 22 4]" {
			t.Errorf("%s shares %v", port, shares)
		}
	}
	// The same tables without the platform: the SAI spec's rule.
	*cfg.Namespaces[0].Table("DEVICE_METADATA").Row("localhost") = *configdb.NewRow("localhost", source.Pos{})
	if asic := ASIC(cfg); asic != "" || model.MarksECNWithoutWREDEnable(asic) {
		t.Fatalf("ASIC %q without a platform", asic)
	}
	sw, _ = Switch("leaf01", "leaf", cfg, nil)
	if q := sw.PortQoS.At("Ethernet0"); q.ECN[3].V || !strings.Contains(q.ECN[3].Origin.Default(), "wred_green_enable") {
		t.Errorf("ECN on queue 3 %v (%v) without a Spectrum named", q.ECN[3].V, q.ECN[3].Origin)
	}
}

// Every table the builder reads is one configdb reads with the file: any
// other is only scanned, and read again on its first use.
func TestTablesReadWithFile(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?:Table|[mr][ae][pf]Row)\((?:[a-z.]+, )?"([A-Z0-9_]+)"`)
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			n++
			if !configdb.ReadWithFile(m[1]) {
				t.Errorf("%s reads table %s, which configdb only scans: add it to configdb's readTables", f, m[1])
			}
		}
	}
	if n < 20 {
		t.Errorf("found %d table reads, want the builder's (some 40)", n)
	}
}
