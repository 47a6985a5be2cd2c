package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/model/snapshot"
)

func TestSnapshotExitCodes(t *testing.T) {
	tmp := t.TempDir()
	badInv := copyDir(t, "../../../examples/clean-pod")
	if err := os.WriteFile(filepath.Join(badInv, "inventory.hcl"), []byte("fabric = \"x\"\npolicy {\n  roce { dscpp = [26] }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir, out string
		code           int
		stdout, stderr string // must contain
		written        bool
	}{
		{"to a file", "../../../examples/clean-pod", filepath.Join(tmp, "clean.json"), ExitOK, "", "qoslint: wrote " + filepath.Join(tmp, "clean.json") + ": fabric pod-clean, 4 switches, 4 hosts", true},
		{"to stdout", "../../../examples/broken-pod", "", ExitOK, `"schema": "qoslint.snapshot/v1"`, "", false},
		{"malformed files: written, exit 2", fixture.Dir(t, "../../../render/testdata/input-errors"), filepath.Join(tmp, "ie.json"), ExitInput, "", "devices/leaf01/nv-config.yaml:36", true},
		{"bad inventory", badInv, filepath.Join(tmp, "bad.json"), ExitInput, "", "inventory.hcl:3:", false},
		{"no inventory", t.TempDir(), "", ExitInput, "", "inventory", false},
		{"unwritable", "../../../examples/clean-pod", filepath.Join(tmp, "missing", "x.json"), ExitInput, "", "no such file or directory", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Snapshot(&out, &errOut, tc.dir, tc.out)
			if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("exit %d (want %d)\nstdout: %.300s\nstderr: %s", code, tc.code, out.String(), errOut.String())
			}
			if !tc.written {
				return
			}
			data, err := os.ReadFile(tc.out)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := snapshot.Read(tc.out, data); err != nil {
				t.Errorf("the written snapshot does not read back: %v", err)
			}
		})
	}
}

func TestDriftExitCodes(t *testing.T) {
	tmp := t.TempDir()
	cleanSnap := filepath.Join(tmp, "clean.json")
	if code := Snapshot(&bytes.Buffer{}, &bytes.Buffer{}, "../../../examples/clean-pod", cleanSnap); code != ExitOK {
		t.Fatalf("snapshot: exit %d", code)
	}
	data, _ := os.ReadFile(cleanSnap)
	v2 := filepath.Join(tmp, "v2.json")
	if err := os.WriteFile(v2, bytes.Replace(data, []byte(snapshot.Version), []byte("qoslint.snapshot/v2"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	upper := filepath.Join(tmp, "CLEAN.JSON")
	if err := os.WriteFile(upper, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, old, new, format string
		code                   int
		stdout, stderr         string
	}{
		{"same directory", "../../../examples/clean-pod", "../../../examples/clean-pod", "text", ExitNoDrift, "NO DRIFT", ""},
		{"snapshot against its directory", cleanSnap, "../../../examples/clean-pod", "json", ExitNoDrift, `"drift": false`, ""},
		{"upper-case .JSON is a snapshot", upper, cleanSnap, "text", ExitNoDrift, "NO DRIFT", ""},
		{"clean to broken", cleanSnap, "../../../examples/broken-pod", "markdown", ExitDrift, "DSCP 26 → switch-priority 0, was 3", ""},
		{"broken to clean", "../../../examples/broken-pod", "../../../examples/clean-pod", "html", ExitDrift, "repairs", ""},
		{"another version", v2, "../../../examples/clean-pod", "text", ExitInput, "", `v2.json:2: snapshot schema "qoslint.snapshot/v2" is not supported`},
		{"missing snapshot", filepath.Join(tmp, "nope.json"), cleanSnap, "text", ExitInput, "", "nope.json"},
		{"missing directory", cleanSnap, filepath.Join(tmp, "nope"), "text", ExitInput, "", "inventory"},
		{"unreadable device files", "../../../examples/clean-pod", fixture.Dir(t, "../../../render/testdata/input-errors"), "text", ExitInput, "incomplete: 3 input errors", ""},
		{"unknown format", cleanSnap, cleanSnap, "yaml", ExitInput, "", `unknown format "yaml"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Drift(&out, &errOut, tc.old, tc.new, tc.format)
			if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("exit %d (want %d)\nstdout: %.400s\nstderr: %s", code, tc.code, out.String(), errOut.String())
			}
		})
	}
}

// TestDriftSourcesAreLabelled: the report names each side as given.
func TestDriftSourcesAreLabelled(t *testing.T) {
	var out bytes.Buffer
	Drift(&out, &bytes.Buffer{}, "../../../examples/clean-pod", "../../../examples/broken-pod", "json")
	for _, want := range []string{`"old": {"source": "../../../examples/clean-pod", "fabric": "pod-clean"}`, `"new": {"source": "../../../examples/broken-pod", "fabric": "pod-b"}`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in\n%.400s", want, out.String())
		}
	}
}
