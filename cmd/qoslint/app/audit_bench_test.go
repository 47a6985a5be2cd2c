package app

import (
	"bytes"
	"context"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/sim"
)

// BenchmarkAuditScale audits a 1,000-device simulated fabric (200 switches,
// 800 hosts with two NICs) with 200 ms injected before every answer, and
// reports the bound: the audit must take at most 1.5 × (slowest
// single device) × ceil(devices / workers). Run it with
//
//	go test -run '^$' -bench BenchmarkAuditScale -benchtime 1x ./app
//
// QOSLINT_SCALE_DEVICES and QOSLINT_SCALE_WORKERS change the size.
func BenchmarkAuditScale(b *testing.B) {
	devices, workers := envInt("QOSLINT_SCALE_DEVICES", 1000), envInt("QOSLINT_SCALE_WORKERS", 100)
	const latency = 200 * time.Millisecond
	dir := largeFabric(b, devices/5, devices-devices/5)
	f, err := sim.Start(dir, sim.Options{User: "cumulus", Password: testPassword, Latency: latency})
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	inv := writeSimInventory(b, f)

	// The slowest single device: audit each kind alone, keep the longest.
	slowest := time.Duration(0)
	for _, name := range []string{"leaf0000", "gpu0000"} {
		one := onlyDevice(b, inv, name)
		start := time.Now()
		var out, errOut bytes.Buffer
		opt := liveOpts(one)
		if code := Audit(context.Background(), &out, &errOut, AuditOptions{LiveOptions: opt, Format: "json", FailOn: judge.Error}); code != ExitOK {
			b.Fatalf("%s: exit %d: %s", name, code, errOut.String())
		}
		slowest = max(slowest, time.Since(start))
	}
	bound := time.Duration(1.5 * float64(slowest) * math.Ceil(float64(devices)/float64(workers)))

	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var out, errOut bytes.Buffer
		opt := liveOpts(inv)
		opt.Workers, opt.CommandTimeout, opt.DeviceTimeout = workers, 30*time.Second, 5*time.Minute
		start := time.Now()
		code := Audit(context.Background(), &out, &errOut, AuditOptions{LiveOptions: opt, Format: "json", FailOn: judge.Error})
		took := time.Since(start)
		if code != ExitOK {
			b.Fatalf("exit %d: %.2000s", code, errOut.String())
		}
		b.ReportMetric(took.Seconds(), "audit-s")
		b.ReportMetric(slowest.Seconds(), "slowest-device-s")
		b.ReportMetric(bound.Seconds(), "bound-s")
		b.ReportMetric(float64(peakRSS())/(1<<20), "peak-RSS-MiB")
		if took > bound {
			b.Errorf("audit took %v, over the bound %v", took, bound)
		}
	}
}

func envInt(k string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil && v > 0 {
		return v
	}
	return def
}

func writeSimInventory(tb testing.TB, f *sim.Fabric) string {
	tb.Helper()
	tmp := tb.TempDir()
	if err := os.WriteFile(tmp+"/sim.known_hosts", f.KnownHosts(), 0o644); err != nil {
		tb.Fatal(err)
	}
	var inv bytes.Buffer
	if err := f.WriteInventory(&inv, "sim.known_hosts", SimPasswordEnv); err != nil {
		tb.Fatal(err)
	}
	p := tmp + "/inventory.yaml"
	if err := os.WriteFile(p, inv.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// onlyDevice writes a copy of the inventory that keeps one device.
func onlyDevice(tb testing.TB, invPath, name string) string {
	tb.Helper()
	data, err := os.ReadFile(invPath)
	if err != nil {
		tb.Fatal(err)
	}
	// WriteInventory writes one "  - name: X" block per device.
	var keep []string
	drop := false
	for _, l := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(l, "  - name: "):
			drop = strings.TrimPrefix(l, "  - name: ") != name
		case !strings.HasPrefix(l, "    "):
			drop = false
		}
		if !drop {
			keep = append(keep, l)
		}
	}
	p := strings.TrimSuffix(invPath, ".yaml") + "-" + name + ".yaml"
	if err := os.WriteFile(p, []byte(strings.Join(keep, "\n")), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// peakRSS is the process's peak resident set (VmHWM), which includes the
// simulator serving in the same process; 0 where /proc is not available.
func peakRSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.Sys)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
