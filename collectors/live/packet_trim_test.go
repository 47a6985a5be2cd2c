package live

import (
	"bytes"
	"context"
	"github.com/qoslint/qoslint/collectors/fabric"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

// TestPacketTrimCollected: a switch whose configuration trims packets is
// asked for its two packet trimming views, which come back byte for byte
// (the docs' port-level example and the lossy-multi-tc `nv show qos
// remark`); one that trims without them gets a note per view; the others
// are asked nothing more. The audit then judges exactly what a lint of its
// capture judges.
func TestPacketTrimCollected(t *testing.T) {
	src := t.TempDir()
	if err := os.CopyFS(src, os.DirFS(cleanPod)); err != nil {
		t.Fatal(err)
	}
	dev := func(name, file string) string { return filepath.Join(src, layout.DevicesDir, name, file) }
	add := func(name, text string) {
		f, err := os.OpenFile(dev(name, layout.NVUECommandsFile), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
	}
	fixture := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("../nvue/testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	add("spine02", "nv set system forwarding packet-trim profile packet-trim-default\nnv set system forwarding packet-trim remark dscp port-level\n")
	trim, remark := fixture("packet_trim_show_port_level.txt"), fixture("qos_remark_show_lossy_multi_tc.txt")
	writeFile(t, dev("spine02", layout.PacketTrimShowFile), trim)
	writeFile(t, dev("spine02", layout.RemarkShowFile), remark)
	// spine01 trims too, but its folder has neither view.
	yml, err := os.ReadFile(dev("spine01", layout.NVUEYAMLFile))
	if err != nil {
		t.Fatal(err)
	}
	yml = bytes.Replace(yml, []byte("      forwarding:\n"), []byte("      forwarding:\n        packet-trim:\n          state: enabled\n"), 1)
	writeFile(t, dev("spine01", layout.NVUEYAMLFile), yml)

	p := startPod(t, src, sim.Options{})
	r := Collect(context.Background(), p.inv, p.options())
	for file, want := range map[string][]byte{layout.PacketTrimShowFile: trim, layout.RemarkShowFile: remark} {
		if got := r.Files[layout.DeviceFile("spine02", file)]; !bytes.Equal(got, want) {
			t.Errorf("spine02 %s: got %q", file, got)
		}
	}
	if s := status(t, r, "spine02"); len(withoutStatusNote(s.Notes)) != 0 {
		t.Errorf("spine02 notes %q", s.Notes)
	}
	wantNotes := []string{
		layout.PacketTrimShowFile + " not collected: `" + devcmd.NVShowPacketTrim + "` said \"Error: packet-trim is not available (no " + layout.PacketTrimShowFile + ") in the simulated spine01\"",
		layout.RemarkShowFile + " not collected: `" + devcmd.NVShowQoSRemark + "` said \"Error: qos remark is not available (no " + layout.RemarkShowFile + ") in the simulated spine01\"",
	}
	if s := status(t, r, "spine01"); !reflect.DeepEqual(withoutStatusNote(s.Notes), wantNotes) {
		t.Errorf("spine01 notes\n%q\nwant\n%q", s.Notes, wantNotes)
	}
	for _, name := range []string{"leaf01", "leaf02"} {
		seen := p.fab.Seen(name)
		if slices.Contains(seen, devcmd.NVShowPacketTrim) || slices.Contains(seen, devcmd.NVShowQoSRemark) {
			t.Errorf("%s does not trim but was asked %q", name, seen)
		}
	}
	if !slices.Contains(p.fab.Seen("spine02"), devcmd.NVShowPacketTrim) {
		t.Errorf("spine02 was not asked: %q", p.fab.Seen("spine02"))
	}

	live := offline.CollectFS(resultFS(r), p.inv)
	disk := offline.Collect(src, p.inv)
	for i, s := range disk.Switches {
		if s.Name == "spine02" && !equalJSON(t, live.Switches[i], s) {
			t.Error("spine02 reads differently live")
		}
	}
	summary := func(c model.Fabric) []string {
		var out []string
		for _, f := range checks.Run(&c) {
			out = append(out, f.Device+" "+f.Check+" "+f.Severity.String()+" "+f.Message)
		}
		return out
	}
	a, l := summary(*fabric.Build(p.inv, live)), summary(*fabric.Build(p.inv, disk))
	if !reflect.DeepEqual(a, l) {
		t.Errorf("audit and lint differ:\n%q\n%q", a, l)
	}
	found := false
	for _, f := range a {
		found = found || bytes.Contains([]byte(f), []byte("spine02 packet-trim"))
	}
	if !found {
		t.Errorf("no packet trimming finding on spine02 (the docs' output names ports and a profile this configuration does not bind): %q", a)
	}
}
