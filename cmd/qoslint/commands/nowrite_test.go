package commands

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/qoslint/qoslint/checks/waivers"
	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/internal/layout"
)

// asQoslint makes the test binary run as qoslint (TestMain): the commands
// run as separate processes, each in its own working directory, with the
// exact code under test and no build step.
const asQoslint = "QOSLINT_COMMANDS_TEST_RUN_AS_QOSLINT"

func TestMain(m *testing.M) {
	if os.Getenv(asQoslint) == "1" {
		os.Exit(Execute(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// userFiles are the names qoslint reads, writes or once wrote by default,
// each present in the working directory of TestNoCommandWritesAnUnnamedFile
// besides the fabric (a copy of the broken pod: inventory.yaml,
// topology.dot, devices/): the simulator's inventory, its known_hosts and
// CA, a plain known_hosts, the waivers, the switch and LLDP files a user
// may keep at the top, serve's state folder, snapshot and report names
// (text is the name a stray `-o text` once left committed). A capture
// manifest (.qoslint/capture.json) is left out: lint reads it in a fabric
// directory, so a dummy one would make every lint of the folder exit 2.
var userFiles = []string{
	"sim-inventory.yaml", "sim-inventory.known_hosts", "known_hosts", sim.GNMICAFile, waivers.FileName,
	layout.NVUEYAMLFile, layout.NVUECommandsFile, layout.LLDPFile, "inventory.hcl.bak",
	app.StateDirName + "/snapshot-20260101T000000Z.json",
	"snapshot.json", "qoslint.sarif", "r.sarif", "report.json", "report.html", "junit.xml", "r.xml", "text",
	"qoslint.prom", "fixes/leaf01.sh", "preview/inventory.yaml", "capture/inventory.yaml",
}

// fileState is what a write would change: content, mode and mtime.
type fileState struct {
	sum   [32]byte
	mode  fs.FileMode
	mtime time.Time
}

func tree(t *testing.T, root string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		st := fileState{mode: info.Mode(), mtime: info.ModTime()}
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			st.sum = sha256.Sum256(data)
		}
		out[rel] = st
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t *testing.T, what string, before, after map[string]fileState) {
	t.Helper()
	var diffs []string
	for p, b := range before {
		a, ok := after[p]
		switch {
		case !ok:
			diffs = append(diffs, "removed "+p)
		case a.sum != b.sum:
			diffs = append(diffs, "rewrote "+p)
		case a.mode != b.mode:
			diffs = append(diffs, fmt.Sprintf("changed the mode of %s: %v -> %v", p, b.mode, a.mode))
		case !a.mtime.Equal(b.mtime):
			diffs = append(diffs, fmt.Sprintf("touched %s (same content, mtime %s)", p, a.mtime.Format(time.RFC3339Nano)))
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			diffs = append(diffs, "created "+p)
		}
	}
	sort.Strings(diffs)
	for _, d := range diffs {
		t.Errorf("%s: %s", what, d)
	}
}

// commandPaths are every command of the binary ("lint", "completion
// bash", ...), cobra's help and completion included.
func commandPaths() []string {
	var out []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			out = append(out, strings.TrimPrefix(sub.CommandPath(), "qoslint "))
			walk(sub)
		}
	}
	walk(newRoot(io.Discard, io.Discard))
	sort.Strings(out)
	return out
}

// child is one qoslint process; done closes when it has exited, with
// its exit code in code.
type child struct {
	cmd            *exec.Cmd
	stdout, stderr *syncBuffer
	done           chan struct{}
	code           int
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestNoCommandWritesAnUnnamedFile runs every command of the binary with
// its typical arguments, from a fabric repository's root that holds a file
// of every name qoslint knows, and asserts that none of them changed
// (content, mode, mtime) and that no file appeared there, in $HOME or in
// $TMPDIR: what a command writes goes only where its command line names
// (inside OUT, a separate folder, whose every entry is one of those names).
// The long-running ones (sim, serve) run until they are ready and are then
// interrupted, as a user would; audit, collect and serve run against the
// simulator started from that root.
func TestNoCommandWritesAnUnnamedFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every command as a process (-short)")
	}
	work, out, home, tmp := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	fixture.Copy(t, "../../../examples/broken-pod", work) // through the example's links
	for _, name := range userFiles {
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		text := "the user's own " + name + "\n"
		if name == waivers.FileName {
			text = "waivers:\n  - {check: host-tos, device: gpu02, reason: \"the user's own waiver\"}\n"
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// An old mtime: a rewrite with the same bytes still shows.
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	_ = filepath.WalkDir(work, func(p string, _ fs.DirEntry, _ error) error { return os.Chtimes(p, old, old) })
	before := tree(t, work)

	env := append(os.Environ(), asQoslint+"=1", "HOME="+home, "TMPDIR="+tmp, "NO_COLOR=1", "CI=1",
		app.SimPasswordEnv+"=the-test-password")
	ps := procs{t: t, dir: work, env: env}
	start, wait, until, interrupt := ps.start, ps.wait, ps.until, ps.interrupt
	// Whatever fails on the way, the folders are compared at the end.
	defer func() {
		sameTree(t, "the working directory", before, tree(t, work))
		for what, dir := range map[string]string{"$HOME": home, "$TMPDIR": tmp} {
			if ents, _ := os.ReadDir(dir); len(ents) > 0 {
				t.Errorf("%s holds %v after the commands", what, ents)
			}
		}
	}()

	o := func(name string) string { return filepath.Join(out, name) }
	simInv := o("sim/sim-inventory.yaml")
	pcap := filepath.Join("devices", "gpu04", "captures", "roce.pcap")
	type run struct {
		args []string
		code int
	}
	// Every command's typical command lines and their exit codes (the broken
	// pod has findings: 1). named are the entries of OUT they write.
	cases := map[string][]run{
		"lint": {{[]string{"lint", "."}, 1}, {[]string{"lint", ".", "--fix", "-f", "json"}, 1},
			{[]string{"lint", ".", "-f", "sarif", "-o", o("r.sarif")}, 1}, {[]string{"lint", "inventory.yaml", "-f", "junit", "-o", o("r.xml")}, 1},
			{[]string{"lint", ".", "-f", "html", "-o", o("report.html")}, 1}, {[]string{"lint", ".", "-f", "prometheus"}, 1}},
		"fix":        {{[]string{"fix", "."}, 0}, {[]string{"fix", ".", "--out", o("fixes"), "--preview", o("preview")}, 0}},
		"render":     {{[]string{"render", "--policy", "inventory.yaml", "--role", "leaf"}, 0}, {[]string{"render", "--policy", "inventory.yaml", "--role", "host", "--nics", "ens1f0np0"}, 0}},
		"explain":    {{[]string{"explain"}, 0}, {[]string{"explain", "host-tos"}, 0}, {[]string{"explain", "--format", "markdown"}, 0}},
		"trace":      {{[]string{"trace", "gpu01", "gpu02"}, 1}},
		"pcap":       {{[]string{"pcap", pcap, "--policy", "inventory.yaml"}, 1}},
		"tos":        {{[]string{"tos"}, 0}, {[]string{"tos", "106"}, 0}},
		"snapshot":   {{[]string{"snapshot", "."}, 0}, {[]string{"snapshot", ".", "-o", o("snapshot.json")}, 0}},
		"drift":      {{[]string{"drift", ".", "."}, 0}},
		"version":    {{[]string{"version"}, 0}},
		"help":       {{[]string{"help"}, 0}, {[]string{"help", "lint"}, 0}},
		"completion": {{[]string{"completion"}, 0}},
		"demo":       {{[]string{"demo", "clean-pod", "-f", "json"}, 0}},
		// Long-running or against the simulator: run below, in order.
		"sim": nil, "audit": nil, "collect": nil, "serve": nil,
	}
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		cases["completion "+sh] = []run{{[]string{"completion", sh}, 0}}
	}
	named := []string{"r.sarif", "r.xml", "report.html", "fixes", "preview", "snapshot.json", "sim", "capture", "state", "snap-drift.json"}

	var paths []string
	for p := range cases {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	if got := commandPaths(); !slices.Equal(got, paths) {
		t.Fatalf("the binary's commands are %v;\nthis test runs %v: give every new command its typical command lines here", got, paths)
	}
	for _, p := range paths {
		for _, r := range cases[p] {
			c := start(r.args...)
			if code := wait(c); code != r.code {
				t.Errorf("qoslint %s: exit %d, want %d\nstderr: %.2000s", strings.Join(r.args, " "), code, r.code, c.stderr)
			}
		}
	}
	// drift of a snapshot OUT holds against the folder.
	if c := start("drift", o("snapshot.json"), "."); wait(c) != 0 {
		t.Errorf("drift SNAPSHOT .: %s", c.stderr)
	}
	if c := start("snapshot", ".", "-o", o("snap-drift.json")); wait(c) != 0 {
		t.Errorf("snapshot: %s", c.stderr)
	}

	// sim with no --inventory-out: its own temporary folder, gone when it stops.
	s := start("sim", ".")
	if !until(s, "devices listening") {
		return
	}
	if code := interrupt(s); code != 0 {
		t.Errorf("sim .: exit %d\n%s", code, s.stderr)
	}
	if !strings.Contains(s.stderr.String(), "wrote the inventory and its known_hosts to the new folder "+tmp) {
		t.Errorf("sim . does not say where its inventory went:\n%s", s.stderr)
	}
	// sim --inventory-out, with everything it can write; then audit,
	// collect and serve against it.
	if err := os.Mkdir(o("sim"), 0o755); err != nil {
		t.Fatal(err)
	}
	s = start("sim", ".", "--inventory-out", simInv, "--topology", "--gnmi")
	if !until(s, "devices listening") {
		return
	}
	defer interrupt(s)
	for _, r := range []run{
		{[]string{"audit", "--inventory", simInv}, 1},
		{[]string{"audit", "--inventory", simInv, "--counters", "-f", "json"}, 1},
		{[]string{"collect", "--inventory", simInv, "--out", o("capture")}, 0},
	} {
		c := start(r.args...)
		if code := wait(c); code != r.code {
			t.Errorf("qoslint %s: exit %d, want %d\nstderr: %.2000s", strings.Join(r.args, " "), code, r.code, c.stderr)
		}
	}
	srv := start("serve", "--inventory", simInv, "--listen", "127.0.0.1:0", "--state-dir", o("state"), "--interval", "1h")
	if until(srv, "serving http://") {
		waitSnapshot(t, o("state"))
	}
	if code := interrupt(srv); code != 0 {
		t.Errorf("serve: exit %d\n%s", code, srv.stderr)
	}
	if code := interrupt(s); code != 0 {
		t.Errorf("sim --inventory-out: exit %d\n%s", code, s.stderr)
	}
	for _, f := range []string{"sim-inventory.yaml", "sim-inventory.known_hosts", sim.GNMICAFile, layout.TopologyFile} {
		if _, err := os.Stat(o("sim/" + f)); err != nil {
			t.Errorf("sim --inventory-out --topology --gnmi: %v", err)
		}
	}

	ents, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !slices.Contains(named, e.Name()) {
			t.Errorf("OUT holds %s, which no command line named", e.Name())
		}
	}
}

// waitSnapshot waits for serve's first run to keep its snapshot.
func waitSnapshot(t *testing.T, dir string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if ents, _ := os.ReadDir(dir); len(ents) > 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("serve kept no snapshot in %s within 60s", dir)
}
