package live

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/layout"
)

// statusCommands are the per-port status commands a device received, in
// order; each must pass the allowlist.
func statusCommands(t *testing.T, p *pod, dev string) []string {
	t.Helper()
	var out []string
	for _, c := range p.fab.Seen(dev) {
		if _, ok := devcmd.ParseNVShowRoceStatus(c); ok || strings.Contains(c, "qos roce status") {
			if err := devcmd.Check(c); err != nil {
				t.Errorf("%s received %q off the allowlist: %v", dev, c, err)
			}
			out = append(out, c)
		}
	}
	return out
}

func portCommands(ports ...string) []string {
	var out []string
	for _, p := range ports {
		c, _ := devcmd.NVShowRoceStatus(p)
		out = append(out, c)
	}
	return out
}

func swps(from, to int) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, fmt.Sprintf("swp%d", i))
	}
	return out
}

// TestRoceStatus: a switch is asked for each checked port's own status,
// one command per port in port order, and each answer is saved byte for
// byte as roce-status/<port>.txt; a switch that answers every port with an
// error gets one note for all of them, and no file.
func TestRoceStatus(t *testing.T) {
	p := startPod(t, cleanPod, sim.Options{})
	r := Collect(context.Background(), p.inv, p.options())

	// spine01 has a status file for each of swp1-32.
	if got, want := statusCommands(t, p, "spine01"), portCommands(swps(1, 32)...); !slices.Equal(got, want) {
		t.Errorf("spine01 received %q, want %q", got, want)
	}
	if s := status(t, r, "spine01"); s.Err != "" || len(s.Notes) != 0 {
		t.Errorf("spine01: %q %q", s.Err, s.Notes)
	}
	for _, port := range swps(1, 32) {
		name := layout.DeviceFile("spine01", layout.RoceStatusFile(port))
		want, err := os.ReadFile(filepath.Join(cleanPod, name))
		if err != nil || !bytes.Equal(r.Files[name], want) {
			t.Errorf("%s not collected as served (%v)", name, err)
		}
	}

	// leaf01 has none: 32 commands, one note, no file.
	if got := statusCommands(t, p, "leaf01"); len(got) != 32 {
		t.Errorf("leaf01 received %d status commands, want 32", len(got))
	}
	s := status(t, r, "leaf01")
	want := "roce-status not collected for swp1-32: `nv show interface swp1 qos roce status` said \"Error: "
	if s.Err != "" || len(s.Notes) != 1 || !strings.HasPrefix(s.Notes[0], want) {
		t.Errorf("leaf01: %q %q, want one note starting %q", s.Err, s.Notes, want)
	}
	for name := range r.Files {
		if strings.HasPrefix(name, layout.DeviceFile("leaf01", layout.RoceStatusDir)) {
			t.Errorf("%s saved from an error", name)
		}
	}
}

// TestRoceStatusPorts: the inventory's ports list picks the ports asked,
// a bond member is not asked (its bond is), and a checked port whose name
// devcmd refuses is never sent: a note names it instead.
func TestRoceStatusPorts(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "inventory.yaml"), []byte(
		"fabric: ports\npolicy:\n  preset: cumulus-default\nswitches:\n  - name: spine01\n    role: spine\n    address: 192.0.2.1\n"))
	src := filepath.Join(cleanPod, "devices/spine01")
	cfg, err := os.ReadFile(filepath.Join(src, layout.NVUEYAMLFile))
	if err != nil {
		t.Fatal(err)
	}
	// bond1-a: NVUE reads "1-" as the start of a range, so the name is
	// refused; swp3 becomes its member.
	bond := "      bond1-a:\n        bond:\n          member:\n            swp3: {}\n        type: bond\n      swp1-32:\n"
	cfg = bytes.Replace(cfg, []byte("      swp1-32:\n"), []byte(bond), 1)
	writeFile(t, filepath.Join(dir, "devices/spine01", layout.NVUEYAMLFile), cfg)
	files := []string{layout.RoceShowFile, layout.LLDPFile}
	for _, port := range swps(1, 32) {
		files = append(files, layout.RoceStatusFile(port))
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "devices/spine01", f), data)
	}

	p := startPod(t, dir, sim.Options{})
	r := Collect(context.Background(), p.inv, p.options())
	want := portCommands(append(swps(1, 2), swps(4, 32)...)...)
	if got := statusCommands(t, p, "spine01"); !slices.Equal(got, want) {
		t.Errorf("received %q, want %q", got, want)
	}
	s := status(t, r, "spine01")
	note := `roce-status/bond1-a.txt not collected: port "bond1-a" is not a safe interface name`
	if s.Err != "" || len(s.Notes) != 1 || !strings.HasPrefix(s.Notes[0], note) {
		t.Errorf("notes %q, want one starting %q", s.Notes, note)
	}

	p = startPod(t, dir, sim.Options{})
	p.inv.Switches[0].Ports = []string{"swp5-6", "swp31"}
	r = Collect(context.Background(), p.inv, p.options())
	if got, want := statusCommands(t, p, "spine01"), portCommands("swp5", "swp6", "swp31"); !slices.Equal(got, want) {
		t.Errorf("with ports swp5-6,swp31: received %q, want %q", got, want)
	}
	if n := len(status(t, r, "spine01").Notes); n != 0 {
		t.Errorf("%d notes", n)
	}
}
