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
		{GenerateOptions{Policy: pol, Role: "host", NICs: []string{"eth0;reboot"}}, "not safe in a command"},
		{GenerateOptions{Policy: pol, Role: "leaf", Syntax: "4.4"}, "--syntax"},
		{GenerateOptions{Policy: pol, Role: "leaf", Ports: "swp9-1"}, "--ports"},
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
	code := Fix(&out, &errOut, "../../../examples/broken-pod", FixOptions{Format: "nvue", Out: filepath.Join(dir, "fixes"), Preview: filepath.Join(dir, "preview")})
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	golden(t, "fix-broken-pod.nvue.golden", out.Bytes())
	for _, f := range []string{"leaf02.sh", "leaf02.rollback.sh", "leaf02.nv", "leaf02.patch.yaml", "gpu04.sh", "gpu04.rollback.sh"} {
		if _, err := os.Stat(filepath.Join(dir, "fixes", f)); err != nil {
			t.Error(err)
		}
	}
	patch, _ := os.ReadFile(filepath.Join(dir, "fixes", "leaf02.patch.yaml"))
	golden(t, "fix-leaf02.patch.yaml.golden", patch)
	var lint bytes.Buffer
	if code := Lint(&lint, &errOut, filepath.Join(dir, "preview"), LintOptions{Format: "text"}); code != ExitOK {
		t.Errorf("the preview does not lint clean (exit %d):\n%s", code, lint.String())
	}
	if code := Fix(&out, &errOut, "../../../examples/broken-pod", FixOptions{Format: "yaml"}); code != ExitInput {
		t.Errorf("unknown format: exit %d", code)
	}
}
