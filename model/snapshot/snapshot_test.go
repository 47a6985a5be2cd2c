package snapshot_test

import (
	"bytes"
	goldenpkg "github.com/qoslint/qoslint/internal/golden"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/internal/snaptest"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model/snapshot"
)

// golden compares got with testdata/name (see package golden).
func golden(t *testing.T, name string, got []byte) { t.Helper(); goldenpkg.Check(t, name, got) }

func take(t testing.TB, dir string) *snapshot.Snapshot { t.Helper(); return snaptest.Take(t, dir) }

func write(t testing.TB, s *snapshot.Snapshot) []byte { t.Helper(); return snaptest.Write(t, s) }

func validate(t *testing.T, schemaFile string, data []byte) {
	t.Helper()
	snaptest.Validate(t, schemaFile, data)
}

var fabrics = []struct{ name, dir string }{
	{"clean-pod", "../../examples/clean-pod"},
	{"broken-pod", "../../examples/broken-pod"},
	{"input-errors", "../../render/testdata/input-errors"},
}

func TestSnapshotGolden(t *testing.T) {
	got := write(t, take(t, "../../examples/clean-pod"))
	golden(t, "clean-pod.snapshot.json", got)
	if again := write(t, take(t, "../../examples/clean-pod")); !bytes.Equal(got, again) {
		t.Error("two snapshots of one input differ")
	}
}

func TestSnapshotsValidate(t *testing.T) {
	for _, f := range fabrics {
		t.Run(f.name, func(t *testing.T) {
			validate(t, snapshot.SnapshotSchemaFile, write(t, take(t, fixture.Dir(t, f.dir))))
		})
	}
}

func TestRoundTrip(t *testing.T) {
	for _, f := range fabrics {
		t.Run(f.name, func(t *testing.T) {
			s := take(t, fixture.Dir(t, f.dir))
			data := write(t, s)
			back, err := snapshot.Read("snap.json", data)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s, back) {
				t.Errorf("Read(Write(s)) != s")
			}
			if !bytes.Equal(write(t, back), data) {
				t.Errorf("Write(Read(Write(s))) != Write(s)")
			}
		})
	}
}

// TestSnapshotContent pins the facts the drift relies on, with their
// evidence, on the planted defects of broken-pod.
func TestSnapshotContent(t *testing.T) {
	s := take(t, "../../examples/broken-pod")
	sw := func(name string) *snapshot.Switch {
		for i := range s.Switches {
			if s.Switches[i].Name == name {
				return &s.Switches[i]
			}
		}
		t.Fatalf("no switch %s", name)
		return nil
	}
	leaf01 := sw("leaf01").PortGroups
	// swp2 is bound to pfc profile storage-pfc (defect 20), the rest to
	// default-global.
	if len(leaf01) != 2 || leaf01[0].Ports != "swp1,swp3-32" || leaf01[1].Ports != "swp2" {
		t.Fatalf("leaf01 groups = %+v", leaf01)
	}
	if g := leaf01[1]; g.Profiles.PFC.Value != "storage-pfc" || !reflect.DeepEqual(g.PFC.Value, []int{2}) || g.PFC.Origin != "devices/leaf01/nv-config.yaml:42" {
		t.Errorf("leaf01 swp2 pfc profile %+v, PFC %+v", g.Profiles.PFC, g.PFC)
	}
	m := leaf01[0].DSCP
	if got := *m.Map[26]; got != 0 {
		t.Errorf("leaf01 DSCP 26 → %d, want 0", got)
	}
	if want := []snapshot.DSCPEntry{{DSCP: 26, Priority: 0, Origin: "devices/leaf01/nv-config.yaml:39"}}; !reflect.DeepEqual(m.NonDefault, want) {
		t.Errorf("non_default = %+v, want %+v", m.NonDefault, want)
	}
	leaf03 := sw("leaf03")
	if len(leaf03.PortGroups) != 2 || leaf03.PortGroups[0].Ports != "swp1-16" || leaf03.PortGroups[1].Ports != "swp17-32" {
		t.Errorf("leaf03 groups: %+v", leaf03.PortGroups)
	}
	if tr := leaf03.PortGroups[0].Trust; tr.Value != "l2" || tr.Origin != "devices/leaf03/nv-config.yaml:38" {
		t.Errorf("leaf03 swp1-16 trust = %+v", tr)
	}
	var mtu []string
	for _, g := range leaf03.MTU {
		mtu = append(mtu, g.Ports+"="+strconv.Itoa(g.Value))
	}
	if got := strings.Join(mtu, " "); got != "swp1-4,swp6-32=9216 swp5=1500" {
		t.Errorf("leaf03 MTU groups = %s", got)
	}
	if pfc := sw("leaf02").PortGroups[0].PFC; !reflect.DeepEqual(pfc.Value, []int{4}) || pfc.Origin != "devices/leaf02/nv-config-commands.txt:11" {
		t.Errorf("leaf02 PFC = %+v", pfc)
	}
	if sp := sw("spine02"); sp.RoCE.Mode.Value != "lossy" || sp.Syntax != "5.14" {
		t.Errorf("spine02 roce %+v syntax %s", sp.RoCE, sp.Syntax)
	}
	// Defect 21: spine01 swp1 at 9000 against leaf01 swp31 at 9216, each
	// MTU with its evidence and each end's LLDP entry; gpu03's swapped
	// cables (defect 19) as LLDP saw them.
	links := map[string]snapshot.Link{}
	for _, l := range s.Topology.Links {
		links[l.A.Device+":"+l.A.Port] = l
	}
	up := links["leaf01:swp31"]
	if up.B.Device != "spine01" || up.B.Port != "swp1" || up.OneSided ||
		up.A.MTU != (snapshot.Fact[int]{Value: 9216, Known: true, Origin: "devices/leaf01/nv-config.yaml:17"}) ||
		up.B.MTU != (snapshot.Fact[int]{Value: 9000, Known: true, Origin: "devices/spine01/nv-config.yaml:21"}) ||
		up.A.Seen != "devices/leaf01/lldp.json:249" || up.B.Seen != "devices/spine01/lldp.json:5" || up.B.SwitchPort != "swp1" {
		t.Errorf("leaf01 swp31 link = %+v", up)
	}
	if l := links["gpu03:ens1f0np0"]; l.B.Device != "leaf02" || l.B.Port != "swp3" || l.A.SwitchPort != "" || !l.A.MTU.Known {
		t.Errorf("gpu03 ens1f0np0 link = %+v", l)
	}
	if got := strings.Join(s.Topology.LLDP, ","); got != "gpu01,gpu02,gpu03,gpu04,leaf01,leaf02,leaf03,spine01,spine02" {
		t.Errorf("lldp collected on %s", got)
	}
	var gpu03 *snapshot.Host
	for i := range s.Hosts {
		if s.Hosts[i].Name == "gpu03" {
			gpu03 = &s.Hosts[i]
		}
	}
	tos := gpu03.NICs[0].ToS
	if tos.Effective.Value != 26 || tos.Via != "NCCL_IB_TC" || tos.Effective.Origin != "devices/gpu03/nccl.conf:6" || tos.Forced.Value != -1 {
		t.Errorf("gpu03 ToS = %+v", tos)
	}
}

// TestReadWithoutLinks: a snapshot written before links were recorded (the
// clean pod's, without "topology") still reads, with Topology nil, and
// writes back without a "topology" key: its links are unknown, not absent.
// (Not byte for byte: fields added since, such as min_bandwidth, are
// written with the value an old snapshot reads as.)
func TestReadWithoutLinks(t *testing.T) {
	data, err := os.ReadFile("testdata/clean-pod.nolinks.snapshot.json")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(`"topology"`)) {
		t.Fatal("the fixture records links")
	}
	s, err := snapshot.Read("clean-pod.nolinks.snapshot.json", data)
	if err != nil {
		t.Fatal(err)
	}
	if s.Topology != nil {
		t.Errorf("topology = %+v, want nil", s.Topology)
	}
	if got := write(t, s); bytes.Contains(got, []byte(`"topology"`)) {
		t.Error("Write(Read(old snapshot)) records links the old snapshot did not")
	}
	if cur := take(t, "../../examples/clean-pod"); cur.Topology == nil || len(cur.Topology.Links) != 12 {
		t.Errorf("the clean pod's snapshot records %+v, want its 12 cables", cur.Topology)
	}
}

// TestReadRejects: every bad input is a *source.Error naming the file and
// the line, and says what is wrong.
func TestReadRejects(t *testing.T) {
	good := string(write(t, take(t, "../../examples/clean-pod")))
	for _, tc := range []struct {
		name, data string
		line       int
		want       string
	}{
		{"other version", strings.Replace(good, `"qoslint.snapshot/v1"`, `"qoslint.snapshot/v2"`, 1), 2,
			`snapshot schema "qoslint.snapshot/v2" is not supported: this qoslint reads "qoslint.snapshot/v1"`},
		{"a lint report", "{\n  \"schema\": \"qoslint.report/v1\",\n  \"fabric\": \"x\"\n}\n", 2, `"qoslint.report/v1" is not supported`},
		{"no schema", "{\n  \"fabric\": \"x\"\n}\n", 1, `no "schema" field`},
		{"not JSON", "{\n  \"schema\": \"qoslint.snapshot/v1\",\n  \"fabric\": x\n}\n", 3, "invalid character"},
		{"empty", "", 1, "unexpected end of JSON input"},
		{"short DSCP map", strings.Replace(good, `"map": [0, 0, 0, 0, 0, 0, 0, 0, 1,`, `"map": [0, 0, 0, 0, 0, 0, 0, 1,`, 1),
			lineWith(good, `"map": [0, 0, 0, 0, 0, 0, 0, 0, 1,`), "minItems"},
		{"bad trust", strings.Replace(good, `"trust": {"value": "both"`, `"trust": {"value": "dscp"`, 1),
			lineWith(good, `"trust": {"value": "both"`), "value must be one of"},
		{"bad port range", strings.Replace(good, `"ports": "swp1-32"`, `"ports": "swp32-1"`, 1),
			lineWith(good, `"ports": "swp1-32"`), `ports "swp32-1": bad range`},
		{"too many ports", strings.Replace(good, `"ports": "swp1-32"`, `"ports": "`+manyPorts()+`"`, 1),
			lineWith(good, `"ports": "swp1-32"`), "has more than 16384 ports"},
		{"missing field", strings.Replace(good, `"fabric": "pod-clean",`, ``, 1), 1, `missing property 'fabric'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := snapshot.Read("old.json", []byte(tc.data))
			se, ok := err.(*source.Error)
			if !ok {
				t.Fatalf("err = %v (%T), want *source.Error", err, err)
			}
			if se.File != "old.json" || se.Line != tc.line || !strings.Contains(se.Msg, tc.want) {
				t.Errorf("got %q at line %d, want line %d and %q", err, se.Line, tc.line, tc.want)
			}
		})
	}
}

// manyPorts is 5 ranges of 4096 ports, each within model.ExpandNames'
// bound.
func manyPorts() string {
	var rs []string
	for _, p := range []string{"a", "b", "c", "d", "e"} {
		rs = append(rs, p+"1-4096")
	}
	return strings.Join(rs, ",")
}

func lineWith(doc, s string) int {
	i := strings.Index(doc, s)
	return 1 + strings.Count(doc[:i], "\n")
}

// TestReadWithoutSections: a snapshot written before the optional sections
// existed reads with none of them, its values there unknown (nil), and
// writes back without them; its policy's PFC cable length is the default.
func TestReadWithoutSections(t *testing.T) {
	data, err := os.ReadFile("testdata/clean-pod.nolinks.snapshot.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := snapshot.Read("clean-pod.nolinks.snapshot.json", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, sec := range snapshot.AllSections {
		if s.Has(sec) {
			t.Errorf("an old snapshot carries section %s", sec)
		}
	}
	for _, sw := range s.Switches {
		if sw.Flow != nil || sw.HashSeed != nil || sw.TrafficPools != nil || len(sw.PortGroups) > 0 && (sw.PortGroups[0].CableLength != nil || sw.PortGroups[0].PCP != nil) {
			t.Errorf("%s: values of a section the snapshot lacks: %+v %+v", sw.Name, sw.Flow, sw.HashSeed)
		}
	}
	for _, h := range s.Hosts {
		if h.NCCLGIDIndex != nil || h.NCCLRoCEVersion != nil || len(h.NICs) > 0 && h.NICs[0].RoCEVersion != nil {
			t.Errorf("%s: RoCE version values the snapshot does not record", h.Name)
		}
		if h.Applications != nil || len(h.NICs) > 0 && h.NICs[0].RDMACMToS != nil {
			t.Errorf("%s: application values the snapshot does not record", h.Name)
		}
	}
	if got := s.Policy.Inventory().PFC.CableLength; got != 100 {
		t.Errorf("pfc.cable_length = %d, want the default 100", got)
	}
	got := write(t, s)
	for _, key := range []string{`"sections"`, `"flow_control"`, `"hash_seed"`, `"cable_length"`, `"pcp_map"`, `"traffic_pools"`, `"roce_version"`, `"nccl_ib_gid_index"`, `"firmware"`, `"applications"`, `"rdma_cm_default_roce_tos"`} {
		if bytes.Contains(got, []byte(key)) {
			t.Errorf("Write(Read(old snapshot)) writes %s", key)
		}
	}
	cur := take(t, "../../examples/clean-pod")
	if strings.Join(cur.Sections, ",") != "applications,firmware,flow_control,forwarding,pcp_map,roce_version,traffic_pools" {
		t.Errorf("a snapshot taken now carries %v", cur.Sections)
	}
}
