package live

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/qoslint/qoslint/collectors/nvue/nvuemodel"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/inventory"
)

const (
	cleanPod  = "../../examples/clean-pod"
	brokenPod = "../../examples/broken-pod"
	// secret is distinctive so that a leak anywhere is found by a plain
	// substring search.
	secret     = "Pw-4e1f-NEVER-LEAK-c0ffee"
	passwordEv = "QOSLINT_LIVE_TEST_PW"
	// Fault tests wait out per-command and handshake timeouts; keep them short.
	shortTimeout = 2 * time.Second
)

// pod is a simulated fabric and the inventory qoslint would use for it.
type pod struct {
	fab    *sim.Fabric
	inv    *inventory.Inventory
	invDir string
	src    string // the fabric directory the simulator serves
}

// startPod serves src with the simulator and loads the inventory pointing
// at it (known_hosts from the simulator, password from passwordEv).
func startPod(t *testing.T, src string, opt sim.Options) *pod {
	t.Helper()
	if opt.Password == "" && len(opt.AuthorizedKeys) == 0 {
		opt.Password = secret
	}
	if opt.Latency == 0 {
		opt.Latency = time.Millisecond
	}
	f, err := sim.Start(src, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	dir := t.TempDir()
	var inv bytes.Buffer
	if err := f.WriteInventory(&inv, "known_hosts", passwordEv); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "inventory.yaml"), inv.Bytes())
	writeFile(t, filepath.Join(dir, "known_hosts"), f.KnownHosts())
	loaded, err := inventory.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return &pod{fab: f, inv: loaded, invDir: dir, src: src}
}

// options are the test defaults: the simulator's password in the
// environment, nothing read from the real one, and the ports lint checks
// asked for their RoCE status, as audit asks them.
func (p *pod) options() Options {
	return Options{
		InventoryDir:   p.invDir,
		CommandTimeout: 5 * time.Second,
		Getenv:         env(map[string]string{passwordEv: secret}),
		RoCEPorts:      nvuemodel.CheckedPorts,
	}
}

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func writeFile(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// servedFiles are the files of src a live collection must reproduce: all
// device files but the NVUE command form, which no allowlisted command
// prints, and packet captures, which the operator adds.
func servedFiles(t *testing.T, src string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	// The example's links read as the files they point at, as the
	// simulator serves them.
	root := os.DirFS(fixture.Build(t, src, nil))
	err := fs.WalkDir(root, layout.DevicesDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && layout.InCaptures(p) {
			return fs.SkipDir
		}
		if err != nil || d.IsDir() {
			return err
		}
		// A switch with both forms is collected as YAML only.
		if dir, f := path.Split(p); f == layout.NVUECommandsFile {
			if _, err := fs.Stat(root, dir+layout.NVUEYAMLFile); err == nil {
				return nil
			}
		}
		out[p], err = fs.ReadFile(root, p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// status returns the named device's status.
func status(t *testing.T, r *Result, name string) DeviceStatus {
	t.Helper()
	for _, s := range r.Status {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no status for %s", name)
	return DeviceStatus{}
}

// events records OnEvent calls from the workers.
type events struct {
	mu  sync.Mutex
	all []Event
}

func (e *events) add(ev Event) {
	e.mu.Lock()
	e.all = append(e.all, ev)
	e.mu.Unlock()
}

func (e *events) list() []Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Event(nil), e.all...)
}

// assertNoSecret fails if the password appears in anything the collector
// produced: errors, notes, files, events.
func assertNoSecret(t *testing.T, r *Result, evs []Event, secrets ...string) {
	t.Helper()
	for _, sec := range append(secrets, secret) {
		for _, s := range r.Status {
			if strings.Contains(s.Err, sec) || strings.Contains(strings.Join(s.Notes, "\n"), sec) {
				t.Errorf("%s: the password leaked into the status: %q %q", s.Name, s.Err, s.Notes)
			}
		}
		for name, data := range r.Files {
			if bytes.Contains(data, []byte(sec)) || strings.Contains(name, sec) {
				t.Errorf("the password leaked into %s", name)
			}
		}
		for _, ev := range evs {
			if ev.Err != nil && strings.Contains(ev.Err.Error(), sec) {
				t.Errorf("the password leaked into an event: %v", ev.Err)
			}
		}
	}
}

// equalJSON compares two values by their JSON form (captures hold
// pointers, and their evidence paths are relative to the fabric directory).
func equalJSON(t *testing.T, a, b any) bool {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ja, jb) {
		t.Logf("live %s\ndisk %s", ja, jb)
		return false
	}
	return true
}

// withoutStatusNote drops the one note of a switch whose example folder
// has no roce-status/: the simulator answers each port's `nv show
// interface <port> qos roce status` with an NVUE error, which the
// collector reports once per switch (TestRoceStatus asserts it).
func withoutStatusNote(notes []string) []string {
	var out []string
	for _, n := range notes {
		if !strings.HasPrefix(n, layout.RoceStatusDir+" not collected for ") {
			out = append(out, n)
		}
	}
	return out
}
