package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/fabric"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
)

// Issue 23's scale target: "lint of 10k generated devices within 1.2× of
// reading their files raw and under 400 MiB peak". The full case writes
// 375,233 files (396 MB), so it runs only when asked:
//
//	QOSLINT_SCALE=10496 go test -run '^TestLintScale$' -v -timeout 30m ./cmd/qoslint/app
//
// QOSLINT_SCALE_PROFILE=dir also writes, from the child, heap.capture+model
// (in use after GC with the model built and the capture it was built from
// still reachable, as buildReport holds both while the checks run) and
// heap.model (the capture dropped), both of a separate collection before
// the measured lint (so its peak RSS then counts both); cpu.pprof (the
// measured lint) and heap-end.pprof (after the report is built; its
// alloc_space covers both builds).
const (
	scaleEnv        = "QOSLINT_SCALE"
	scaleProfileEnv = "QOSLINT_SCALE_PROFILE"
	scaleChildEnv   = "QOSLINT_SCALE_CHILD_DIR"
	// scaleCI is the size run without the variable: it runs every code path
	// of the measurement and asserts nothing about time or memory.
	scaleCI = 200
	// The issue's bounds, checked only at the issue's size.
	scaleRatioMax = 1.2
	scalePeakMax  = 400 << 20
	scaleIssueN   = 10_496
	// scaleRounds are the alternations of raw read and lint measured.
	scaleRounds = 3
)

type scaleResult struct {
	Devices, Findings, Errors int
	LintNS                    int64
	PeakRSS                   int64
}

// TestLintScale generates a fabric of N devices (half switches, half hosts,
// as clean-pod's four and four; each a copy of a clean-pod device under a
// new name), lints it in this process (the report must be clean), and
// measures reading every file raw against a child process that only lints
// (its time and peak RSS, VmHWM), best of scaleRounds.
func TestLintScale(t *testing.T) {
	if dir := os.Getenv(scaleChildEnv); dir != "" {
		scaleChild(t, dir)
		return
	}
	n := envInt(scaleEnv, scaleCI)
	start := time.Now()
	dir := largeFabric(t, n/2, n-n/2)
	t.Logf("generated %d devices in %v", n, time.Since(start).Round(time.Millisecond))

	// The first pass warms the page cache, so that every measure below
	// reads from memory and compares the work, not the disk.
	files, size := readRaw(t, dir)

	start = time.Now()
	r, err := BuildReport(dir, judge.Error)
	inProcess := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Devices) != n || len(r.Findings) != 0 || len(r.Errors) != 0 {
		t.Fatalf("%d devices, %d findings, %d errors; want %d clean devices", len(r.Devices), len(r.Findings), len(r.Errors), n)
	}
	r = nil
	runtime.GC()

	// The lint measured is `qoslint lint`'s: a process of its own (the
	// child), whose peak RSS is the lint's alone. This machine's timings
	// vary by a fifth from run to run, so raw read and lint alternate,
	// and the best of each is compared.
	var raw, lint time.Duration
	var peak int64
	for range scaleRounds {
		start = time.Now()
		readRaw(t, dir)
		raw = minDuration(raw, time.Since(start))
		child := scaleInChild(t, dir)
		if child.Devices != n || child.Findings != 0 || child.Errors != 0 {
			t.Fatalf("child: %d devices, %d findings, %d errors; want %d clean devices", child.Devices, child.Findings, child.Errors, n)
		}
		lint = minDuration(lint, time.Duration(child.LintNS))
		peak = max(peak, child.PeakRSS)
	}
	ratio := float64(lint) / float64(raw)
	t.Logf("%d devices, %d files, %d bytes: raw read %v, lint %v (%.2f×), best of %d; peak RSS %d MiB; lint in this process %v",
		n, files, size, raw.Round(time.Millisecond), lint.Round(time.Millisecond), ratio, scaleRounds, peak>>20, inProcess.Round(time.Millisecond))
	if n < scaleIssueN {
		return
	}
	// The issue's done-criterion: at its size this fails until the model
	// lets raw files and parse trees go.
	if ratio > scaleRatioMax {
		t.Errorf("over the issue's bound: lint %.2f× raw read, want at most %.1f×", ratio, scaleRatioMax)
	}
	if peak > scalePeakMax {
		t.Errorf("over the issue's bound: peak RSS %d MiB, want under %d MiB", peak>>20, scalePeakMax>>20)
	}
}

// minDuration is the shorter of a and b, b when a is unset.
func minDuration(a, b time.Duration) time.Duration {
	if a == 0 || b < a {
		return b
	}
	return a
}

// readRaw reads every regular file under dir with os.ReadFile: the baseline
// a lint must stay near.
func readRaw(t *testing.T, dir string) (files int, size int64) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		files++
		size += int64(len(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, size
}

// scaleInChild lints dir in a child process, so that its VmHWM is the
// lint's alone and not the generator's or this process's.
func scaleInChild(t *testing.T, dir string) scaleResult {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run", "^TestLintScale$", "-test.count=1")
	cmd.Env = append(os.Environ(), scaleChildEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	i := bytes.Index(out, []byte("SCALERESULT "))
	if i < 0 {
		t.Fatalf("child said no result:\n%s", out)
	}
	line := out[i+len("SCALERESULT "):]
	if j := bytes.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	var res scaleResult
	if err := json.Unmarshal(line, &res); err != nil {
		t.Fatalf("child said %s: %v", out, err)
	}
	return res
}

// scaleChild lints dir once, as `qoslint lint` does, and prints what the
// parent reads. With QOSLINT_SCALE_PROFILE it profiles the same run.
func scaleChild(t *testing.T, dir string) {
	prof := os.Getenv(scaleProfileEnv)
	if prof != "" {
		heapAfterModel(t, dir, filepath.Join(prof, "heap"))
		f, err := os.Create(filepath.Join(prof, "cpu.pprof"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	r, err := BuildReport(dir, judge.Error)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if prof != "" {
		pprof.StopCPUProfile()
		writeHeap(t, filepath.Join(prof, "heap-end.pprof"))
	}
	res := scaleResult{Devices: len(r.Devices), Findings: len(r.Findings), Errors: len(r.Errors), LintNS: took.Nanoseconds(), PeakRSS: peakRSS()}
	runtime.KeepAlive(r)
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("SCALERESULT %s\n", b)
}

// heapAfterModel runs buildReport's first steps (inventory, collection,
// model) and writes the heap in use with both the capture and the model
// reachable, as they are while buildReport runs the checks: what the
// capture keeps beside the model is what the model could let go. It runs
// before the measured lint, so the peak RSS includes it when profiling.
func heapAfterModel(t *testing.T, dir, file string) {
	inv, err := inventory.Load(FabricDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	// As buildReport: each device built as it is read, the capture
	// trimmed to what the steps that span devices read.
	b := fabric.NewBuilder(inv)
	capture := offline.CollectTo(FabricDir(dir), inv, b)
	fab := b.Build(capture)
	writeHeap(t, file+".capture+model")
	runtime.KeepAlive(capture)
	// Without the capture: what the model alone keeps of the parse trees.
	writeHeap(t, file+".model")
	runtime.KeepAlive(fab)
}

func writeHeap(t *testing.T, file string) {
	runtime.GC()
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		t.Fatal(err)
	}
}
