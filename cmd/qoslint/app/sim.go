package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/examples"
)

// SimPasswordEnv is the variable the simulator's inventory names for its
// password.
const SimPasswordEnv = "QOSLINT_SIM_PASSWORD"

// SimOptions are `qoslint sim`'s settings.
type SimOptions struct {
	Dir          string
	Listen       string
	Latency      time.Duration
	InventoryOut string
	Getenv       func(string) string
	// GNMI also serves gNMI on every switch, over TLS, and writes the CA
	// as sim.GNMICAFile beside the inventory.
	GNMI bool
}

// maxSimLatency is above any --command-timeout a user would set: a longer
// delay only makes every simulated device time out.
const maxSimLatency = time.Minute

// startSim starts the simulator on dir and writes its inventory (and the
// known_hosts file the inventory names, beside it).
func startSim(dir, listen string, latency time.Duration, password, inventoryOut string, gnmi bool) (*sim.Fabric, error) {
	if latency < 0 || latency > maxSimLatency {
		return nil, fmt.Errorf("--latency %v: between 0 and %v", latency, maxSimLatency)
	}
	f, err := sim.Start(dir, sim.Options{Listen: listen, Latency: latency, User: "cumulus", Password: password, GNMI: gnmi, GNMITLS: gnmi})
	if err != nil {
		return nil, err
	}
	if gnmi {
		if err := os.WriteFile(filepath.Join(filepath.Dir(inventoryOut), sim.GNMICAFile), f.GNMICAPEM(), 0o644); err != nil {
			_ = f.Close()
			return nil, err
		}
	}
	khName := strings.TrimSuffix(filepath.Base(inventoryOut), filepath.Ext(inventoryOut)) + ".known_hosts"
	khPath := filepath.Join(filepath.Dir(inventoryOut), khName)
	if err := os.WriteFile(khPath, f.KnownHosts(), 0o644); err != nil {
		_ = f.Close()
		return nil, err
	}
	w, err := os.Create(inventoryOut)
	if err == nil {
		err = f.WriteInventory(w, khName, SimPasswordEnv)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil {
		err = copyIntent(dir, filepath.Dir(inventoryOut))
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
	f, err := startSim(opt.Dir, opt.Listen, opt.Latency, password, opt.InventoryOut, opt.GNMI)
	if err != nil {
		fmt.Fprintf(errOut, "qoslint: sim: %v\n", err)
		return ExitInput
	}
	defer f.Close()
	for _, d := range f.Devices() {
		fmt.Fprintf(out, "%-8s %-12s ssh -p %d cumulus@%s\n", d.Kind, d.Name, d.Port, strings.Split(d.Addr, ":")[0])
	}
	fmt.Fprintf(out, "\n%d devices listening; inventory: %s\n", len(f.Devices()), opt.InventoryOut)
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
		fmt.Fprintf(out, "then: qoslint audit --counters --inventory %s\n(interrupt to stop)\n", opt.InventoryOut)
	} else {
		fmt.Fprintf(out, "then: qoslint audit --inventory %s\n(interrupt to stop)\n", opt.InventoryOut)
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
	FailOn checks.Severity
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
		opt.FailOn = checks.Error
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
	f, err := startSim(dir, "127.0.0.1", opt.Latency, password, invPath, true)
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
