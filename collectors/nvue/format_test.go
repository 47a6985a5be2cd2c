package nvue

import (
	"strings"
	"testing"
)

func TestYAMLScalars(t *testing.T) {
	for _, c := range []struct {
		in, key, value string
	}{
		// As NVUE writes them (ytti/oxidized spec/model/data/cumulus#MSN2010_5.9.2_nvue#custom_simulation.yaml;
		// an unattributed public CL 5.5.1 applied dump, not verified).
		{"26", "'26'", "26"},
		{"9216", "'9216'", "9216"},
		{"on", "on", "on"},
		{"off", "off", "off"},
		{"1.0", "'1.0'", "1.0"},
		{"*", "'*'", "'*'"},
		{"swp1-2,32", "swp1-2,32", "swp1-2,32"},
		{"eth0,swp19-22", "eth0,swp19-22", "eth0,swp19-22"},
		{"10.10.10.1/32", "10.10.10.1/32", "10.10.10.1/32"},
		{"UNUSED 25G PORTS", "UNUSED 25G PORTS", "UNUSED 25G PORTS"},
		{"Cumulus Linux 5.9.2", "Cumulus Linux 5.9.2", "Cumulus Linux 5.9.2"},
		{"2001:db8::1/64", "2001:db8::1/64", "2001:db8::1/64"},
		// What YAML would read as something else.
		{"", "''", "''"},
		{"~", "'~'", "'~'"},
		{"null", "'null'", "'null'"},
		{"true", "'true'", "'true'"},
		{"False", "'False'", "'False'"},
		{"2024-01-02", "'2024-01-02'", "'2024-01-02'"},
		{"<<", "'<<'", "'<<'"},
		{"-", "'-'", "'-'"},
		{"- x", "'- x'", "'- x'"},
		{"-1", "'-1'", "-1"},
		{"a: b", "'a: b'", "'a: b'"},
		{"fe80::", "'fe80::'", "'fe80::'"},
		{"a #b", "'a #b'", "'a #b'"},
		{"#2", "'#2'", "'#2'"},
		{"&x", "'&x'", "'&x'"},
		{"!tag", "'!tag'", "'!tag'"},
		{"[1]", "'[1]'", "'[1]'"},
		{"{}", "'{}'", "'{}'"},
		{" lead", "' lead'", "' lead'"},
		{"a  b", "'a  b'", "'a  b'"},
		{"it's", "it's", "it's"},
		{"'q'", "'''q'''", "'''q'''"},
		{"Ünused", "'Ünused'", "'Ünused'"},
		// Only a double-quoted scalar holds these on one line.
		{"a\nb", `"a\nb"`, `"a\nb"`},
		{"tab\there", `"tab\there"`, `"tab\there"`},
		{"nul\x00", `"nul\x00"`, `"nul\x00"`},
		{"q\"\\", `q"\`, `q"\`},
		{"q\"\n", `"q\"\n"`, `"q\"\n"`},
		{"\u2028", `"\u2028"`, `"\u2028"`},
		{"bad\xff", `"bad\xFF"`, `"bad\xFF"`},
	} {
		if got := yamlKey(c.in); got != c.key {
			t.Errorf("key %q written %s, want %s", c.in, got, c.key)
		}
		if got := yamlValue(c.in); got != c.value {
			t.Errorf("value %q written %s, want %s", c.in, got, c.value)
		}
		if c.in == "" || strings.Contains(c.in, "\xff") {
			continue // no empty keys; no invalid UTF-8 in YAML
		}
		// Both forms read back as the same string.
		cfg := &Config{Root: &Node{Children: []*Node{{Key: c.in, IsLeaf: true, Value: c.in}}}}
		back, err := ParseYAML("y", FormatYAML(cfg))
		if err != nil {
			t.Errorf("%q: %v\n%s", c.in, err, FormatYAML(cfg))
			continue
		}
		if d := sameTree(cfg.Root, back.Root); d != "" {
			t.Errorf("%q: %s", c.in, d)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"*":                "'*'", // unattributed public `nv config show -o commands` capture (not verified)
		"swp1-2,32":        "swp1-2,32",
		"172.16.255.3/32":  "172.16.255.3/32",
		"2001:db8::1/64":   "2001:db8::1/64",
		"a@b%c+d=e_f":      "a@b%c+d=e_f",
		"":                 "''",
		"UNUSED 25G PORTS": "'UNUSED 25G PORTS'",
		"#2":               "'#2'",
		"it's":             `'it'"'"'s'`,
		`a"b\c$d`:          `'a"b\c$d'`,
		"tab\t":            "'tab\t'",
	} {
		got := shellQuote(in)
		if got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
		toks, err := splitShell("nv set a b " + got)
		if err != nil || len(toks) != 5 || toks[4] != in {
			t.Errorf("%s reads back as %q (%v)", got, toks, err)
		}
	}
}

// A value with line breaks is written as NVUE prints a login banner: one
// single-quoted word over several lines, '"'"' for a single quote (the
// shape of the CL 5.1 capture cited in shell.go), and reads back whole,
// even when a line of it looks like a command or a comment. A key with a
// line break before the value cannot be written (writeCommand).
func TestFormatCommandsLineBreak(t *testing.T) {
	cfg, err := ParseYAML("y", []byte("- set:\n    system:\n      message:\n        pre-login: \"#####\\n# NVIDIA Cumulus' latest\\nnv unset qos\\n\"\n      hostname: leaf01\n      \"a\\nb\": {c: d}\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(FormatCommands(cfg))
	want := `nv set system message pre-login '#####
# NVIDIA Cumulus'"'"' latest
nv unset qos
'
nv set system hostname leaf01
# not writable: a key with a line break: nv set "system" "a\nb" "c" "d"
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	back, err := parseCommands("c", []byte(got))
	if err != nil {
		t.Fatal(err)
	}
	if d := treeDiff(cfg.Root, back.Root); d != "-  > system > a\nb : {}\n-  > system > a\nb > c = d" {
		t.Errorf("diff: %q", d)
	}
	if n := leaf(t, back.Root, "system", "hostname"); n.Line != 5 {
		t.Errorf("hostname at line %d, want 5 (the banner spans lines 1-4)", n.Line)
	}
}

// YAML does not allow an implicit key longer than 1024 characters.
func TestFormatYAMLLongKey(t *testing.T) {
	long := strings.Repeat("swp1,", 300)
	cfg := &Config{Root: &Node{Children: []*Node{
		{Key: "interface", Children: []*Node{
			{Key: long, Children: []*Node{{Key: "type", IsLeaf: true, Value: "swp"}}},
			{Key: long + "2", IsLeaf: true, Value: "x"},
			{Key: long + "3"},
			// The limit counts characters, not bytes.
			{Key: strings.Repeat("é", 990), IsLeaf: true, Value: "y"},
		}},
	}}}
	out := FormatYAML(cfg)
	if !strings.Contains(string(out), "      ? "+long+"\n      :\n        type: swp\n") {
		t.Errorf("long key not written as an explicit key:\n%s", out)
	}
	back, err := ParseYAML("y", out)
	if err != nil {
		t.Fatal(err)
	}
	if d := sameTree(cfg.Root, back.Root); d != "" {
		t.Error(d)
	}
}

func TestFormatEmpty(t *testing.T) {
	for _, cfg := range []*Config{nil, {}, {Root: &Node{}}, {Version: "Cumulus Linux 5.15.0", Root: &Node{}}} {
		out := FormatYAML(cfg)
		back, err := ParseYAML("y", out)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if len(back.Root.Children) != 0 || cfg != nil && back.Version != cfg.Version {
			t.Errorf("%s read back as %+v", out, back)
		}
		if got := FormatCommands(cfg); len(got) != 0 {
			t.Errorf("commands of an empty config: %q", got)
		}
	}
}

// Strings built from the characters YAML and the shell treat specially,
// as keys and values, must survive both formats. The fuzz targets reach
// these slowly; this checks thousands at once.
func TestFormatTrickyScalars(t *testing.T) {
	parts := []string{
		"a", "Z", "0", "1", ".", "-", "_", "/", ",", ":", ": ", " :", "#", " #", "'", "\"", "\\",
		" ", "  ", "\t", "\n", "\r", "?", "*", "&", "!", "|", ">", "%", "@", "`", "[", "]",
		"{", "}", "~", "<<", "null", "true", "on", "0x1F", "1e3", ".inf", "---", "...",
		"é", "\u00a0", "\u0085", "\u2028", "\ufeff", "\x00", "\x7f", "😀", "$", "=", "+",
	}
	seed := uint32(1)
	rnd := func(n int) int {
		seed = seed*1664525 + 1013904223 // deterministic LCG
		return int(seed>>8) % n
	}
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for j := rnd(6); j >= 0; j-- {
			b.WriteString(parts[rnd(len(parts))])
		}
		s := b.String()
		key := s
		if key == "" {
			key = "k"
		}
		cfg := &Config{Version: s, Root: &Node{Children: []*Node{{Key: "system", Children: []*Node{
			{Key: "message", Children: []*Node{{Key: key, IsLeaf: true, Value: s}}},
		}}}}}
		y, err := ParseYAML("y", FormatYAML(cfg))
		if err != nil {
			t.Fatalf("%q: %v\n%s", s, err, FormatYAML(cfg))
		}
		if d := sameTree(cfg.Root, y.Root); d != "" || y.Version != cfg.Version {
			t.Fatalf("%q: YAML: %s, version %q\n%s", s, d, y.Version, FormatYAML(cfg))
		}
		// As a value, s is the command's last word, which may span
		// lines; as a key before a value it may not (writeCommand).
		asValue := &Config{Root: &Node{Children: []*Node{{Key: "system", Children: []*Node{
			{Key: "message", Children: []*Node{{Key: "pre-login", IsLeaf: true, Value: s}}},
		}}}}}
		for _, cfg := range []*Config{cfg, asValue} {
			if strings.Contains(cfg.Root.Children[0].Children[0].Children[0].Key, "\n") {
				continue
			}
			c, err := parseCommands("c", FormatCommands(cfg))
			if err != nil {
				t.Fatalf("%q: %v\n%s", s, err, FormatCommands(cfg))
			}
			if d := sameTree(cfg.Root, c.Root); d != "" {
				t.Fatalf("%q: commands: %s\n%s", s, d, FormatCommands(cfg))
			}
		}
	}
}
