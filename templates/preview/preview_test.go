package preview_test

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/render"
	"github.com/qoslint/qoslint/templates/preview"
)

func findings(t *testing.T, dir string) []string {
	t.Helper()
	r, err := app.BuildReport(dir, judge.Error)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range r.Errors {
		out = append(out, "input error: "+e.Error())
	}
	for _, f := range r.Findings {
		out = append(out, f.Severity.String()+" "+f.Check+" "+f.Device+" "+f.Interface+": "+f.Message)
	}
	return out
}

// Convergence: the rendered fixes, applied to the broken pod through the
// NVUE command interpreter and the host command effects, leave nothing to
// find.
func TestFixesConverge(t *testing.T) {
	src := "../../examples/broken-pod"
	before := findings(t, src)
	r, _ := app.BuildReport(src, judge.Error)
	plans, err := render.Plans(r)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "preview")
	if err := preview.Write(src, plans, out); err != nil {
		t.Fatal(err)
	}
	// What has no fix is a cable to move (cabling, rail-alignment): it is
	// all that may be left, unchanged.
	var unfixable []string
	for _, f := range r.Findings {
		if len(f.Changes) == 0 {
			unfixable = append(unfixable, f.Severity.String()+" "+f.Check+" "+f.Device+" "+f.Interface+": "+f.Message)
		}
	}
	after := findings(t, out)
	for _, a := range after {
		if !slices.Contains(unfixable, a) {
			t.Errorf("%d findings before; after the fixes still %q, which had a fix (or is new)", len(before), a)
		}
	}
	if len(after) == 0 {
		t.Error("the broken pod's swapped cable (cabling, rail-alignment) has no fix and must remain")
	}
	if len(unfixable) >= len(before) {
		t.Errorf("no finding of the broken pod has a fix: the test proves nothing")
	}
	// The preview keeps each capture's format.
	if _, err := os.Stat(filepath.Join(out, "devices/leaf02/nv-config-commands.txt")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(out, "devices/leaf01/nv-show-qos-roce.txt")); err == nil {
		t.Error("the stale operational view was kept")
	}
	if err := preview.Write(src, plans, out); err == nil {
		t.Error("preview overwrote an existing folder")
	}
}

// Every rollback undoes its fix: applying the rollback plan to the preview
// gives back the broken pod's findings.
func TestRollbackRestores(t *testing.T) {
	src := "../../examples/broken-pod"
	r, _ := app.BuildReport(src, judge.Error)
	plans, _ := render.Plans(r)
	fixed := filepath.Join(t.TempDir(), "fixed")
	if err := preview.Write(src, plans, fixed); err != nil {
		t.Fatal(err)
	}
	back := make([]render.Plan, len(plans))
	for i, p := range plans {
		back[i] = p
		back[i].Fix = p.Rollback
	}
	restored := filepath.Join(t.TempDir(), "restored")
	if err := preview.Write(fixed, back, restored); err != nil {
		t.Fatal(err)
	}
	want, got := findings(t, src), findings(t, restored)
	// The operational view is gone from the preview: without it the
	// drift findings cannot come back, the rest must. So are the packet
	// captures (the wire before the fix): the wire-* findings stay behind.
	want = slices.DeleteFunc(want, func(l string) bool { return strings.Contains(l, " wire-") })
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("after fix + rollback:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// releaseOf is the newest release of each NVUE syntax.
var releaseOf = map[model.Syntax]model.CLRelease{model.Syntax514: {Major: 5, Minor: 14}, model.Syntax515: {Major: 5, Minor: 15}}

// Generated configurations lint clean against their policy, for every
// preset and both NVUE syntaxes.
func TestGeneratedConfigsLintClean(t *testing.T) {
	for _, preset := range policy.PresetNames() {
		for _, syn := range []model.Syntax{model.Syntax514, model.Syntax515} {
			t.Run(preset+"/"+syn.String(), func(t *testing.T) {
				pol, _ := policy.Preset(preset)
				dir := t.TempDir()
				inv := "fabric: gen\npolicy: {preset: " + preset + "}\nswitches:\n  - {name: leaf01, role: leaf}\n  - {name: spine01, role: spine}\nhosts:\n  - {name: gpu01}\n"
				write(t, filepath.Join(dir, "inventory.yaml"), inv)
				fix, _ := render.Commands(render.SwitchChanges(pol, releaseOf[syn], "swp1-32"))
				cfg := &nvue.Config{Root: &nvue.Node{}}
				if err := cfg.Apply("generated", []byte(strings.Join(fix, "\n"))); err != nil {
					t.Fatal(err)
				}
				cfg.Apply("ports", []byte("nv set interface swp1-32 type swp\n"))
				if pol.ECMP.AdaptiveRouting {
					// The generator knows no cabling, so it cannot name the
					// ports of the ECMP group; adaptive routing is judged on
					// the uplinks writeLLDP cables (leaf01 swp31 to spine01
					// swp1), set here as an operator would.
					on := "nv set interface %s router adaptive-routing " + syn.StateKey() + " " + syn.OnOff(true) + "\n"
					cfg.Apply("uplinks", []byte(fmt.Sprintf(on, "swp1")+fmt.Sprintf(on, "swp31")))
				}
				write(t, filepath.Join(dir, "devices/leaf01/nv-config-commands.txt"), string(nvue.FormatCommands(cfg)))
				write(t, filepath.Join(dir, "devices/spine01/nv-config.yaml"), string(nvue.FormatYAML(cfg)))
				copyTree(t, "testdata/factory-host", filepath.Join(dir, "devices/gpu01"))
				if pol.ECMP.AdaptiveRouting {
					// render --role host leaves the firmware alone; the
					// operator turns the NIC's adaptive routing on.
					fw := filepath.Join(dir, "devices/gpu01/mlxconfig-mlx5_0.txt")
					data, err := os.ReadFile(fw)
					if err != nil {
						t.Fatal(err)
					}
					on := regexp.MustCompile(`(ROCE_ADAPTIVE_ROUTING_EN\s+\S+\s+\S+\s+)False\(0\)`).ReplaceAll(data, []byte("${1}True(1) "))
					write(t, fw, string(on))
				}
				if pol.CNP.Priority != 6 {
					// Nor does it set the firmware's CNP priority (the
					// factory's 6): the operator does, as for adaptive
					// routing.
					fw := filepath.Join(dir, "devices/gpu01/mlxconfig-mlx5_0.txt")
					data, err := os.ReadFile(fw)
					if err != nil {
						t.Fatal(err)
					}
					prio := regexp.MustCompile(`(CNP_802P_PRIO_P\d\s+\S+\s+)6(\s+)6`).ReplaceAll(data, []byte(fmt.Sprintf("${1}%d${2}%d", pol.CNP.Priority, pol.CNP.Priority)))
					write(t, fw, string(prio))
				}
				writeLLDP(t, dir)
				if got := findings(t, dir); len(got) < 5 {
					t.Fatalf("the factory host should break most host checks, got %v", got)
				}
				cs, err := render.HostChanges(pol, []render.NIC{{Netdev: "ens1f0np0"}})
				if err != nil {
					t.Fatal(err)
				}
				hostFix, _ := render.Commands(cs)
				out := filepath.Join(t.TempDir(), "configured")
				if err := preview.Write(dir, []render.Plan{{Device: "gpu01", Kind: "host", Fix: hostFix}}, out); err != nil {
					t.Fatal(err)
				}
				// What no generator can write stays unverified, and says so:
				// a trimming switch's show views (nothing was collected).
				// Every other finding is a defect.
				got := slices.DeleteFunc(findings(t, out), func(l string) bool {
					return strings.HasPrefix(l, "info not-collected ") && strings.Contains(l, "nv-show-packet-trim.txt not collected")
				})
				if len(got) != 0 {
					t.Errorf("generated configuration is not clean:\n%s", strings.Join(got, "\n"))
				}
			})
		}
	}
}

func TestPreviewRefusesUnknownCommands(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p")
	err := preview.Write("../../examples/clean-pod", []render.Plan{{Device: "gpu01", Kind: "host", Fix: []string{"reboot"}}}, out)
	if err == nil || !strings.Contains(err.Error(), `cannot interpret "reboot"`) {
		t.Errorf("err = %v", err)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(p) == "README.md" {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err == nil {
			write(t, filepath.Join(dst, rel), string(data))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The preview rewrites nv-config.yaml with every header field the switch
// wrote (model, nvue-api-version, rev-id, version), in their order.
func TestPreviewKeepsYAMLHeader(t *testing.T) {
	src := "../../examples/broken-pod"
	r, _ := app.BuildReport(src, judge.Error)
	plans, err := render.Plans(r)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "preview")
	if err := preview.Write(src, plans, out); err != nil {
		t.Fatal(err)
	}
	for _, sw := range []string{"leaf01", "leaf03", "spine01", "spine02"} {
		before, _ := os.ReadFile(filepath.Join(src, "devices", sw, "nv-config.yaml"))
		after, err := os.ReadFile(filepath.Join(out, "devices", sw, "nv-config.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		head := func(b []byte) string { return strings.SplitAfter(string(b), "- set:")[0] }
		if !strings.Contains(head(before), "    model: MSN4700\n") || head(after) != head(before) {
			t.Errorf("%s: header\n%s\nbecame\n%s", sw, head(before), head(after))
		}
	}
}

// A commands capture in the shape NVUE prints (a multi-line banner, see
// collectors/nvue/shell.go) previews with the banner kept whole; one with
// a line lint could not read is refused, since the rewritten file would
// silently drop that line.
func TestPreviewCommandsCapture(t *testing.T) {
	banner := "nv set system message pre-login '####\n# NVIDIA Cumulus'\"'\"' banner\n####'\n"
	plans := []render.Plan{{Device: "spine02", Kind: "switch", Fix: []string{"nv set qos roce mode lossless", "nv config apply"}}}
	for _, c := range []struct {
		name, extra, err string
	}{
		{"banner and notes", "cumulus@spine02:mgmt:~$ nv config show -o commands\n" + banner + "nv config apply\n", ""},
		{"a bad line", banner + "nv set system hostname 'spine02\n", "nv-config-commands.txt:26: unterminated single quote"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "src")
			copyTree(t, "../../examples/clean-pod", dir)
			p := filepath.Join(dir, "devices", "spine02", "nv-config-commands.txt")
			data, _ := os.ReadFile(p)
			write(t, p, string(data)+c.extra)
			out := filepath.Join(t.TempDir(), "p")
			err := preview.Write(dir, plans, out)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(filepath.Join(out, "devices", "spine02", "nv-config-commands.txt"))
			if !strings.Contains(string(got), banner) || strings.Contains(string(got), "nv config") {
				t.Errorf("preview:\n%s", got)
			}
			cfg, errs, notes := nvue.ParseCommands("p", got)
			if len(errs) > 0 || len(notes) > 0 || cfg.Root.Get("system", "message", "pre-login").Value != "####\n# NVIDIA Cumulus' banner\n####" {
				t.Errorf("preview reads back with errors %v, notes %v", errs, notes)
			}
		})
	}
}

// TestPreviewDropsCounters: counters record the traffic before the fix, so
// the preview leaves every counter file out and keeps the configuration.
func TestPreviewDropsCounters(t *testing.T) {
	src := t.TempDir()
	copyTree(t, "../../examples/clean-pod", src)
	counters := []string{
		"devices/gpu01/ethtool-S-ens1f0np0.txt",
		"devices/gpu01/ethtool-S-ens1f0np0.before.txt",
		"devices/gpu01/counters-interval.txt",
		"devices/gpu01/sysfs/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent",
		"devices/gpu01/sysfs.before/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent",
		"devices/leaf01/gnmi-counters.json",
		"devices/leaf01/gnmi-counters.before.json",
	}
	for _, f := range counters {
		write(t, filepath.Join(src, f), "0\n")
	}
	out := filepath.Join(t.TempDir(), "preview")
	if err := preview.Write(src, nil, out); err != nil {
		t.Fatal(err)
	}
	for _, f := range counters {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s was copied into the preview", f)
		}
	}
	for _, f := range []string{"devices/gpu01/mlnx_qos-ens1f0np0.txt", "devices/gpu01/sysfs/class/infiniband/mlx5_0/tc/1/traffic_class", "devices/leaf01/nv-config.yaml"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s is missing from the preview: %v", f, err)
		}
	}
}

// writeLLDP cables gpu01 ens1f0np0 to leaf01 swp1 and leaf01 swp31 to
// spine01 swp1, as each end's lldpcli -f json0 show neighbors details
// prints it (lldpd/lldpd tests/integration/test_lldpcli.py shape), so the
// link checks judge the generated configuration too.
func writeLLDP(t *testing.T, dir string) {
	t.Helper()
	nb := func(local, sys, portType, port string) string {
		return `{"name":"` + local + `","via":"LLDP","chassis":[{"id":[{"type":"mac","value":"00:00:5e:00:53:01"}],"name":[{"value":"` + sys +
			`"}]}],"port":[{"id":[{"type":"` + portType + `","value":"` + port + `"}],"descr":[{"value":"` + port + `"}]}]}`
	}
	doc := func(ifs ...string) string { return `{"lldp":[{"interface":[` + strings.Join(ifs, ",") + "]}]}\n" }
	write(t, filepath.Join(dir, "devices/leaf01/lldp.json"), doc(nb("swp1", "gpu01", "ifname", "ens1f0np0"), nb("swp31", "spine01", "ifname", "swp1")))
	write(t, filepath.Join(dir, "devices/spine01/lldp.json"), doc(nb("swp1", "leaf01", "ifname", "swp31")))
	write(t, filepath.Join(dir, "devices/gpu01/lldp.json"), doc(nb("ens1f0np0", "leaf01", "ifname", "swp1")))
}

// TestPreviewFollowsLinks: k8s-pod links its unchanged device folders and
// files to clean-pod's, and lint reads through the links, so the preview
// holds them as regular files: the same tree as the preview of a copy
// without links. A link to nothing is left out, as before.
func TestPreviewFollowsLinks(t *testing.T) {
	src := fixture.Build(t, "../../examples/k8s-pod", nil)
	if err := os.Symlink("nowhere", filepath.Join(src, "devices/gpu01/dangling.txt")); err != nil {
		t.Fatal(err)
	}
	linked, plain := filepath.Join(t.TempDir(), "linked"), filepath.Join(t.TempDir(), "plain")
	if err := preview.Write("../../examples/k8s-pod", nil, linked); err != nil {
		t.Fatal(err)
	}
	if err := preview.Write(src, nil, plain); err != nil {
		t.Fatal(err)
	}
	got, want := regularFiles(t, linked), regularFiles(t, plain)
	if len(want) < 200 || !maps.Equal(got, want) {
		t.Errorf("preview through links: %d files, without links %d; they differ", len(got), len(want))
	}
	if _, ok := got["devices/gpu03/sysfs/class/infiniband/mlx5_0/tc/1/traffic_class"]; !ok {
		t.Error("a file in a linked device folder is missing from the preview")
	}
}

// regularFiles is every file below dir with its content; a link or other
// non-regular file fails the test.
func regularFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !d.Type().IsRegular() {
			t.Errorf("%s is not a regular file", p)
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
