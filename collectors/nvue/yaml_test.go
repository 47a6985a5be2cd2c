package nvue

import (
	"reflect"
	"strings"
	"testing"
)

// The real CL 5.9.2 capture (ytti/oxidized
// spec/model/data/cumulus#MSN2010_5.9.2_nvue#custom_simulation.yaml).
func TestParseYAMLOxidized(t *testing.T) {
	cfg, err := ParseYAML("sw1/nv-config.yaml", readTestdata(t, "oxidized_5.9.2.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.File != "sw1/nv-config.yaml" || cfg.Format != "yaml" || cfg.Version != "Cumulus Linux 5.9.2" {
		t.Errorf("config = %q %q %q", cfg.File, cfg.Format, cfg.Version)
	}
	if cfg.Root.Key != "" {
		t.Errorf("root key = %q", cfg.Root.Key)
	}
	// Keys are kept as written, not expanded.
	ifs := object(t, cfg.Root, "interface")
	var keys []string
	for _, c := range ifs.Children {
		keys = append(keys, c.Key)
	}
	if got := strings.Join(keys, " "); got != "eth0,swp19-22 swp1-18 swp1-22" {
		t.Errorf("interface keys = %q", got)
	}
	up := object(t, cfg.Root, "interface", "eth0,swp19-22", "link", "state", "up")
	if len(up.Children) != 0 || up.Line != 11 {
		t.Errorf("up = %+v, want an empty object at line 11", up)
	}
	if n := object(t, cfg.Root, "interface", "eth0,swp19-22"); n.Line != 8 {
		t.Errorf("eth0,swp19-22 line = %d, want 8", n.Line)
	}
	for _, c := range []struct {
		path  []string
		value string
		line  int
	}{
		{[]string{"interface", "swp1-18", "description"}, "UNUSED 25G PORTS", 13},
		{[]string{"interface", "swp1-22", "type"}, "swp", 18},
		{[]string{"router", "bgp", "autonomous-system"}, "65432", 21},
		{[]string{"router", "bgp", "enable"}, "on", 22},
		{[]string{"router", "bgp", "router-id"}, "10.xx.xx.xx", 23},
		{[]string{"system", "config", "auto-save", "enable"}, "on", 27},
		{[]string{"system", "wjh", "enable"}, "on", 29},
	} {
		n := leaf(t, cfg.Root, c.path...)
		if n.Value != c.value || n.Line != c.line {
			t.Errorf("%v = %q at line %d, want %q at line %d", c.path, n.Value, n.Line, c.value, c.line)
		}
	}
	if cfg.Root.Get("header") != nil {
		t.Error("the header leaked into the tree")
	}
}

func TestParseYAMLShapes(t *testing.T) {
	for _, c := range []struct {
		name, in string
		version  string
		want     []string // flatten() of the root
	}{
		{
			name:    "doc form without leading dash (NVUE-CLI.md example)",
			in:      "header:\n  version: Cumulus Linux 5.14.0\nset:\n  qos:\n    roce:\n      mode: lossless\n",
			version: "Cumulus Linux 5.14.0",
			want:    []string{" > qos : {}", " > qos > roce : {}", " > qos > roce > mode = lossless"},
		},
		{
			name: "bare mapping is a set body",
			in:   "qos:\n  roce:\n    mode: lossless\n",
			want: []string{" > qos : {}", " > qos > roce : {}", " > qos > roce > mode = lossless"},
		},
		{
			name: "scalars are kept as written, unquoted",
			in: "- set:\n    qos:\n      roce:\n        enable: 'off'\n        cable-length: 100\n" +
				"      mapping:\n        default-global:\n          dscp:\n            '26':\n              switch-priority: 3\n" +
				"      congestion-control:\n        default-global:\n          traffic-class:\n            '3':\n              max-threshold: 1500000\n" +
				"      pfc:\n        p:\n          switch-priority: {'3': {}, '5': {}}\n" +
				"      remark:\n        a:\n        b: ~\n        c: ''\n",
			want: []string{
				" > qos : {}",
				" > qos > congestion-control : {}",
				" > qos > congestion-control > default-global : {}",
				" > qos > congestion-control > default-global > traffic-class : {}",
				" > qos > congestion-control > default-global > traffic-class > 3 : {}",
				" > qos > congestion-control > default-global > traffic-class > 3 > max-threshold = 1500000",
				" > qos > mapping : {}",
				" > qos > mapping > default-global : {}",
				" > qos > mapping > default-global > dscp : {}",
				" > qos > mapping > default-global > dscp > 26 : {}",
				" > qos > mapping > default-global > dscp > 26 > switch-priority = 3",
				" > qos > pfc : {}",
				" > qos > pfc > p : {}",
				" > qos > pfc > p > switch-priority : {}",
				" > qos > pfc > p > switch-priority > 3 : {}",
				" > qos > pfc > p > switch-priority > 5 : {}",
				" > qos > remark : {}",
				" > qos > remark > a : {}",
				" > qos > remark > b : {}",
				" > qos > remark > c = ",
				" > qos > roce : {}",
				" > qos > roce > cable-length = 100",
				" > qos > roce > enable = off",
			},
		},
		{
			name: "set entries deep-merge in order, a later leaf wins",
			in: "- set:\n    qos:\n      roce:\n        mode: lossy\n        enable: on\n" +
				"- set:\n    qos:\n      roce:\n        mode: lossless\n      pfc-watchdog:\n        robustness: 5\n",
			want: []string{
				" > qos : {}", " > qos > pfc-watchdog : {}", " > qos > pfc-watchdog > robustness = 5",
				" > qos > roce : {}", " > qos > roce > enable = on", " > qos > roce > mode = lossless",
			},
		},
		{
			name: "an object replaces a leaf and a leaf an object",
			in: "- set:\n    a:\n      b: x\n      c:\n        d: 1\n" +
				"- set:\n    a:\n      b:\n        e: 2\n      c: y\n",
			want: []string{" > a : {}", " > a > b : {}", " > a > b > e = 2", " > a > c = y"},
		},
		{
			name: "unset removes a subtree, a leaf, a collection member",
			in: "- set:\n    qos:\n      roce:\n        mode: lossy\n        enable: on\n" +
				"      pfc:\n        p:\n          switch-priority:\n            '3': {}\n            '5': {}\n" +
				"    system:\n      wjh:\n        enable: on\n" +
				"- unset:\n    qos:\n      roce:\n        mode:\n      pfc:\n        p:\n          switch-priority:\n            '5': {}\n" +
				"    system:\n      wjh:\n    router:\n      bgp:\n",
			want: []string{
				" > qos : {}", " > qos > pfc : {}", " > qos > pfc > p : {}", " > qos > pfc > p > switch-priority : {}",
				" > qos > pfc > p > switch-priority > 3 : {}", " > qos > roce : {}", " > qos > roce > enable = on",
				" > system : {}",
			},
		},
		{
			name: "nv config diff output: unset only",
			in:   "- unset:\n    system:\n      wjh:\n        channel:\n          forwarding:\n            trigger:\n              l2:\n",
		},
		{
			name:    "empty set and unset",
			in:      "- header:\n    version: Cumulus Linux 5.9.2\n- set:\n- unset:\n",
			version: "Cumulus Linux 5.9.2",
		},
		{
			name: "5.5.1 applied dump fragment",
			in: "      qos:\n        congestion-control:\n          default-global:\n            traffic-class:\n" +
				"              '0':\n                ecn: enable\n                max-threshold: 1500000\n" +
				"                min-threshold: 150000\n                probability: 100\n                red: disable\n",
			want: []string{
				" > qos : {}", " > qos > congestion-control : {}", " > qos > congestion-control > default-global : {}",
				" > qos > congestion-control > default-global > traffic-class : {}",
				" > qos > congestion-control > default-global > traffic-class > 0 : {}",
				" > qos > congestion-control > default-global > traffic-class > 0 > ecn = enable",
				" > qos > congestion-control > default-global > traffic-class > 0 > max-threshold = 1500000",
				" > qos > congestion-control > default-global > traffic-class > 0 > min-threshold = 150000",
				" > qos > congestion-control > default-global > traffic-class > 0 > probability = 100",
				" > qos > congestion-control > default-global > traffic-class > 0 > red = disable",
			},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := ParseYAML("f.yaml", []byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Version != c.version {
				t.Errorf("version = %q, want %q", cfg.Version, c.version)
			}
			got := strings.Join(flatten(cfg.Root), "\n")
			if want := strings.Join(c.want, "\n"); got != want {
				t.Errorf("tree:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

func TestParseYAMLLeafLineFollowsLastSet(t *testing.T) {
	in := "- set:\n    qos:\n      roce:\n        mode: lossy\n- set:\n    qos:\n      roce:\n        mode: lossless\n"
	cfg, err := ParseYAML("f.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if n := leaf(t, cfg.Root, "qos", "roce", "mode"); n.Value != "lossless" || n.Line != 8 {
		t.Errorf("mode = %q at %d, want lossless at 8", n.Value, n.Line)
	}
	if n := object(t, cfg.Root, "qos"); n.Line != 2 {
		t.Errorf("qos line = %d, want 2 (first seen)", n.Line)
	}
}

func TestParseYAMLErrors(t *testing.T) {
	for _, c := range []struct {
		name, in string
		line     int
		msg      string
	}{
		{"empty file", "", 1, "empty configuration"},
		{"only a comment", "# nothing\n", 1, "empty configuration"},
		{"only a document marker", "---\n", 1, "empty configuration"},
		{"top-level scalar", "\n\nhello\n", 3, "scalar"},
		{"list item not a mapping", "- header:\n    version: x\n- 5\n", 3, "list item"},
		{"unknown top-level entry", "- header: {}\n- apply:\n    a: 1\n", 2, "unexpected top-level key"},
		{"mixed doc form", "header: {}\nqos: {}\n", 2, "unexpected top-level key"},
		{"header not a mapping", "- header: [1]\n", 1, "header"},
		{"set not a mapping", "- set: on\n", 1, "must hold a mapping"},
		{"sequence inside set", "- set:\n    interface:\n      swp1:\n        link:\n          - mtu\n", 5, "list"},
		{"flow sequence inside set", "- set:\n    qos: [roce]\n", 2, "list"},
		{"sequence inside unset", "- unset:\n    qos: [roce]\n", 2, "list"},
		{"duplicate key", "- set:\n    qos: {}\n    system: {}\n    qos: {}\n", 4, "duplicate key \"qos\" (first at line 2)"},
		{"alias", "- set:\n    a: &x {b: 1}\n    c: *x\n", 3, "alias"},
		{"mapping key", "- set:\n    ? {a: 1}\n    : 2\n", 2, "key must be a plain scalar"},
		{"empty key", "- set:\n    '': 1\n", 2, "empty key"},
		{"two documents", "- set: {}\n---\n- set: {}\n", 2, "more than one YAML document"},
		{"syntax error with a line", "- set:\n    qos:\n      roce: {mode: lossless\n", 0, "YAML:"},
		{"syntax error without a line", "- set:\n    qos:\n      roce: mode: lossless\n", 3, "mapping values are not allowed"},
		{"tab indentation", "- set:\n    qos:\n\troce: {}\n", 3, "cannot start any token"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := ParseYAML("sw/nv-config.yaml", []byte(c.in))
			if err == nil {
				t.Fatalf("no error; tree %v", flatten(cfg.Root))
			}
			wantSourceError(t, err, "sw/nv-config.yaml", c.line, c.msg)
		})
	}
}

// FormatYAML keeps every header field, in order: the real 5.9.2 header
// (ytti/oxidized spec/model/data/cumulus#MSN2010_5.9.2_nvue#
// custom_simulation.yaml) and fields no file seen so far has, whatever
// their YAML.
func TestHeaderKept(t *testing.T) {
	in := `- header:
    model: MSN2010
    nvue-api-version: nvue_v1
    rev-id: 1.0
    version: Cumulus Linux 5.9.2
    zz-added: '*'
    empty:
    anchored: &a x
    again: *a
    nested:
      b: 1
      a: [1, 2]
    text: |
      two
      lines
- set:
    system:
      hostname: leaf01
`
	cfg, err := ParseYAML("h.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, f := range cfg.Header {
		keys = append(keys, f.Key+"="+f.Value)
	}
	if got := strings.Join(keys, " "); got != "model=MSN2010 nvue-api-version=nvue_v1 rev-id=1.0 version=Cumulus Linux 5.9.2 zz-added=* empty= anchored=x again=x nested= text=two\nlines\n" {
		t.Errorf("header = %q", got)
	}
	want := `- header:
    model: MSN2010
    nvue-api-version: nvue_v1
    rev-id: 1.0
    version: Cumulus Linux 5.9.2
    zz-added: '*'
    empty:
    anchored: x
    again: x
    nested:
      b: 1
      a: [1, 2]
    text: |
      two
      lines
- set:
    system:
      hostname: leaf01
`
	out := string(FormatYAML(cfg))
	if out != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	back, err := ParseYAML("out.yaml", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Header, cfg.Header) || back.Version != cfg.Version {
		t.Errorf("header read back as %q, want %q", back.Header, cfg.Header)
	}

	// A changed version is written in the version field's place.
	cfg.Version = "Cumulus Linux 5.14.0"
	if out := string(FormatYAML(cfg)); !strings.Contains(out, "    rev-id: 1.0\n    version: Cumulus Linux 5.14.0\n    zz-added:") {
		t.Errorf("version not replaced in place:\n%s", out)
	}
	// Without a header, a known version gets NVUE's constant fields.
	plain := &Config{Version: "Cumulus Linux 5.15.0", Root: &Node{}}
	if out := string(FormatYAML(plain)); out != "- header:\n    nvue-api-version: nvue_v1\n    rev-id: 1.0\n    version: Cumulus Linux 5.15.0\n- set: {}\n" {
		t.Errorf("default header:\n%s", out)
	}
	// A later header's field replaces the earlier one's in its place.
	two, err := ParseYAML("two.yaml", []byte("- header:\n    a: 1\n    b: 2\n- header:\n    a: 3\n- set: {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if out := string(FormatYAML(two)); out != "- header:\n    a: 3\n    b: 2\n- set: {}\n" {
		t.Errorf("two headers:\n%s", out)
	}
}
