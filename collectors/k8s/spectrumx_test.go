package k8s

import (
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The operator's two Spectrum-X example templates are the expected parse.
func TestSpectrumXTemplateExamples(t *testing.T) {
	m, err := parseFile(t, "nictemplate-spectrum-x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Templates) != 2 {
		t.Fatalf("templates = %d", len(m.Templates))
	}
	for i, want := range []struct {
		nicType, version, platform, overlay, mode string
		planes, versionLine                       int
	}{
		{"a2dc", "RA2.0", "gb200", "none", "", 0, 20},
		{"1023", "RA2.1", "gb300", "none", "hwplb", 4, 42},
	} {
		tm := m.Templates[i]
		s := tm.SpectrumX
		if s == nil || !s.Enabled || tm.RoCE != nil {
			t.Fatalf("%d: spectrumXOptimized %+v roceOptimized %+v", i, s, tm.RoCE)
		}
		if tm.NicType.V != want.nicType || tm.NumVfs.V != 1 || !tm.NumVfs.Set || tm.LinkType.V != "Ethernet" {
			t.Errorf("%d: nicType %q numVfs %+v linkType %q", i, tm.NicType.V, tm.NumVfs, tm.LinkType.V)
		}
		if s.Version.V != want.version || s.Version.Pos.Line != want.versionLine || s.PlatformType.V != want.platform ||
			s.Overlay.V != want.overlay || s.MultiplaneMode.V != want.mode || s.NumberOfPlanes.V != want.planes {
			t.Errorf("%d: %+v", i, s)
		}
	}
}

// The operator's RA2.2 profile, as a profile ConfigMap: its two RoCE
// runtime parameters at their lines, and the nvconfig per device.
func TestProfileConfigMapRA22(t *testing.T) {
	m, err := parseFile(t, "spectrum-x-profile-ra2.2.yaml")
	if err != nil || len(m.Problems) != 0 {
		t.Fatal(err, m.Problems)
	}
	c := m.ConfigMaps[0]
	if c.Name != "RA2.2" || c.Namespace != "nvidia-network-operator" || c.Profile == nil || c.ProfileErr != nil {
		t.Fatalf("%+v", c)
	}
	want := []ProfileParam{
		{Name: "Trust", Value: "dscp", DMSPath: "/interfaces/interface/nvidia/qos/config/trust-mode"},
		{Name: "PFC", Value: "00010000", DMSPath: "/interfaces/interface/nvidia/qos/config/pfc"},
	}
	p := c.Profile
	if len(p.Roce) != 2 || p.Pos.Line != 16 {
		t.Fatalf("roce %+v at %v", p.Roce, p.Pos)
	}
	for i, w := range want {
		w.Pos = p.Roce[i].Pos
		if p.Roce[i] != w {
			t.Errorf("roce[%d] %+v, want %+v", i, p.Roce[i], w)
		}
	}
	if p.Roce[0].Pos.Line != 456 || p.Roce[1].Pos.Line != 461 || p.Roce[0].Pos.File != "spectrum-x-profile-ra2.2.yaml" {
		t.Errorf("lines %v %v", p.Roce[0].Pos, p.Roce[1].Pos)
	}
	dev := p.MlxConfig["none"]["1023"]
	if dev == nil || dev.PostBreakout["ROCE_RTT_RESP_DSCP_P1"].V != "48" || dev.PostBreakout["MULTIPATH_DSCP"].V != "0" {
		t.Fatalf("mlxConfig none 1023 %+v", dev)
	}
	if l := dev.PostBreakout["LINK_TYPE_P1"].Pos.Line; l != 418 {
		t.Errorf("LINK_TYPE_P1 at %d, want 418", l)
	}
	if b := p.MlxConfig["swplb"]["1023"].Breakout[4]["NUM_OF_PF"]; b.V != "4" {
		t.Errorf("swplb 1023 breakout 4 NUM_OF_PF %+v", b)
	}
}

// The README's example profile ConfigMap has placeholder values; they are
// read as written.
func TestProfileConfigMapExample(t *testing.T) {
	m, err := parseFile(t, "spectrum-x-profile-example.yaml")
	if err != nil || len(m.Problems) != 0 {
		t.Fatal(err, m.Problems)
	}
	p := m.ConfigMaps[0].Profile
	if p == nil || len(p.Roce) != 1 || p.Roce[0].Name != "Example RoCE runtime parameter" || p.Roce[0].Value != "example-value" ||
		p.Roce[0].DMSPath != "<dms-path-for-runtime-parameter>" {
		t.Fatalf("%+v", p)
	}
	if p.MlxConfig["swplb"]["1023"].Breakout[2]["EXAMPLE_BREAKOUT_PARAMETER"].V != "example-value" {
		t.Errorf("mlxConfig %+v", p.MlxConfig)
	}
}

// The CRDs of four releases: which fields each has, and whether the
// Spectrum-X version is an enum of built-in profiles.
func TestNicTemplateCRDs(t *testing.T) {
	fields := []string{"template.roceOptimized.qos.tos", "template.rawNvConfig", "template.rawNvConfig.name",
		"template.spectrumXOptimized", "template.roceOptimized.roceMode", "template.roceOptimized.qos.ecn.priority"}
	for _, tc := range []struct {
		file string
		has  []bool
		enum []string
	}{
		{"crd-nicconfigurationtemplates-v25.7.0.yaml", []bool{false, false, false, false, false, false}, nil},
		{"crd-nicconfigurationtemplates-v25.10.0.yaml", []bool{true, true, true, true, false, false}, []string{"RA1.3", "RA2.0"}},
		{"crd-nicconfigurationtemplates-v26.4.1.yaml", []bool{true, true, true, true, false, false}, []string{"RA1.3", "RA2.0", "RA2.1", "RA2.2"}},
		{"crd-nicconfigurationtemplates-v26.7.0-rc.2.yaml", []bool{true, true, true, true, true, true}, nil},
	} {
		m, err := parseFile(t, tc.file)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.CRDs) != 1 || len(m.Ignored) != 0 {
			t.Fatalf("%s: crds %d, ignored %v", tc.file, len(m.CRDs), m.Ignored)
		}
		c := m.CRDs[0]
		if c.Name != NicTemplateCRDName || c.Fields == nil || c.Pos.Line != 4 {
			t.Fatalf("%s: %s at %v", tc.file, c.Name, c.Pos)
		}
		for i, f := range fields {
			if _, ok := c.Fields[f]; ok != tc.has[i] {
				t.Errorf("%s: %s present %v", tc.file, f, ok)
			}
		}
		if !reflect.DeepEqual(c.ProfileEnum, tc.enum) {
			t.Errorf("%s: enum %q", tc.file, c.ProfileEnum)
		}
	}
}

// A profile the operator could not parse is an error at its line in the
// manifest; the ConfigMap and the documents after it are still read.
func TestProfileErrors(t *testing.T) {
	head := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: RA9\n  labels:\n    " + ProfileLabel + ": \"\"\ndata:\n  profile: |\n"
	tail := "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: after}\n"
	for _, tc := range []struct {
		name, body string
		line       int
		msg        string
	}{
		{"roce a mapping", "    runtimeConfig:\n      roce:\n        trust: dscp\n", 11, "runtimeConfig.roce: want a list"},
		{"entry a string", "    runtimeConfig:\n      roce:\n        - Trust\n", 11, "an entry must be a mapping"},
		{"not YAML", "    runtimeConfig:\n      roce: [\n", 10, "data.profile: not YAML"},
		{"breakout not a number", "    mlxConfig:\n      swplb:\n        \"1023\":\n          breakout:\n            two: {NUM_OF_PF: \"2\"}\n", 13, "is not a number of planes"},
		{"a list", "    - mlxConfig\n", 9, "must be a mapping"},
	} {
		m := &Manifests{}
		if err := m.Parse("k8s/p.yaml", []byte(head+tc.body+tail)); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(m.Problems) != 1 || m.Problems[0].Pos.Line != tc.line || m.Problems[0].Pos.File != "k8s/p.yaml" || !strings.Contains(m.Problems[0].Msg, tc.msg) {
			t.Errorf("%s: problems %v", tc.name, m.Problems)
		}
		if len(m.ConfigMaps) != 2 || m.ConfigMaps[0].Profile != nil || m.ConfigMaps[0].ProfileErr == nil {
			t.Errorf("%s: configmaps %+v", tc.name, m.ConfigMaps)
		}
	}
	// In a quoted string the profile's lines are not the file's: its
	// values and errors are placed on the key's line.
	m := &Manifests{}
	if err := m.Parse("k8s/q.yaml", []byte(head[:strings.LastIndex(head, "  profile")]+"  profile: \"runtimeConfig:\\n  roce: 3\\n\"\n")); err != nil {
		t.Fatal(err)
	}
	if len(m.Problems) != 1 || m.Problems[0].Pos.Line != 8 {
		t.Errorf("quoted: %v", m.Problems)
	}
}

// An unlabelled ConfigMap's profile key is plain data.
func TestProfileNeedsLabel(t *testing.T) {
	m := &Manifests{}
	if err := m.Parse("k8s/p.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: RA2.2}\ndata:\n  profile: \"- x\"\n")); err != nil {
		t.Fatal(err)
	}
	if c := m.ConfigMaps[0]; c.Profile != nil || c.ProfileErr != nil || len(m.Problems) != 0 || c.Data["profile"].V != "- x" {
		t.Errorf("%+v %v", c, m.Problems)
	}
}

func FuzzProfile(f *testing.F) {
	m, err := parseFile(f, "spectrum-x-profile-example.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(m.ConfigMaps[0].Data[ProfileKey].V)
	// The whole RA2.2 profile (20 kB) is FuzzParse's seed; here its
	// single-plane nvconfig and its RoCE section keep the inputs small
	// enough to mutate quickly.
	if m, err = parseFile(f, "spectrum-x-profile-ra2.2.yaml"); err != nil {
		f.Fatal(err)
	}
	ra := m.ConfigMaps[0].Data[ProfileKey].V
	f.Add("mlxConfig:\n" + ra[strings.Index(ra, "  none:"):strings.Index(ra, "  adaptiveRouting:")])
	f.Add("runtimeConfig:\n  roce:\n    - {name: PFC, value: \"00010000\", breakout: x}\n")
	f.Fuzz(func(t *testing.T, s string) {
		k := &yaml.Node{Kind: yaml.ScalarNode, Value: ProfileKey, Line: 3}
		v := &yaml.Node{Kind: yaml.ScalarNode, Value: s, Style: yaml.LiteralStyle, Line: 3}
		p, err := profile("f.yaml", k, v)
		if (p == nil) == (err == nil) {
			t.Fatalf("profile %v, error %v", p, err)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "f.yaml:") {
			t.Fatalf("error without its file: %v", err)
		}
	})
}
