package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/live"
	"github.com/qoslint/qoslint/collectors/sim"
)

// hugeOutputBytes is what each of the four devices prints.
const hugeOutputBytes = 200_000_000

// memChildEnv carries the inventory to the child process that audits.
const memChildEnv = "QOSLINT_MEM_CHILD_INVENTORY"

// TestAuditHugeOutputMemory: four switches each print 200 MB for `nv
// config show -o yaml`. With the default --max-output (64 MiB) and the
// default 32 workers, each fails with the cause "output over --max-output
// 67108864 bytes", a fifth, ordinary switch is still collected, and the
// audit's peak RSS (VmHWM of a child process that runs only the audit; the
// simulator runs in this one and streams the file from disk) stays under
// 512 MiB.
func TestAuditHugeOutputMemory(t *testing.T) {
	if inv := os.Getenv(memChildEnv); inv != "" {
		auditChild(t, inv)
		return
	}
	if testing.Short() {
		t.Skip("writes a 200 MB file and streams it four times over SSH")
	}
	dir := hugeFabric(t)
	f, err := sim.Start(dir, sim.Options{User: "cumulus", Password: testPassword})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	inv := writeSimInventory(t, f)

	start := time.Now()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestAuditHugeOutputMemory$", "-test.count=1")
	cmd.Env = append(os.Environ(), memChildEnv+"="+inv)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	var res memResult
	line := out[bytes.Index(out, []byte("MEMRESULT "))+len("MEMRESULT "):]
	if err := json.Unmarshal(line[:bytes.IndexByte(line, '\n')], &res); err != nil {
		t.Fatalf("child said %s: %v", out, err)
	}
	t.Logf("audit of 4 × %d MB: %v, peak RSS %d MiB, exit %d", hugeOutputBytes/1_000_000, time.Since(start).Round(time.Millisecond), res.PeakRSS>>20, res.Code)
	if res.Code != ExitIncomplete {
		t.Errorf("exit %d, want %d", res.Code, ExitIncomplete)
	}
	want := fmt.Sprintf("`nv config show -o yaml`: output over --max-output %d bytes", live.DefaultMaxOutput)
	// Each huge switch is one input error with its cause; leaf01 is none.
	if n, all := strings.Count(res.Report, "not audited: "+want), strings.Count(res.Report, "not audited"); n != 4 || all != 4 {
		t.Errorf("%d devices failed over --max-output, %d not audited in all; want 4 and 4:\n%s", n, all, res.Report)
	}
	if res.PeakRSS <= 0 || res.PeakRSS >= 512<<20 {
		t.Errorf("peak RSS %d MiB, want under 512 MiB", res.PeakRSS>>20)
	}
}

type memResult struct {
	Code    int
	PeakRSS int64
	Report  string
}

// auditChild runs the whole audit (collection, lint, report) with the
// default workers and --max-output and prints what the parent checks.
func auditChild(t *testing.T, inv string) {
	opt := liveOpts(inv)
	opt.Workers, opt.MaxOutput = 32, 0 // the CLI's default workers; live's default limit
	opt.CommandTimeout, opt.DeviceTimeout = time.Minute, 5*time.Minute
	var out, errOut bytes.Buffer
	code := Audit(context.Background(), &out, &errOut, AuditOptions{LiveOptions: opt, Format: "json", FailOn: judge.Error})
	b, err := json.Marshal(memResult{Code: code, PeakRSS: peakRSS(), Report: out.String() + errOut.String()})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("MEMRESULT %s\n", b)
}

// hugeFabric is four switches whose nv-config.yaml is one 200 MB file
// (hard links, so it is written once) and leaf01 of the clean pod.
func hugeFabric(t *testing.T) string {
	dir := t.TempDir()
	big := filepath.Join(dir, "huge.yaml")
	fh, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(fh, 1<<20)
	_, _ = w.WriteString("- set:\n    interface:\n")
	for i, n := 0, 0; n < hugeOutputBytes; i++ {
		k, _ := fmt.Fprintf(w, "      swp%d:\n        description: 'rail %d port %d'\n", i, i%8, i)
		n += k
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := fh.Close(); err != nil {
		t.Fatal(err)
	}
	var inv strings.Builder
	inv.WriteString("fabric: huge\nswitches:\n  - {name: leaf01, role: leaf, address: 192.0.2.11}\n")
	copyTree(t, "../../../examples/clean-pod/devices/leaf01", filepath.Join(dir, "devices", "leaf01"))
	for i := range 4 {
		name := fmt.Sprintf("huge%d", i)
		fmt.Fprintf(&inv, "  - {name: %s, role: leaf, address: 192.0.2.%d}\n", name, 20+i)
		d := filepath.Join(dir, "devices", name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(big, filepath.Join(d, "nv-config.yaml")); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "inventory.yaml"), []byte(inv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
