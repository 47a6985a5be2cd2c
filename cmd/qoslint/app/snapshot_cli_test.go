package app_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/cmd/qoslint/commands"
)

// TestSnapshotAndDriftCommands drives the cobra wiring: flags, argument
// counts and exit codes reach the process.
func TestSnapshotAndDriftCommands(t *testing.T) {
	snap := filepath.Join(t.TempDir(), "snap.json")
	run := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := commands.Execute(args, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	if code, out, errOut := run("snapshot", "../../../examples/clean-pod", "-o", snap); code != 0 || out != "" || !strings.Contains(errOut, "wrote "+snap) {
		t.Fatalf("snapshot: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(snap); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"drift", snap, "../../../examples/clean-pod"}, 0, "NO DRIFT"},
		{[]string{"drift", snap, "../../../examples/broken-pod", "--format", "json"}, 1, `"schema": "qoslint.drift/v1"`},
		{[]string{"drift", snap, "../../../examples/broken-pod", "--format", "html"}, 1, "<!DOCTYPE html>"},
		{[]string{"drift", snap, "../../../examples/broken-pod", "--format", "markdown"}, 1, "## qoslint drift"},
		{[]string{"drift", snap}, 2, ""},
		{[]string{"snapshot"}, 2, ""},
	} {
		code, out, errOut := run(tc.args...)
		if code != tc.code || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d (want %d)\n%.300s\n%s", tc.args, code, tc.code, out, errOut)
		}
	}
	if code, out, _ := run("drift", "--help"); code != 0 || !strings.Contains(out, "0 no drift, 1 drift, 2 unreadable input") {
		t.Errorf("drift --help: exit %d\n%s", code, out)
	}
}
