package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/nvueline"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

// printedCommands are the NVUE command lines of one render output: the
// lines themselves for commands and script, the startup.yaml fragment or
// the patch read back and printed as commands for yaml and patch; notes
// are its "# not printed" lines.
func printedCommands(t *testing.T, format, out string) (cmds, notes []string) {
	t.Helper()
	var yaml []string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "# not printed: "):
			notes = append(notes, l)
		case strings.HasPrefix(l, "#"), l == "":
		case format == "yaml" || format == "patch":
			yaml = append(yaml, l)
		case nvueline.Command(l):
			cmds = append(cmds, l)
		case l == "nv config apply", l == "set -eu":
		default:
			t.Errorf("%s: a line that is no NVUE command: %q", format, l)
		}
	}
	if yaml != nil {
		cfg, err := nvue.ParseYAML("rendered.yaml", []byte(strings.Join(yaml, "\n")+"\n"))
		if err != nil {
			t.Fatalf("%s: %v\n%s", format, err, out)
		}
		for _, l := range strings.Split(string(nvue.FormatCommands(cfg)), "\n") {
			if nvueline.Command(l) {
				cmds = append(cmds, l)
			}
		}
	}
	return cmds, notes
}

// TestRenderedCommandsExistInTheirRelease renders every preset for every
// release 5.0 to 5.19, every switch role and every form, and reads each
// printed NVUE command back to the table of commands by release: each must
// be one the release has, with a value it takes. A command missing from
// the table fails, so a new setting cannot be printed undated. What a
// release cannot print is said alike in every form.
func TestRenderedCommandsExistInTheirRelease(t *testing.T) {
	dir := t.TempDir()
	for _, preset := range policy.PresetNames() {
		pol := filepath.Join(dir, preset+".yaml")
		inv := "fabric: gen\npolicy: {preset: " + preset + "}\nswitches:\n  - {name: leaf01, role: leaf}\n"
		if err := os.WriteFile(pol, []byte(inv), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, rel := range model.CLReleases() {
			for _, role := range RenderRoles {
				if role == layout.KindHost {
					continue
				}
				var first []string
				for _, format := range SwitchRenderFormats {
					name := fmt.Sprintf("%s/%s/%s/%s", preset, rel, role, format)
					var out, errOut bytes.Buffer
					if code := Generate(&out, &errOut, GenerateOptions{Policy: pol, Role: role, Syntax: rel.String(), Ports: "swp1-32", Format: format}); code != ExitOK {
						t.Fatalf("%s: exit %d: %s", name, code, errOut.String())
					}
					cmds, notes := printedCommands(t, format, out.String())
					if len(cmds) == 0 {
						t.Errorf("%s: no command printed", name)
					}
					for _, c := range cmds {
						if err := nvueline.Check(rel, c); err != nil {
							t.Errorf("%s: %v", name, err)
						}
					}
					if format == SwitchRenderFormats[0] {
						first = notes
					} else if !slices.Equal(notes, first) {
						t.Errorf("%s says %q not printed, %s %q", name, notes, SwitchRenderFormats[0], first)
					}
				}
			}
		}
	}
}

// TestRenderReleaseGaps: what the issue names is left out where it must
// be, and only there: the watchdog before 5.6, the mappings before 5.3,
// adaptive routing before 5.1, the ecmp-hash fields before 5.2.
func TestRenderReleaseGaps(t *testing.T) {
	pol := "../../../examples/broken-pod/inventory.yaml"
	for _, tc := range []struct {
		path  string
		since int
	}{
		{"nv set interface <if> qos pfc-watchdog", 6},
		{"nv set qos mapping <profile> dscp <dscp> switch-priority", 3},
		{"nv set qos pfc <profile> switch-priority <sp>", 3},
		{"nv set router adaptive-routing enable", 1},
		{"nv set system forwarding ecmp-hash source-port", 2},
	} {
		for _, rel := range model.CLReleases() {
			var out, errOut bytes.Buffer
			if code := Generate(&out, &errOut, GenerateOptions{Policy: pol, Role: "leaf", Syntax: rel.String(), Ports: "swp1-32"}); code != ExitOK {
				t.Fatalf("%s: exit %d: %s", rel, code, errOut.String())
			}
			said := strings.Contains(out.String(), "# not printed: Cumulus Linux "+rel.String()+" has no `"+tc.path+"` (")
			if said != (rel.Minor < tc.since) {
				t.Errorf("%s: %q not printed: %t\n%s", rel, tc.path, said, out.String())
			}
		}
	}
}

// TestExampleFixesExistInTheirRelease: the fixes of every shipped example,
// as fix, fix --out, lint --fix and each finding's fix print them, hold
// only commands of each switch's own release.
func TestExampleFixesExistInTheirRelease(t *testing.T) {
	entries, err := os.ReadDir("../../../examples")
	if err != nil {
		t.Fatal(err)
	}
	renderer, _ := newRenderer("")
	checked := 0
	for _, e := range entries {
		dir := filepath.Join("../../../examples", e.Name())
		if _, err := inventory.Load(dir); err != nil {
			continue // not a fabric (examples/ci)
		}
		r, err := buildReport(dir, "", judge.Error, CheckFlags{})
		if err != nil {
			t.Fatal(err)
		}
		plans, err := renderer.Plans(r)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "fixes")
		var stdout, stderr bytes.Buffer
		if code := Fix(&stdout, &stderr, dir, FixOptions{Format: "nvue", Out: out}); code != ExitOK {
			t.Fatalf("%s: fix exit %d: %s", dir, code, stderr.String())
		}
		for _, p := range plans {
			if p.Kind != layout.KindSwitch {
				continue
			}
			rel := p.Release.CL
			if rel.IsZero() {
				t.Errorf("%s %s: no release", e.Name(), p.Device)
			}
			nv, err := os.ReadFile(filepath.Join(out, p.Device+".nv"))
			if err != nil && p.NVUE() {
				t.Error(err)
			}
			lines := append(append(append([]string(nil), p.Fix...), p.Rollback...), strings.Split(string(nv), "\n")...)
			for _, f := range r.Findings {
				if f.Device == p.Device {
					fix, rb := r.FindingCommands(f)
					lines = append(append(lines, fix...), rb...)
				}
			}
			for _, l := range lines {
				if nvueline.Command(l) {
					checked++
					if err := nvueline.Check(rel, l); err != nil {
						t.Errorf("%s %s: %v", e.Name(), p.Device, err)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no example prints an NVUE fix")
	}
}

// TestFixFormsAgreeOnARelease: broken-pod's leaf01 moved to Cumulus Linux
// 5.2, which has no QoS commands yet (new in 5.3). Its fixes are then
// comments in every form fix prints: the script, the .nv and .patch.yaml
// of --out, lint --fix's plan, stderr; and the preview applies none of
// them.
func TestFixFormsAgreeOnARelease(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pod")
	copyTree(t, "../../../examples/broken-pod", dir)
	cfg := filepath.Join(dir, "devices/leaf01/nv-config.yaml")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, bytes.Replace(data, []byte("version: Cumulus Linux 5.14.0"), []byte("version: Cumulus Linux 5.2.0"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	const said = "# not printed: Cumulus Linux 5.2 has no `nv set qos mapping <profile> dscp <dscp> switch-priority` (introduced in 5.3.0): nv set qos mapping default-global dscp 26 switch-priority 3"
	out, preview := filepath.Join(t.TempDir(), "fixes"), filepath.Join(t.TempDir(), "preview")
	var script, stderr bytes.Buffer
	if code := Fix(&script, &stderr, dir, FixOptions{Format: "script", Out: out, Preview: preview}); code != ExitOK {
		t.Fatalf("fix exit %d: %s", code, stderr.String())
	}
	script.Reset() // with --out, stdout is the summary: the scripts are printed without it
	if code := Fix(&script, &stderr, dir, FixOptions{Format: "script"}); code != ExitOK {
		t.Fatalf("fix exit %d: %s", code, stderr.String())
	}
	var lint, lintErr bytes.Buffer
	Lint(&lint, &lintErr, dir, LintOptions{Format: "json", Fix: true})
	var doc struct {
		Plans []struct {
			Device string
			Fix    []string
		}
	}
	if err := json.Unmarshal(lint.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var planFix []string
	for _, p := range doc.Plans {
		if p.Device == "leaf01" {
			planFix = p.Fix
		}
	}
	leaf01 := func(s string) string {
		_, after, _ := strings.Cut(s, "# ==> leaf01 <==")
		before, _, _ := strings.Cut(after, "# ==> ")
		return before
	}
	nv, _ := os.ReadFile(filepath.Join(out, "leaf01.nv"))
	sh, _ := os.ReadFile(filepath.Join(out, "leaf01.sh"))
	for name, text := range map[string]string{"fix stdout": leaf01(script.String()), "leaf01.nv": string(nv), "leaf01.sh": string(sh), "lint --fix": strings.Join(planFix, "\n")} {
		if !strings.Contains(text, said) {
			t.Errorf("%s does not say what 5.2 cannot print:\n%s", name, text)
		}
		for _, l := range strings.Split(text, "\n") {
			if nvueline.Command(l) {
				if err := nvueline.Check(model.CLRelease{Major: 5, Minor: 2}, l); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		}
	}
	if !strings.Contains(stderr.String(), "qoslint: leaf01: "+strings.TrimPrefix(said, "# ")) {
		t.Errorf("stderr: %s", stderr.String())
	}
	if patch, _ := os.ReadFile(filepath.Join(out, "leaf01.patch.yaml")); bytes.Contains(patch, []byte("mapping")) {
		t.Errorf("leaf01.patch.yaml sets what 5.2 has no command for:\n%s", patch)
	}
	// The DSCP map stays as it was in the preview: no command fixed it.
	var relint bytes.Buffer
	Lint(&relint, &lintErr, preview, LintOptions{Format: "json"})
	left := false
	for _, f := range decode(t, relint.Bytes()).Findings {
		left = left || f.Device == "leaf01" && f.Check == "switch-dscp-map"
	}
	if !left {
		t.Error("the preview applied the DSCP map fix 5.2 has no command for")
	}
}
