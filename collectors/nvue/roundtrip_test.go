package nvue

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// sameTree describes the first difference between two trees, member order
// included and Line ignored; "" when they are equal.
func sameTree(a, b *Node) string {
	var walk func(path string, a, b *Node) string
	walk = func(path string, a, b *Node) string {
		switch {
		case a.Key != b.Key:
			return fmt.Sprintf("%s: key %q vs %q", path, a.Key, b.Key)
		case a.IsLeaf != b.IsLeaf || a.Value != b.Value:
			return fmt.Sprintf("%s: leaf %v %q vs leaf %v %q", path, a.IsLeaf, a.Value, b.IsLeaf, b.Value)
		case len(a.Children) != len(b.Children):
			return fmt.Sprintf("%s: %d members %v vs %d %v", path, len(a.Children), keys(a), len(b.Children), keys(b))
		}
		for i := range a.Children {
			if d := walk(path+" > "+a.Children[i].Key, a.Children[i], b.Children[i]); d != "" {
				return d
			}
		}
		return ""
	}
	return walk("", a, b)
}

func keys(n *Node) []string {
	var out []string
	for _, c := range n.Children {
		out = append(out, c.Key)
	}
	return out
}

// sampleConfigs parses every configuration this package has: testdata,
// the testdata/nvue_md examples that parse, and the example fabrics. want reports
// whether the commands round trip must hold for it.
type sample struct {
	name string
	cfg  *Config
}

func sampleConfigs(t *testing.T) []sample {
	t.Helper()
	var out []sample
	globs := []string{
		"testdata/*.yaml", "testdata/*.commands", "testdata/nvue_md/*.txt",
		"../../examples/*/devices/*/nv-config.yaml",
		"../../examples/*/devices/*/nv-config-commands.txt",
	}
	for _, g := range globs {
		files, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			parse := ParseYAML
			if strings.HasSuffix(f, ".commands") || strings.HasSuffix(f, "-commands.txt") {
				parse = parseCommands
			}
			cfg, err := parse(f, data)
			if err != nil && strings.Contains(f, "nvue_md") {
				// Most nvue_md examples are `nv show` tables or
				// fragments; keep the configurations.
				if cfg, err = parseCommands(f, data); err != nil {
					continue
				}
			}
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			out = append(out, sample{f, cfg})
		}
	}
	if len(out) < 15 {
		t.Fatalf("only %d sample configurations", len(out))
	}
	return out
}

func TestFormatYAMLRoundTrip(t *testing.T) {
	for _, s := range sampleConfigs(t) {
		t.Run(s.name, func(t *testing.T) {
			out := FormatYAML(s.cfg)
			back, err := ParseYAML("formatted.yaml", out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if back.Version != s.cfg.Version {
				t.Errorf("version %q, want %q", back.Version, s.cfg.Version)
			}
			if d := sameTree(s.cfg.Root, back.Root); d != "" {
				t.Errorf("tree differs: %s\n%s", d, out)
			}
		})
	}
}

func TestFormatCommandsRoundTrip(t *testing.T) {
	for _, s := range sampleConfigs(t) {
		t.Run(s.name, func(t *testing.T) {
			out := FormatCommands(s.cfg)
			back, err := parseCommands("formatted.commands", out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if d := sameTree(s.cfg.Root, back.Root); d != "" {
				t.Errorf("tree differs: %s\n%s", d, out)
			}
		})
	}
}

// The example fabrics hold some switches as YAML and some as commands: the
// commands written from a YAML file must read back as the YAML's tree, and
// the YAML written from a commands file as the commands' tree.
func TestFormatCrossesFormats(t *testing.T) {
	for _, s := range sampleConfigs(t) {
		t.Run(s.name, func(t *testing.T) {
			viaCommands, err := parseCommands("c", FormatCommands(s.cfg))
			if err != nil {
				t.Fatal(err)
			}
			viaYAML, err := ParseYAML("y", FormatYAML(viaCommands))
			if err != nil {
				t.Fatal(err)
			}
			if d := sameTree(s.cfg.Root, viaYAML.Root); d != "" {
				t.Errorf("yaml → commands → yaml differs: %s", d)
			}
		})
	}
}

// NVUE's own startup.yaml comes back byte for byte, header included (the
// real 5.9.2 file has model, nvue-api-version, rev-id and version).
func TestFormatYAMLReproducesNVUEFile(t *testing.T) {
	for _, name := range []string{"roce_514.yaml", "roce_515.yaml", "oxidized_5.9.2.yaml"} {
		t.Run(name, func(t *testing.T) {
			data := readTestdata(t, name)
			cfg, err := ParseYAML(name, data)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(FormatYAML(cfg)); got != string(data) {
				t.Errorf("got:\n%s\nwant:\n%s", got, data)
			}
		})
	}
}

// A public `nv config show -o commands` excerpt (unattributed, not verified;
// format per CumulusNetworks/docs content/cumulus-linux-514/System-Configuration/NVIDIA-User-Experience-NVUE/NVUE-CLI.md), which is
// sorted like the tree, comes back line for line.
func TestFormatCommandsReproducesNVUEOutput(t *testing.T) {
	cfg, err := parseCommands("c", []byte(docsCommands))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(FormatCommands(cfg)); got != docsCommands {
		t.Errorf("got:\n%s\nwant:\n%s", got, docsCommands)
	}
}

func TestFormatGolden(t *testing.T) {
	cfg, err := ParseYAML("roce_514.yaml", readTestdata(t, "roce_514.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// A few values that need quoting, so that the golden files show how.
	err = cfg.Apply("fix.commands", []byte(`nv set interface swp1 description 'to gpu01: rail 0'
nv set interface swp2 description '#2'
nv set interface swp3 description ''
nv set interface swp4 description true
nv set system message pre-login "it's ours"
`))
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string][]byte{
		"roce_514.format.yaml.golden":     FormatYAML(cfg),
		"roce_514.format.commands.golden": FormatCommands(cfg),
	} {
		path := filepath.Join("testdata", name)
		if *update || os.Getenv("QOSLINT_UPDATE_GOLDEN") == "1" {
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if !bytes.Equal(out, want) {
			t.Errorf("%s differs (go test -update rewrites it):\n%s", name, out)
		}
	}
}
