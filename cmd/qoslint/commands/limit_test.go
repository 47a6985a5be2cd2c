package commands

import (
	"path/filepath"
	"strings"
	"testing"
)

// --limit reaches lint, fix, audit and collect, and is not offered where it
// would be ignored (serve, demo).
func TestLimitFlag(t *testing.T) {
	const fabric = "../../../examples/broken-pod"
	inv := filepath.Join(fabric, "inventory.yaml")
	for _, args := range [][]string{
		{"lint", fabric},
		{"fix", fabric},
		{"audit", "--inventory", inv},
		{"collect", "--inventory", inv, "--out", filepath.Join(t.TempDir(), "out")},
	} {
		code, _, errOut := run(append(args, "--limit", "spine*,nosuch")...)
		if code != 2 || !strings.Contains(errOut, `"nosuch" matches no device`) {
			t.Errorf("%s --limit spine*,nosuch: exit %d, %s", args[0], code, errOut)
		}
	}
	code, out, errOut := run("lint", fabric, "--limit", "spine", "--fail-on", "none")
	if code != 0 || !strings.Contains(out, "limited run (--limit spine): 2 of 9 devices checked (spine01, spine02)") {
		t.Errorf("lint --limit spine: exit %d\n%s%s", code, out, errOut)
	}
	for _, cmd := range []string{"serve", "demo"} {
		if code, _, errOut := run(cmd, "--limit", "spine"); code != 2 || !strings.Contains(errOut, "unknown flag: --limit") {
			t.Errorf("%s --limit: exit %d, %s", cmd, code, errOut)
		}
	}
}
