package nvue

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/qoslint/qoslint/internal/source"
)

// addFormatSeeds adds the package seeds plus the example fabrics' configs
// and inputs with values that need quoting.
func addFormatSeeds(f *testing.F) {
	addSeeds(f,
		docsCommands, docsYAML,
		"nv set system message pre-login 'a: b'\nnv set interface '#1' description \"x\\\"y\"\n",
		"nv set a b ''\nnv set a c '~'\nnv set a d true\nnv set a e '- x'\nnv set a f \"it's\"\n",
		"nv set a b 'x\ty'\nnv set a c '\xff'\nnv set q '<<' 1\n",
		"- set:\n    a:\n      '26': {b: \"\\x00\\n\\u2028\"}\n      '': 1\n",
		"- header:\n    version: '~'\n- set:\n    a: {}\n",
		"- header:\n    model: MSN2010\n    nvue-api-version: nvue_v1\n    rev-id: 1.0\n    version: Cumulus Linux 5.9.2\n    x: &a {b: [1, *a]}\n    t: |+\n      a\n\n    '': ~\n- set: {}\n",
		"- set:\n    system:\n      config:\n        auto-save: {}\n",
	)
	files, err := filepath.Glob("../../examples/*/devices/*/nv-config*")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// parseEither reads data as YAML, else as commands.
func parseEither(data []byte) *Config {
	if cfg, err := ParseYAML("in.yaml", data); err == nil {
		return cfg
	}
	// A commands file with a bad line still gives the rest.
	if cfg, _, _ := ParseCommands("in.commands", data); cfg != nil {
		return cfg
	}
	return nil
}

func treeDepth(n *Node) int {
	d := 0
	for _, c := range n.Children {
		d = max(d, treeDepth(c))
	}
	return d + 1
}

// treeUTF8 reports whether every key and value is UTF-8, which YAML text
// must be; a commands file need not be.
func treeUTF8(n *Node) bool {
	if !utf8.ValidString(n.Key) || !utf8.ValidString(n.Value) {
		return false
	}
	for _, c := range n.Children {
		if !treeUTF8(c) {
			return false
		}
	}
	return true
}

func FuzzFormatYAMLRoundTrip(f *testing.F) {
	addFormatSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg := parseEither(data)
		if cfg == nil || treeDepth(cfg.Root) > 9000 {
			return // YAML nests at most 10000 deep (yaml.v3 max_indents)
		}
		out := FormatYAML(cfg)
		if !treeUTF8(cfg.Root) || !utf8.ValidString(cfg.Version) {
			// Written with \x escapes, read back as other characters
			// (which may even collide with a sibling key).
			return
		}
		back, err := ParseYAML("out.yaml", out)
		if err != nil {
			t.Fatalf("formatted YAML does not parse: %v\n%s", err, out)
		}
		if back.Version != cfg.Version {
			t.Fatalf("version %q read back as %q", cfg.Version, back.Version)
		}
		if len(cfg.Header) > 0 && !reflect.DeepEqual(back.Header, cfg.Header) {
			t.Fatalf("header %q read back as %q\n%s", cfg.Header, back.Header, out)
		}
		if d := sameTree(cfg.Root, back.Root); d != "" {
			t.Fatalf("tree differs: %s\n%s", d, out)
		}
		if again := FormatYAML(back); string(again) != string(out) {
			t.Fatalf("formatting is not stable:\n%s\n%s", out, again)
		}
	})
}

// commandsAmbiguity names the first node whose command ParseCommands
// would read as something else, "" when there is none. These are the
// limits of the commands form reported in FormatCommands's doc and the
// package README.
func commandsAmbiguity(n *Node, path []string) string {
	for _, c := range n.Children {
		p := append(path[:len(path):len(path)], c.Key)
		switch {
		case strings.Contains(c.Key, "\n") && (c.IsLeaf || len(c.Children) > 0):
			// Only a command's last word may span lines.
			return strings.Join(p, " ") + ": key with a line break"
		case c.IsLeaf && !lastIsValue(append(p, c.Value)):
			return strings.Join(p, " ") + ": leaf read as an object"
		case !c.IsLeaf && len(c.Children) == 0 && lastIsValue(p):
			return strings.Join(p, " ") + ": empty object read as a leaf"
		}
		if d := commandsAmbiguity(c, p); d != "" {
			return d
		}
	}
	return ""
}

func FuzzFormatCommandsRoundTrip(f *testing.F) {
	addFormatSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg := parseEither(data)
		if cfg == nil {
			return
		}
		out := FormatCommands(cfg)
		back, errs, notes := ParseCommands("out.commands", out)
		if len(notes) > 0 {
			t.Fatalf("written lines read as notes: %v\n%s", notes, out)
		}
		if len(cfg.Root.Children) == 0 || !strings.Contains("\n"+string(out), "\nnv set ") {
			// Nothing but comments: no configuration to read back.
			if back != nil || len(errs) != 1 || errs[0].Msg != "empty configuration" {
				t.Fatalf("no command written, yet it reads as %v %v:\n%s", back, errs, out)
			}
			return
		}
		if !treeUTF8(cfg.Root) {
			// Bytes that are not UTF-8 are written back as they are, read
			// as they are, and reported at their line: only those errors.
			errs = slices.DeleteFunc(errs, func(e *source.Error) bool { return strings.Contains(e.Msg, "is not UTF-8") })
		}
		if len(errs) > 0 {
			t.Fatalf("formatted commands do not parse: %v\n%s", errs, out)
		}
		if a := commandsAmbiguity(cfg.Root, nil); a != "" {
			return // a documented limit of the commands form
		}
		if d := sameTree(cfg.Root, back.Root); d != "" {
			t.Fatalf("tree differs: %s\n%s", d, out)
		}
		if again := FormatCommands(back); string(again) != string(out) {
			t.Fatalf("formatting is not stable:\n%s\n%s", out, again)
		}
	})
}
