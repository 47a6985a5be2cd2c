package live

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/qoslint/qoslint/collectors/capture"
	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/layout"
)

// readManifest reads the manifest WriteDir wrote below dir and validates
// it against the embedded JSON Schema, then with capture.Parse.
func readManifest(t *testing.T, dir string) (*capture.Parsed, []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(layout.CaptureFile)))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(capture.SchemaJSON()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("capture.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("capture.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("the manifest does not validate: %v\n%s", err, data)
	}
	p, err := capture.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(secret)) {
		t.Error("the password leaked into the manifest")
	}
	return p, data
}

// TestManifest collects the broken pod with counters from the simulator:
// the manifest validates, lists every file written with the command it
// came from, and its sizes and hashes are those of the files on disk.
func TestManifest(t *testing.T) {
	p := startPod(t, brokenPod, sim.Options{GNMI: true})
	opt := p.options()
	opt.Counters = true
	before := time.Now().Add(-time.Second)
	r := Collect(context.Background(), p.inv, opt)
	dir := filepath.Join(t.TempDir(), "capture")
	if err := r.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	m, _ := readManifest(t, dir)
	started, err1 := time.Parse(time.RFC3339, m.Started)
	finished, err2 := time.Parse(time.RFC3339, m.Finished)
	if err1 != nil || err2 != nil || started.Before(before.Truncate(time.Second)) || finished.Before(started) || finished.After(time.Now()) {
		t.Errorf("started %s finished %s", m.Started, m.Finished)
	}
	if m.Interrupted || m.Version == "" || len(m.Devices) != len(r.Status) {
		t.Errorf("interrupted %v version %q, %d devices", m.Interrupted, m.Version, len(m.Devices))
	}
	listed := map[string]bool{}
	for _, d := range m.Devices {
		if d.Status != capture.StatusComplete || d.Cause != "" {
			t.Errorf("%s: %s %q", d.Name, d.Status, d.Cause)
		}
		for _, f := range d.Files {
			listed[f.Path] = true
			data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
			sum := sha256.Sum256(data)
			if err != nil || int64(len(data)) != f.Size || hex.EncodeToString(sum[:]) != f.SHA256 {
				t.Errorf("%s: %v, size %d sha256 %s on disk, manifest %d %s", f.Path, err, len(data), hex.EncodeToString(sum[:]), f.Size, f.SHA256)
			}
			if want := wantCommand(f.Path); !strings.HasPrefix(f.Command, want) {
				t.Errorf("%s: command %q, want %q…", f.Path, f.Command, want)
			}
		}
	}
	for name := range r.Files {
		if !listed[name] {
			t.Errorf("%s written but not in the manifest", name)
		}
	}
	if len(listed) != len(r.Files) {
		t.Errorf("%d files listed, %d written", len(listed), len(r.Files))
	}
	if v := capture.Verify(os.DirFS(dir), statusNames(r)); len(v.Errors) != 0 {
		t.Errorf("a fresh capture does not verify: %v", v.Errors)
	}
}

// wantCommand is the start of the command each kind of file comes from.
func wantCommand(file string) string {
	base := path.Base(file)
	switch {
	case base == layout.NVUEYAMLFile:
		return devcmd.NVConfigYAML
	case base == layout.NVUECommandsFile:
		return devcmd.NVConfigCommands
	case base == layout.RoceShowFile:
		return devcmd.NVShowQosRoce
	case base == layout.GNMIFile:
		return "gNMI Subscribe /qos/interfaces/"
	case base == layout.IBDev2NetdevFile:
		return devcmd.IBDev2Netdev
	case base == layout.IPLinkFile:
		return devcmd.IPLink
	case base == layout.NCCLConfFile:
		return devcmd.CatNCCLConf
	case base == layout.UCXConfFile:
		return devcmd.CatUCXConf
	case base == layout.LLDPFile:
		return devcmd.LLDPNeighbors
	case base == layout.LspciFile:
		return devcmd.Lspci
	case base == layout.CPUInfoFile:
		return devcmd.CatCPUInfo
	case strings.HasPrefix(base, "mlxconfig-"):
		return devcmd.MlxconfigPrefix + strings.TrimSuffix(strings.TrimPrefix(base, "mlxconfig-"), ".txt") + devcmd.MlxconfigQuery
	case strings.HasPrefix(base, "mlnx_qos-"):
		return "mlnx_qos -i " + strings.TrimSuffix(strings.TrimPrefix(base, "mlnx_qos-"), ".txt")
	case strings.HasPrefix(base, "ethtool-S-"):
		return "ethtool -S " + strings.TrimSuffix(strings.TrimPrefix(base, "ethtool-S-"), ".txt")
	case strings.Contains(file, "/"+layout.SysfsDir+"/"):
		return devcmd.SysfsGrepPrefix
	}
	return "unexpected file " + file
}

func statusNames(r *Result) []string {
	var out []string
	for _, s := range r.Status {
		out = append(out, s.Name)
	}
	return out
}

// TestManifestInterval: the earlier sample keeps its command, and
// counters-interval.txt says qoslint computed it.
func TestManifestInterval(t *testing.T) {
	p := startPod(t, cleanPod, sim.Options{GNMI: true})
	opt := p.options()
	opt.Counters, opt.Interval = true, 100*time.Millisecond
	r := Collect(context.Background(), p.inv, opt)
	checked := 0
	for name, cmd := range r.Commands {
		switch {
		case path.Base(name) == layout.IntervalFile:
			checked++
			if !strings.HasPrefix(cmd, capture.ComputedPrefix) {
				t.Errorf("%s: %q", name, cmd)
			}
		case strings.Contains(name, ".before") || strings.Contains(name, layout.SysfsBeforeDir+"/"):
			checked++
			later := strings.Replace(strings.Replace(name, ".before", "", 1), layout.SysfsBeforeDir+"/", layout.SysfsDir+"/", 1)
			if cmd == "" || cmd != r.Commands[later] {
				t.Errorf("%s: %q, its later sample %s: %q", name, cmd, later, r.Commands[later])
			}
		}
	}
	if checked == 0 {
		t.Error("no earlier sample collected")
	}
	for name := range r.Files {
		if r.Commands[name] == "" {
			t.Errorf("%s: no command", name)
		}
	}
}

// TestManifestInterrupted: a collection cancelled mid-way still writes a
// manifest that validates, says it was interrupted and marks every device
// it cut short partial or failed with the cause, and lint of it names each.
// One worker and a switch that hangs on its second command make it
// deterministic: the cancel comes once the switch saved its configuration
// and waits for `nv show qos roce` (partial), with every other device
// still queued (failed).
func TestManifestInterrupted(t *testing.T) {
	const first = "spine01" // the inventory's first device
	p := startPod(t, brokenPod, sim.Options{Faults: map[string]sim.Fault{first: {Hang: devcmd.NVShowQosRoce}}})
	if p.inv.Switches[0].Name != first {
		t.Fatalf("the first device is %s, not %s", p.inv.Switches[0].Name, first)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if slices.Contains(p.fab.Seen(first), devcmd.NVShowQosRoce) {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	opt := p.options()
	opt.Workers = 1
	opt.CommandTimeout = 30 * time.Second
	r := Collect(ctx, p.inv, opt)
	if !r.Interrupted {
		t.Fatal("not marked interrupted")
	}
	dir := filepath.Join(t.TempDir(), "capture")
	if err := r.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	m, _ := readManifest(t, dir)
	if !m.Interrupted {
		t.Error("the manifest does not say interrupted")
	}
	for _, d := range m.Devices {
		want := capture.StatusFailed
		if d.Name == first {
			want = capture.StatusPartial
		}
		if d.Status != want || !strings.HasPrefix(d.Cause, "cancelled") || (len(d.Files) > 0) != (want == capture.StatusPartial) {
			t.Errorf("%s: %s %q with %d files, want %s", d.Name, d.Status, d.Cause, len(d.Files), want)
		}
	}
	c := offline.Collect(dir, p.inv)
	text := ""
	for _, e := range c.Errors {
		text += e.Error() + "\n"
	}
	if !strings.Contains(text, ".qoslint/capture.json:6: the collection was interrupted") {
		t.Errorf("lint does not say interrupted:\n%s", text)
	}
	for _, d := range m.Devices {
		if !strings.Contains(text, d.Name+": .qoslint/capture.json:") {
			t.Errorf("lint does not name %s:\n%s", d.Name, text)
		}
	}
	if len(c.Switches)+len(c.Hosts) != 0 {
		t.Errorf("devices cut short were checked: %d switches, %d hosts", len(c.Switches), len(c.Hosts))
	}
}
