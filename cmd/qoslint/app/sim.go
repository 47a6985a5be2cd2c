package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/examples"
)

// SimPasswordEnv is the variable the simulator's inventory names for its
// password.
const SimPasswordEnv = "QOSLINT_SIM_PASSWORD"

// SimOptions are `qoslint sim`'s settings.
type SimOptions struct {
	Dir     string
	Listen  string
	Latency time.Duration
	// InventoryOut is where the inventory goes (its known_hosts, and the
	// gNMI CA, beside it); "" is a new temporary folder, removed when
	// the simulator stops.
	InventoryOut string
	// Force replaces files that are already where the inventory, its
	// known_hosts, the CA or the cabling plan would go.
	Force bool
	// Topology copies the fabric's cabling plan beside the inventory,
	// where audit reads it.
	Topology bool
	Getenv   func(string) string
	// GNMI also serves gNMI on every switch, over TLS, and writes the CA
	// as sim.GNMICAFile beside the inventory.
	GNMI bool
}

// maxSimLatency is above any --command-timeout a user would set: a longer
// delay only makes every simulated device time out.
const maxSimLatency = time.Minute

// simFiles are the files startSim writes; every one is a file the user
// named (--inventory-out and what goes beside it) or one in a folder of
// its own, and none replaces another without force.
type simFiles struct {
	inventory string
	force     bool
	topology  bool // copy the fabric's cabling plan beside the inventory
	gnmi      bool // the CA of the switches' gNMI TLS
}

// knownHosts is the known_hosts file the inventory names, beside it.
func (s simFiles) knownHosts() string {
	base := strings.TrimSuffix(filepath.Base(s.inventory), filepath.Ext(s.inventory)) + ".known_hosts"
	return filepath.Join(filepath.Dir(s.inventory), base)
}

// paths are every file the simulator would write, in the order written.
func (s simFiles) paths(fabricDir string) []string {
	dir := filepath.Dir(s.inventory)
	var out []string
	if s.gnmi {
		out = append(out, filepath.Join(dir, sim.GNMICAFile))
	}
	out = append(out, s.knownHosts(), s.inventory)
	if s.topology {
		for _, name := range intentFiles {
			if _, err := os.Stat(filepath.Join(fabricDir, name)); err == nil {
				out = append(out, filepath.Join(dir, name))
			}
		}
	}
	return out
}

// check refuses, before anything listens, a file that would replace one
// already there (unless force) and one that is the served fabric's own
// inventory or cabling plan (even with force: it is the input).
func (s simFiles) check(fabricDir string) error {
	own := map[string]bool{}
	for _, name := range append([]string{"inventory.yaml", "inventory.hcl"}, intentFiles...) {
		if abs, err := filepath.Abs(filepath.Join(fabricDir, name)); err == nil {
			own[abs] = true
		}
	}
	for _, p := range s.paths(fabricDir) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		if own[abs] {
			return fmt.Errorf("%s is a file of the fabric being served: choose another --inventory-out", p)
		}
		st, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return err
		case st.IsDir():
			return fmt.Errorf("%s is a folder: --inventory-out names the inventory file", p)
		case !s.force:
			return fmt.Errorf("%s exists: --force replaces it, or choose another --inventory-out", p)
		}
	}
	return nil
}

// startSim starts the simulator on dir and writes its inventory (and the
// known_hosts file the inventory names, beside it).
func startSim(dir, listen string, latency time.Duration, password string, files simFiles) (*sim.Fabric, error) {
	if latency < 0 || latency > maxSimLatency {
		return nil, fmt.Errorf("--latency %v: between 0 and %v", latency, maxSimLatency)
	}
	if err := files.check(dir); err != nil {
		return nil, err
	}
	f, err := sim.Start(dir, sim.Options{Listen: listen, Latency: latency, User: "cumulus", Password: password, GNMI: files.gnmi, GNMITLS: files.gnmi})
	if err != nil {
		return nil, err
	}
	invDir := filepath.Dir(files.inventory)
	if files.gnmi {
		if err := os.WriteFile(filepath.Join(invDir, sim.GNMICAFile), f.GNMICAPEM(), 0o644); err != nil {
			_ = f.Close()
			return nil, err
		}
	}
	if err := os.WriteFile(files.knownHosts(), f.KnownHosts(), 0o644); err != nil {
		_ = f.Close()
		return nil, err
	}
	w, err := os.Create(files.inventory)
	if err == nil {
		err = f.WriteInventory(w, filepath.Base(files.knownHosts()), SimPasswordEnv)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil && files.topology {
		err = copyIntent(dir, invDir)
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// copyIntent puts the fabric directory's intent files (the cabling plan)
// beside an inventory, where audit reads them.
func copyIntent(fabricDir, invDir string) error {
	return copyOptional(fabricDir, invDir, intentFiles)
}

func newPassword() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Sim serves the fabric directory over SSH on loopback until ctx ends.
func Sim(ctx context.Context, out, errOut io.Writer, opt SimOptions) int {
	getenv := opt.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	password, generated := getenv(SimPasswordEnv), false
	if password == "" {
		password, generated = newPassword(), true
	}
	inv := opt.InventoryOut
	if inv == "" {
		// No file the user did not name: the inventory's folder is the
		// simulator's own, and goes when it stops (its ports go too).
		tmp, err := os.MkdirTemp("", "qoslint-sim-")
		if err != nil {
			fmt.Fprintf(errOut, "qoslint: sim: %v\n", err)
			return ExitInput
		}
		defer os.RemoveAll(tmp)
		inv = filepath.Join(tmp, "sim-inventory.yaml")
	}
	files := simFiles{inventory: inv, force: opt.Force, topology: opt.Topology, gnmi: opt.GNMI}
	f, err := startSim(opt.Dir, opt.Listen, opt.Latency, password, files)
	if err != nil {
		fmt.Fprintf(errOut, "qoslint: sim: %v\n", err)
		return ExitInput
	}
	defer f.Close()
	if opt.InventoryOut == "" {
		fmt.Fprintf(errOut, "qoslint: sim: wrote the inventory and its known_hosts to the new folder %s (removed when sim stops; --inventory-out PATH writes them elsewhere)\n", filepath.Dir(inv))
	} else {
		fmt.Fprintf(errOut, "qoslint: sim: wrote %s\n", strings.Join(files.paths(opt.Dir), ", "))
	}
	if !opt.Topology {
		for _, name := range intentFiles {
			if _, err := os.Stat(filepath.Join(opt.Dir, name)); err == nil {
				fmt.Fprintf(errOut, "qoslint: sim: %s is not copied beside the inventory, so audit does not check the cabling: --topology copies it\n", filepath.Join(opt.Dir, name))
			}
		}
	}
	for _, d := range f.Devices() {
		fmt.Fprintf(out, "%-8s %-12s ssh -p %d cumulus@%s\n", d.Kind, d.Name, d.Port, strings.Split(d.Addr, ":")[0])
	}
	fmt.Fprintf(out, "\n%d devices listening; inventory: %s\n", len(f.Devices()), inv)
	if generated {
		// The simulator's own throwaway password, so the user can log in.
		fmt.Fprintf(out, "export %s=%s\n", SimPasswordEnv, password)
	} else {
		fmt.Fprintf(out, "password: from $%s\n", SimPasswordEnv)
	}
	if opt.GNMI {
		for _, d := range f.Devices() {
			if d.GNMIAddr != "" {
				fmt.Fprintf(out, "gnmi     %-12s %s (TLS, CA %s)\n", d.Name, d.GNMIAddr, sim.GNMICAFile)
			}
		}
		fmt.Fprintf(out, "then: qoslint audit --counters --inventory %s\n(interrupt to stop)\n", inv)
	} else {
		fmt.Fprintf(out, "then: qoslint audit --inventory %s\n(interrupt to stop)\n", inv)
	}
	<-ctx.Done()
	return ExitOK
}

// DemoOptions are `qoslint demo`'s settings.
type DemoOptions struct {
	Fabric   string // a shipped example: broken-pod or clean-pod
	Latency  time.Duration
	Format   string
	Progress io.Writer
	// FailOn is the lowest severity that makes the exit code 1; zero
	// means error, lint's default.
	FailOn judge.Severity
	Style  Style

	// Outputs, when set, are the reports to write (-f FORMAT[=PATH]);
	// Format is then unused.
	Outputs []Output
	// PathPrefix is --path-prefix (LintOptions.PathPrefix); "" leaves the
	// sarif format's URIs relative to the example's folder.
	PathPrefix string
}

// Demo runs a whole live audit of a shipped example: it extracts the
// fabric, serves it with the simulator on loopback and audits it over SSH.
func Demo(ctx context.Context, out, errOut io.Writer, opt DemoOptions) int {
	if _, err := pathPrefix(opt.PathPrefix, "", false); err != nil {
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return ExitInput
	}
	ss, ok := sinks(errOut, opt.Format, opt.Outputs)
	if !ok {
		return ExitInput
	}
	if opt.FailOn == 0 {
		opt.FailOn = judge.Error
	}
	start := now()
	// Even the demo's own set-up failing leaves every asked-for report.
	failed := func(err error) int {
		return failedRun(out, errOut, fmt.Errorf("demo: %w", err), ss, opt.FailOn, opt.Style, start, "")
	}
	tmp, err := os.MkdirTemp("", "qoslint-demo-")
	if err != nil {
		return failed(err)
	}
	defer os.RemoveAll(tmp)
	dir, err := examples.Extract(opt.Fabric, tmp)
	if err != nil {
		return failed(fmt.Errorf("no shipped fabric %q (one of %v)", opt.Fabric, examples.Names()))
	}
	password := newPassword()
	invPath := filepath.Join(tmp, "sim-inventory.yaml")
	f, err := startSim(dir, "127.0.0.1", opt.Latency, password, simFiles{inventory: invPath, topology: true, gnmi: true})
	if err != nil {
		return failed(err)
	}
	defer f.Close()
	fmt.Fprintf(errOut, "qoslint demo: %d simulated devices of %s on 127.0.0.1, auditing over SSH\n", len(f.Devices()), opt.Fabric)
	return Audit(ctx, out, errOut, AuditOptions{
		LiveOptions: LiveOptions{
			Inventory: invPath, Progress: opt.Progress, Counters: true,
			Getenv: func(k string) string {
				if k == SimPasswordEnv {
					return password
				}
				return os.Getenv(k)
			},
		},
		Format: opt.Format, Outputs: opt.Outputs, FailOn: opt.FailOn, Style: opt.Style,
		PathPrefix: opt.PathPrefix, noRepo: true,
	})
}
