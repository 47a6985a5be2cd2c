package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/layout"
)

// TestSimWritesOnlyWhatItIsTold: sim refuses to replace a file without
// --force (and says which), replaces it with --force, copies the cabling
// plan only with --topology, and without --inventory-out writes to a
// folder of its own that is gone when it stops. A cancelled context makes
// Sim return as soon as it has written its files.
func TestSimWritesOnlyWhatItIsTold(t *testing.T) {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	getenv := func(string) string { return testPassword }
	dir := t.TempDir()
	inv := filepath.Join(dir, "sim.yaml")
	writeFile(t, inv, "the user's own\n")

	var out, errOut bytes.Buffer
	opt := SimOptions{Dir: "../../../examples/clean-pod", Listen: "127.0.0.1", InventoryOut: inv, Getenv: getenv}
	if code := Sim(done, &out, &errOut, opt); code != ExitInput || !strings.Contains(errOut.String(), inv+" exists: --force replaces it") {
		t.Errorf("no --force: exit %d, %s", code, errOut.String())
	}
	if data, _ := os.ReadFile(inv); string(data) != "the user's own\n" {
		t.Errorf("refused, yet replaced: %q", data)
	}
	if _, err := os.Stat(filepath.Join(dir, "sim.known_hosts")); !os.IsNotExist(err) {
		t.Errorf("refused, yet wrote the known_hosts: %v", err)
	}

	errOut.Reset()
	opt.Force = true
	if code := Sim(done, &out, &errOut, opt); code != ExitOK {
		t.Fatalf("--force: exit %d, %s", code, errOut.String())
	}
	if data, _ := os.ReadFile(inv); !strings.Contains(string(data), "known_hosts: sim.known_hosts") {
		t.Errorf("--force did not write the inventory:\n%s", data)
	}
	if _, err := os.Stat(filepath.Join(dir, layout.TopologyFile)); !os.IsNotExist(err) {
		t.Errorf("the cabling plan was copied without --topology: %v", err)
	}
	if !strings.Contains(errOut.String(), "topology.dot is not copied beside the inventory, so audit does not check the cabling: --topology copies it") {
		t.Errorf("no word about the cabling plan left behind:\n%s", errOut.String())
	}

	opt.Topology = true
	if code := Sim(done, &out, &errOut, opt); code != ExitOK {
		t.Fatalf("--topology: exit %d, %s", code, errOut.String())
	}
	want, _ := os.ReadFile("../../../examples/clean-pod/topology.dot")
	if got, _ := os.ReadFile(filepath.Join(dir, layout.TopologyFile)); !bytes.Equal(got, want) {
		t.Error("--topology did not copy the cabling plan")
	}

	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	errOut.Reset()
	if code := Sim(done, &out, &errOut, SimOptions{Dir: "../../../examples/clean-pod", Listen: "127.0.0.1", Getenv: getenv}); code != ExitOK {
		t.Fatalf("no --inventory-out: exit %d, %s", code, errOut.String())
	}
	if !strings.Contains(errOut.String(), "to the new folder "+tmp+"/qoslint-sim-") {
		t.Errorf("the temporary folder is not named:\n%s", errOut.String())
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("the temporary folder outlived sim: %v", ents)
	}
}
