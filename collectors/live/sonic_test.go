package live

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/capture"
	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/internal/layout"
)

// sonicMixed is clean-pod plus sonic01, a SONiC switch whose config_db.json
// is a published one (collectors/sim/testdata/sonic-mixed/SOURCE.md).
const sonicMixed = "../sim/testdata/sonic-mixed"

// lldpNote is sonic01's one note: the fixture has no lldp.json, so the
// simulator answers as docker does for a missing lldp container.
const lldpNote = layout.LLDPFile + " not collected: `" + devcmd.SONiCLLDPNeighbors + "` said \"Error response from daemon: No such container: lldp\""

// manifestOf writes r below a new folder and returns its manifest, which
// must validate and verify against the files written.
func manifestOf(t *testing.T, r *Result) map[string]capture.Device {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "capture")
	if err := r.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	m, _ := readManifest(t, dir)
	if v := capture.Verify(os.DirFS(dir), statusNames(r)); len(v.Errors) != 0 {
		t.Errorf("the capture does not verify: %v", v.Errors)
	}
	out := map[string]capture.Device{}
	for _, d := range m.Devices {
		out[d.Name] = d
	}
	return out
}

// commandsOf maps each file of a manifest device to its command.
func commandsOf(d capture.Device) map[string]string {
	out := map[string]string{}
	for _, f := range d.Files {
		out[f.Path] = f.Command
	}
	return out
}

// TestSONiCCollect collects a mixed fabric (clean-pod's Cumulus switches
// and hosts, and the SONiC switch sonic01) from the simulator: every file
// the devices serve comes back byte for byte, sonic01 is sent the SONiC
// reads and nothing else (no nv), the Cumulus switches no SONiC command,
// and the manifest lists sonic01 complete with each file's command.
func TestSONiCCollect(t *testing.T) {
	src := fixture.Dir(t, sonicMixed)
	p := startPod(t, src, sim.Options{})
	if s := p.inv.Switches[len(p.inv.Switches)-1]; s.Name != "sonic01" || s.OS != "sonic" {
		t.Fatalf("the simulator's inventory does not say sonic01 runs SONiC: %+v", s)
	}
	r := Collect(context.Background(), p.inv, p.options())
	want := servedFiles(t, src)
	for name, data := range want {
		if got, ok := r.Files[name]; !ok || !bytes.Equal(got, data) {
			t.Errorf("%s: collected %v, %d bytes; want %d bytes, byte for byte", name, ok, len(got), len(data))
		}
	}
	for name := range r.Files {
		if _, ok := want[name]; !ok {
			t.Errorf("%s collected but the device has no such file", name)
		}
	}
	for _, f := range []string{layout.ConfigDBFile, layout.PlatformSummaryFile} {
		if _, ok := want[layout.DeviceFile("sonic01", f)]; !ok {
			t.Fatalf("the fixture has no sonic01 %s", f)
		}
	}
	for _, s := range r.Status {
		notes := withoutStatusNote(s.Notes)
		if s.Name == "sonic01" {
			if !slices.Equal(notes, []string{lldpNote}) {
				t.Errorf("sonic01 notes %q, want only %q", notes, lldpNote)
			}
		} else if s.Kind == layout.KindSwitch && len(notes) != 0 {
			t.Errorf("%s: notes %q", s.Name, notes)
		}
		if s.Err != "" {
			t.Errorf("%s: %s", s.Name, s.Err)
		}
		for _, cmd := range p.fab.Seen(s.Name) {
			sonicCmd := slices.Contains([]string{devcmd.SONiCConfigDB, devcmd.SONiCRunningConfig, devcmd.SONiCPlatformSummary, devcmd.SONiCLLDPNeighbors}, cmd)
			if s.Name == "sonic01" && !sonicCmd {
				t.Errorf("sonic01 was sent %q", cmd)
			}
			if s.Name != "sonic01" && sonicCmd {
				t.Errorf("%s was sent the SONiC command %q", s.Name, cmd)
			}
		}
	}
	if got := p.fab.Seen("sonic01"); !slices.Equal(got, []string{devcmd.SONiCConfigDB, devcmd.SONiCPlatformSummary, devcmd.SONiCLLDPNeighbors}) {
		t.Errorf("sonic01 was sent %q", got)
	}
	m := manifestOf(t, r)
	d := m["sonic01"]
	if d.Kind != layout.KindSwitch || d.Status != capture.StatusComplete || d.Cause != "" {
		t.Errorf("sonic01 in the manifest: %s %s %q", d.Kind, d.Status, d.Cause)
	}
	wantCmds := map[string]string{
		layout.DeviceFile("sonic01", layout.ConfigDBFile):        devcmd.SONiCConfigDB,
		layout.DeviceFile("sonic01", layout.PlatformSummaryFile): devcmd.SONiCPlatformSummary,
	}
	if got := commandsOf(d); !equalMaps(got, wantCmds) {
		t.Errorf("sonic01's files and commands %q, want %q", got, wantCmds)
	}
	if leaf := commandsOf(m["leaf01"]); leaf[layout.DeviceFile("leaf01", layout.NVUEYAMLFile)] != devcmd.NVConfigYAML {
		t.Errorf("leaf01's files and commands %q", leaf)
	}
	assertNoSecret(t, r, nil)
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestSONiCFallback: a switch whose sonic-cfggen prints no JSON gets its
// config_db.json from `show runningconfiguration all`, the manifest says
// so, and the failed first try leaves no note; when both fail, two notes
// say why and no config_db.json is written.
func TestSONiCFallback(t *testing.T) {
	src := fixture.Dir(t, sonicMixed)
	served, err := os.ReadFile(filepath.Join(src, layout.DevicesDir, "sonic01", layout.ConfigDBFile))
	if err != nil {
		t.Fatal(err)
	}
	name := layout.DeviceFile("sonic01", layout.ConfigDBFile)

	p := startPod(t, src, sim.Options{Faults: map[string]sim.Fault{"sonic01": {Fail: "sonic-cfggen"}}})
	r := Collect(context.Background(), p.inv, p.options())
	// `show runningconfiguration all` re-prints the configuration and adds
	// bgpraw: the same tables, saved as the switch printed them.
	var got, want map[string]any
	if err := json.Unmarshal(r.Files[name], &got); err != nil {
		t.Fatalf("config_db.json from the fallback: %v", err)
	}
	if err := json.Unmarshal(served, &want); err != nil {
		t.Fatal(err)
	}
	want["bgpraw"] = ""
	if !reflect.DeepEqual(got, want) || bytes.Equal(r.Files[name], served) {
		t.Errorf("config_db.json from the fallback is not show's re-print of the served file")
	}
	if got := p.fab.Seen("sonic01"); len(got) < 2 || got[0] != devcmd.SONiCConfigDB || got[1] != devcmd.SONiCRunningConfig {
		t.Errorf("sonic01 was sent %q", got)
	}
	if st := status(t, r, "sonic01"); st.Err != "" || !slices.Equal(st.Notes, []string{lldpNote}) {
		t.Errorf("sonic01: err %q notes %q, want only the LLDP note", st.Err, st.Notes)
	}
	d := manifestOf(t, r)["sonic01"]
	if c := commandsOf(d)[name]; c != devcmd.SONiCRunningConfig || d.Status != capture.StatusComplete {
		t.Errorf("manifest: %s came from %q (%s), want %q", name, c, d.Status, devcmd.SONiCRunningConfig)
	}

	p = startPod(t, src, sim.Options{Faults: map[string]sim.Fault{"sonic01": {Fail: "*"}}})
	r = Collect(context.Background(), p.inv, p.options())
	if _, ok := r.Files[name]; ok {
		t.Error("config_db.json written although both commands failed")
	}
	st := status(t, r, "sonic01")
	var cfgNotes []string
	for _, n := range st.Notes {
		if strings.HasPrefix(n, layout.ConfigDBFile+" not collected: ") {
			cfgNotes = append(cfgNotes, n)
		}
	}
	if st.Err != "" || len(cfgNotes) != 2 || !strings.Contains(cfgNotes[0], "`"+devcmd.SONiCConfigDB+"`") ||
		!strings.Contains(cfgNotes[1], "`"+devcmd.SONiCRunningConfig+"`") || !strings.Contains(cfgNotes[1], "simulated failure") {
		t.Errorf("both failed: err %q notes %q", st.Err, st.Notes)
	}
}

// TestSONiCNotJSON: output that is not a JSON object (a warning before
// it, nothing at all) is not saved as config_db.json.
func TestSONiCNotJSON(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want bool
	}{
		{"{\n}\n", true}, {"  \n\t{\"PORT\": {}}", true}, {"", false}, {"\n \n", false},
		{"WARNING: something\n{\"PORT\": {}}\n", false}, {"[]\n", false}, {"Traceback (most recent call last):\n", false},
	} {
		if got := jsonObject([]byte(tc.out)); got != tc.want {
			t.Errorf("jsonObject(%q) = %v, want %v", tc.out, got, tc.want)
		}
	}
	for _, tc := range []struct{ served, note string }{
		{"Warning: redis is slow\n{}\n", "printed no JSON object: \"Warning: redis is slow\""},
		{"", "printed nothing"},
		{"\n\n", "printed nothing"},
	} {
		src := fixture.Dir(t, sonicMixed)
		writeFile(t, filepath.Join(src, layout.DevicesDir, "sonic01", layout.ConfigDBFile), []byte(tc.served))
		p := startPod(t, src, sim.Options{})
		r := Collect(context.Background(), p.inv, p.options())
		if _, ok := r.Files[layout.DeviceFile("sonic01", layout.ConfigDBFile)]; ok {
			t.Errorf("%q: saved as config_db.json", tc.served)
		}
		// show loads what sonic-cfggen printed and fails on it with its
		// own message (sonic-utilities show/main.py
		// get_config_json_by_namespace).
		st := status(t, r, "sonic01")
		for _, want := range []string{
			layout.ConfigDBFile + " not collected: `" + devcmd.SONiCConfigDB + "` " + tc.note,
			layout.ConfigDBFile + " not collected: `" + devcmd.SONiCRunningConfig + "` printed no JSON object: \"Failed to load output '['sonic-cfggen', '-d', '--print-data']':",
		} {
			if !slices.ContainsFunc(st.Notes, func(n string) bool { return strings.HasPrefix(n, want) }) {
				t.Errorf("%q: notes %q, want one starting %q", tc.served, st.Notes, want)
			}
		}
	}
}

// TestSONiCSudo: with sudo: true on the switches every SONiC read runs
// under sudo -n and saves the same bytes.
func TestSONiCSudo(t *testing.T) {
	src := fixture.Dir(t, sonicMixed)
	p := startPod(t, src, sim.Options{})
	p.inv.SSH.Switches.Sudo = true
	r := Collect(context.Background(), p.inv, p.options())
	seen := p.fab.Seen("sonic01")
	if len(seen) != 3 {
		t.Errorf("sonic01 was sent %q", seen)
	}
	for _, cmd := range seen {
		if !strings.HasPrefix(cmd, devcmd.SudoPrefix) || devcmd.Check(cmd) != nil {
			t.Errorf("sonic01 was sent %q, want an allowlisted command under sudo -n", cmd)
		}
	}
	for name, data := range servedFiles(t, src) {
		if strings.HasPrefix(name, layout.DeviceDir("sonic01")+"/") && !bytes.Equal(r.Files[name], data) {
			t.Errorf("%s differs under sudo", name)
		}
	}
}

// TestSONiCCounters: with --counters the SONiC switch's gNMI is not asked
// (a note says why), the Cumulus switches' is.
func TestSONiCCounters(t *testing.T) {
	src := fixture.Dir(t, sonicMixed)
	p := startPod(t, src, sim.Options{GNMI: true})
	opt := p.options()
	opt.Counters = true
	r := Collect(context.Background(), p.inv, opt)
	if _, ok := r.Files[layout.DeviceFile("sonic01", layout.GNMIFile)]; ok {
		t.Error("gnmi-counters.json collected for a SONiC switch")
	}
	if _, ok := r.Files[layout.DeviceFile("leaf01", layout.GNMIFile)]; !ok {
		t.Error("leaf01's gNMI counters were not collected")
	}
	st := status(t, r, "sonic01")
	if st.Err != "" || !slices.ContainsFunc(st.Notes, func(n string) bool {
		return strings.HasPrefix(n, "gNMI counters not collected: gNMI counters of a SONiC switch are not collected")
	}) {
		t.Errorf("sonic01: err %q notes %q", st.Err, st.Notes)
	}
}

// TestSONiCWithoutOS: a SONiC switch the inventory does not call SONiC
// is sent the NVUE commands; bash has no nv, and a note says to set os.
func TestSONiCWithoutOS(t *testing.T) {
	p := startPod(t, fixture.Dir(t, sonicMixed), sim.Options{})
	for i := range p.inv.Switches {
		if p.inv.Switches[i].Name == "sonic01" {
			p.inv.Switches[i].OS = ""
		}
	}
	r := Collect(context.Background(), p.inv, p.options())
	st := status(t, r, "sonic01")
	hint := "sonic01 has no nv command: if it runs SONiC, say os: sonic for it in the inventory"
	if st.Err != "" || !slices.Contains(st.Notes, hint) {
		t.Errorf("sonic01: err %q notes %q, want %q", st.Err, st.Notes, hint)
	}
	if seen := p.fab.Seen("sonic01"); len(seen) == 0 || seen[0] != devcmd.NVConfigYAML {
		t.Errorf("sonic01 was sent %q", seen)
	}
	for _, s := range r.Status {
		if s.Name != "sonic01" && slices.ContainsFunc(s.Notes, func(n string) bool { return strings.Contains(n, "os: sonic") }) {
			t.Errorf("%s, a Cumulus switch, got the SONiC hint: %q", s.Name, s.Notes)
		}
	}
}
