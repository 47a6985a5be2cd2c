package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	goldenpkg "github.com/qoslint/qoslint/internal/golden"
)

// golden compares got with testdata/name (see package golden).
func golden(t *testing.T, name string, got []byte) { t.Helper(); goldenpkg.Check(t, name, got) }

func TestGenerateGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  GenerateOptions
	}{
		{"leaf-515", GenerateOptions{Role: "leaf", Syntax: "5.15", Ports: "swp1-32"}},
		{"spine-514", GenerateOptions{Role: "spine", Syntax: "5.14", Ports: "swp1-64"}},
		{"host", GenerateOptions{Role: "host", NICs: []string{"ens1f0np0", "ens1f1np1"}}},
		// One form at a time, each for its release's syntax: 5.9 and
		// 5.14.2 are ≤5.14 (enable on), 5.18 is 5.15+ (state enabled).
		{"leaf-59.script", GenerateOptions{Role: "leaf", Syntax: "5.9", Ports: "swp1-32", Format: "script"}},
		{"leaf-5142.yaml", GenerateOptions{Role: "leaf", Syntax: "5.14.2", Ports: "swp1-32", Format: "yaml"}},
		{"leaf-518.patch", GenerateOptions{Role: "leaf", Syntax: "5.18", Ports: "swp1-32", Format: "patch"}},
		{"host.commands", GenerateOptions{Role: "host", NICs: []string{"ens1f0np0"}, Format: "commands"}},
		// Each release prints only the commands it has (model.NVUECommands):
		// 5.0 has qos roce, the MTU and no QoS commands (new in 5.3), 5.3
		// no watchdog (5.6), 5.14 the last `enable on`, 5.19 the newest.
		{"leaf-50", GenerateOptions{Role: "leaf", Syntax: "5.0", Ports: "swp1-32"}},
		{"leaf-53", GenerateOptions{Role: "leaf", Syntax: "5.3", Ports: "swp1-32"}},
		{"leaf-56", GenerateOptions{Role: "leaf", Syntax: "5.6", Ports: "swp1-32"}},
		{"leaf-514", GenerateOptions{Role: "leaf", Syntax: "5.14", Ports: "swp1-32"}},
		{"leaf-519", GenerateOptions{Role: "leaf", Syntax: "5.19", Ports: "swp1-32"}},
		{"leaf-53.yaml", GenerateOptions{Role: "leaf", Syntax: "5.3", Ports: "swp1-32", Format: "yaml"}},
		{"leaf-53.patch", GenerateOptions{Role: "leaf", Syntax: "5.3", Ports: "swp1-32", Format: "patch"}},
		{"leaf-521", GenerateOptions{Role: "leaf", Syntax: "5.21", Ports: "swp1-32"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opt.Policy = "../../../examples/broken-pod/inventory.yaml"
			var out, errOut bytes.Buffer
			if code := Generate(&out, &errOut, tc.opt); code != ExitOK {
				t.Fatalf("exit %d: %s", code, errOut.String())
			}
			golden(t, "render-"+tc.name+".golden", out.Bytes())
		})
	}
}

func TestGenerateErrors(t *testing.T) {
	pol := "../../../examples/broken-pod/inventory.yaml"
	for _, tc := range []struct {
		opt  GenerateOptions
		want string
	}{
		{GenerateOptions{Policy: pol, Role: "router"}, `--role "router"`},
		{GenerateOptions{Policy: pol, Role: "host"}, "--nics is required"},
		{GenerateOptions{Policy: pol, Role: "host", NICs: []string{"eth0;reboot"}}, `--nics "eth0;reboot": a Linux interface name`},
		{GenerateOptions{Policy: pol, Role: "leaf", Syntax: "4.4"}, `--syntax "4.4": not a Cumulus Linux 5 release`},
		{GenerateOptions{Policy: pol, Role: "leaf", Syntax: "6.0"}, `--syntax "6.0"`},
		{GenerateOptions{Policy: pol, Role: "leaf", Syntax: "5"}, `--syntax "5"`},
		{GenerateOptions{Policy: pol, Role: "leaf", Syntax: "5.x"}, `--syntax "5.x"`},
		{GenerateOptions{Policy: pol, Role: "leaf", Ports: "swp9-1"}, "--ports"},
		{GenerateOptions{Policy: pol, Role: "leaf", Ports: "swp1;reboot"}, `--ports "swp1;reboot": an NVUE interface name`},
		{GenerateOptions{Policy: pol, Role: "leaf", Format: "rollback"}, `--format "rollback": a switch is rendered as commands, script, yaml, patch`},
		{GenerateOptions{Policy: pol, Role: "host", NICs: []string{"eth2"}, Format: "yaml"}, `--format "yaml": a host is rendered as script, commands`},
		{GenerateOptions{Policy: "nope.yaml", Role: "leaf"}, "nope.yaml"},
		{GenerateOptions{Policy: pol, Role: "leaf", Templates: t.TempDir()}, "no *.tmpl"},
	} {
		var out, errOut bytes.Buffer
		if code := Generate(&out, &errOut, tc.opt); code != ExitInput || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%+v: exit %d, stderr %q, want %q", tc.opt, code, errOut.String(), tc.want)
		}
	}
}

func TestFixCommand(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if code := Fix(&out, &errOut, "../../../examples/broken-pod", FixOptions{Format: "nvue"}); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	golden(t, "fix-broken-pod.nvue.golden", out.Bytes())
	// With --out the commands are in the files: standard output is the
	// summary alone, what the broken pod's cabling and wire need by hand.
	out.Reset()
	code := Fix(&out, &errOut, "../../../examples/broken-pod", FixOptions{Format: "nvue", Out: filepath.Join(dir, "fixes"), Preview: filepath.Join(dir, "preview")})
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	want := "# qoslint fix: 9 device(s) with a fix (in " + filepath.Join(dir, "fixes") + ")\n" +
		"# not fixed, no command fixes these findings (qoslint explain CHECK says what to do):\n" +
		"#   gpu03: rail-alignment (error, 2 findings), wire-dscp (error)\n" +
		"#   gpu04: wire-dscp (error)\n" +
		"#   leaf01: cabling (error)\n"
	if !strings.HasPrefix(out.String(), want) || strings.Contains(out.String(), "nv set") || strings.Count(out.String(), "\n") != 6 {
		t.Errorf("fix --out printed:\n%s\nwant the summary alone:\n%s# and N info finding(s) ...", out.String(), want)
	}
	for _, f := range []string{"leaf02.sh", "leaf02.rollback.sh", "leaf02.nv", "leaf02.patch.yaml", "gpu04.sh", "gpu04.rollback.sh"} {
		if _, err := os.Stat(filepath.Join(dir, "fixes", f)); err != nil {
			t.Error(err)
		}
	}
	patch, _ := os.ReadFile(filepath.Join(dir, "fixes", "leaf02.patch.yaml"))
	golden(t, "fix-leaf02.patch.yaml.golden", patch)
	// The preview is clean but for the broken pod's swapped cable, which
	// has no command: cabling and rail-alignment say to move it.
	var lint bytes.Buffer
	Lint(&lint, &errOut, filepath.Join(dir, "preview"), LintOptions{Format: "json"})
	for _, f := range decode(t, lint.Bytes()).Findings {
		if f.Check != "cabling" && f.Check != "rail-alignment" {
			t.Errorf("the preview still has %s on %s: %s", f.Check, f.Device, f.Message)
		}
	}
	if code := Fix(&out, &errOut, "../../../examples/broken-pod", FixOptions{Format: "yaml"}); code != ExitInput {
		t.Errorf("unknown format: exit %d", code)
	}
}
