package commands

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/cmd/qoslint/app"
)

// liveDocs runs the docs' `# live:` lines as a user would: against a
// simulator of examples/clean-pod standing in for "the devices", whose
// inventory (with its known_hosts and gNMI CA) every doc folder gets as
// inventory.yaml. sim lines serve until the doc's last line has run;
// serve lines run until their first audit is done and are interrupted.
// The one change made to a line is --listen 127.0.0.1:0 on serve, so that
// a test never takes a port another program holds.
type liveDocs struct {
	t      *testing.T
	env    []string
	shared string // the stand-in simulator's inventory folder
	sim    *child
}

func startLiveDocs(t *testing.T, work string) *liveDocs {
	t.Helper()
	lv := &liveDocs{t: t, shared: filepath.Join(work, "devices-sim"),
		env: append(os.Environ(), asQoslint+"=1", "NO_COLOR=1", "CI=1", app.SimPasswordEnv+"=the-docs-password")}
	if err := os.Mkdir(lv.shared, 0o755); err != nil {
		t.Fatal(err)
	}
	p := lv.procs(work)
	lv.sim = p.start("sim", filepath.Join(work, "examples", "clean-pod"), "--inventory-out", filepath.Join(lv.shared, "inventory.yaml"), "--gnmi")
	if !p.until(lv.sim, "devices listening") {
		t.FailNow()
	}
	return lv
}

func (lv *liveDocs) procs(dir string) procs { return procs{t: lv.t, dir: dir, env: lv.env} }

// prepare puts the stand-in's inventory and what it names into dir.
func (lv *liveDocs) prepare(dir string) {
	ents, err := os.ReadDir(lv.shared)
	if err != nil {
		lv.t.Fatal(err)
	}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(lv.shared, e.Name()))
		if err != nil {
			lv.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o600); err != nil {
			lv.t.Fatal(err)
		}
	}
}

// run runs one live line in dir and holds it to its exit code; a sim line
// is returned still serving.
func (lv *liveDocs) run(dir string, c docCommand) *child {
	p := lv.procs(dir)
	args := slices.Clone(c.args)
	for _, a := range args {
		// An output folder the doc names exists, as it would for a user
		// who created it.
		if strings.HasSuffix(a, "/inventory.yaml") {
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(a)), 0o755); err != nil {
				lv.t.Fatal(err)
			}
		}
	}
	switch args[0] {
	case "sim":
		s := p.start(args...)
		if !p.until(s, "devices listening") {
			return nil
		}
		return s
	case "serve":
		if !slices.Contains(args, "--listen") {
			args = append(args, "--listen", "127.0.0.1:0")
		}
		s := p.start(args...)
		if p.until(s, "serving http://") {
			waitSnapshot(lv.t, filepath.Join(dir, "qoslint-state"))
		}
		if code := p.interrupt(s); code != c.exit {
			lv.t.Errorf("%s: qoslint %s: exit %d when interrupted, the doc implies %d\n%.2000s", c.where, strings.Join(args, " "), code, c.exit, s.stderr)
		}
		return nil
	}
	r := p.start(args...)
	if code := p.wait(r); code != c.exit {
		lv.t.Errorf("%s: qoslint %s: exit %d, the doc implies %d (annotate `# exit N`)\n%.2000s", c.where, strings.Join(args, " "), code, c.exit, r.stderr)
	}
	return nil
}

func (lv *liveDocs) stop() {
	if code := lv.procs("").interrupt(lv.sim); code != 0 {
		lv.t.Errorf("the docs' simulator: exit %d\n%s", code, lv.sim.stderr)
	}
}
