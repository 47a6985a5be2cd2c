package app

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// arPod copies the clean pod with a policy that wants adaptive routing.
// Its cabling is the fixture the per-port commands follow: leaf01's
// lldp.json (lldpcli -f json0 show neighbors details, lldpd/lldpd) has
// spine01 and spine02 on swp31 and swp32, and topology.dot (the PTM format,
// CumulusNetworks/docs content/cumulus-linux-510/Monitoring-and-
// Troubleshooting/Network-Troubleshooting/Prescriptive-Topology-Manager-PTM.md)
// has spine01 on swp1 to leaf01 and swp2 to leaf02.
func arPod(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := "../../../examples/clean-pod"
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if rel == "inventory.hcl" {
			data = []byte(strings.Replace(string(data), `preset = "cumulus-default"`,
				"preset = \"cumulus-default\"\n  ecmp {\n    adaptive_routing = true\n  }", 1))
		}
		return os.WriteFile(filepath.Join(dir, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// The per-port commands are the ECMP page's, in each release's syntax:
// `nv set interface <interface> router adaptive-routing enable on` up to
// 5.14, `state enabled` from 5.15 (CumulusNetworks/docs content/
// cumulus-linux-514/ and cumulus-linux-515/Layer-3/Routing/
// Equal-Cost-Multipath-Load-Sharing.md).
func TestGenerateUplinksGolden(t *testing.T) {
	dir := arPod(t)
	for _, tc := range []struct {
		name string
		opt  GenerateOptions
		edit func()
	}{
		// From leaf01's own lldp.json.
		{name: "leaf-514-uplinks", opt: GenerateOptions{Role: "leaf", Syntax: "5.14", Ports: "swp1-32", Uplinks: "leaf01"}},
		// spine01 is of the top tier: its group is its links down to the
		// leaves; without its lldp.json, from topology.dot.
		{name: "spine-515-uplinks", opt: GenerateOptions{Role: "spine", Syntax: "5.15", Ports: "swp1-32", Uplinks: "spine01"},
			edit: func() { _ = os.Remove(filepath.Join(dir, "devices", "spine01", "lldp.json")) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.edit != nil {
				tc.edit()
			}
			tc.opt.Policy = filepath.Join(dir, "inventory.hcl")
			var out, errOut bytes.Buffer
			if code := Generate(&out, &errOut, tc.opt); code != ExitOK {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			golden(t, "render-"+tc.name+".golden", out.Bytes())
		})
	}
}

func TestGenerateUplinksErrors(t *testing.T) {
	dir := arPod(t)
	pol := filepath.Join(dir, "inventory.hcl")
	_ = os.Remove(filepath.Join(dir, "devices", "spine02", "lldp.json"))
	_ = os.Remove(filepath.Join(dir, "topology.dot"))
	for _, tc := range []struct {
		opt  GenerateOptions
		want string
	}{
		{GenerateOptions{Policy: pol, Role: "leaf", Uplinks: "leaf09"}, `--uplinks "leaf09": no switch of that name`},
		{GenerateOptions{Policy: pol, Role: "leaf", Uplinks: "spine01"}, `--uplinks "spine01": it is a spine`},
		{GenerateOptions{Policy: pol, Role: "spine", Uplinks: "spine02"}, "neither devices/spine02/lldp.json nor topology.dot was found"},
	} {
		var out, errOut bytes.Buffer
		if code := Generate(&out, &errOut, tc.opt); code != ExitInput || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%+v: exit %d, stderr %q, want %q", tc.opt, code, errOut.String(), tc.want)
		}
	}
}

// A leaf rendered with its uplinks lints clean against the same policy
// and cabling; without them, adaptive-routing finds its uplinks off.
func TestGenerateUplinksLintsClean(t *testing.T) {
	for _, syntax := range []string{"5.14", "5.15"} {
		for _, uplinks := range []string{"leaf01", ""} {
			dir := arPod(t)
			opt := GenerateOptions{Policy: filepath.Join(dir, "inventory.hcl"), Role: "leaf", Syntax: syntax, Ports: "swp1-32", Format: "yaml", Uplinks: uplinks}
			var cfg, errOut bytes.Buffer
			if code := Generate(&cfg, &errOut, opt); code != ExitOK {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			if err := os.WriteFile(filepath.Join(dir, "devices", "leaf01", "nv-config.yaml"), cfg.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			var lint bytes.Buffer
			errOut.Reset()
			Lint(&lint, &errOut, dir, LintOptions{Format: "json"})
			var got []string
			for _, f := range decode(t, lint.Bytes()).Findings {
				if f.Device == "leaf01" {
					got = append(got, f.Check+" "+f.Interface)
				}
			}
			want := ""
			if uplinks == "" {
				want = "adaptive-routing swp31-32"
			}
			if strings.Join(got, "\n") != want {
				t.Errorf("CL %s, --uplinks %q: leaf01 findings %q, want %q", syntax, uplinks, got, want)
			}
		}
	}
}
