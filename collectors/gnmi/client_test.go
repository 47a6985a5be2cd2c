package gnmi_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/qoslint/qoslint/collectors/gnmi"
	"github.com/qoslint/qoslint/collectors/gnmifile"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/layout"
)

var update = flag.Bool("update", false, "rewrite testdata/golden files")

const (
	pod      = "../../examples/clean-pod"
	password = "gnmi-test-secret"
	timeout  = 3 * time.Second
)

func startFabric(t *testing.T, opt sim.Options) *sim.Fabric {
	t.Helper()
	opt.GNMI = true
	if opt.Password == "" {
		opt.Password = password
	}
	f, err := sim.Start(pod, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	return f
}

func target(t *testing.T, f *sim.Fabric, name string) gnmi.Target {
	t.Helper()
	for _, d := range f.Devices() {
		if d.Name == name {
			if d.GNMIAddr == "" {
				t.Fatalf("%s has no gNMI address", name)
			}
			return gnmi.Target{Name: name, Addr: d.GNMIAddr, Username: sim.DefaultUser, Password: password, Timeout: timeout}
		}
	}
	t.Fatalf("no device %s", name)
	return gnmi.Target{}
}

func collect(t *testing.T, tg gnmi.Target) []byte {
	t.Helper()
	data, err := gnmi.Collect(context.Background(), tg)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func parse(t *testing.T, data []byte) *gnmifile.Counters {
	t.Helper()
	c, err := gnmifile.ParseCounters("devices/leaf01/"+layout.GNMIFile, data)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// checkBaseline asserts the simulator's synthetic shape: swp1..4 with
// queues 0, 3, 6 and priorities 0..7, RoCE traffic on 3.
func checkBaseline(t *testing.T, c *gnmifile.Counters) {
	t.Helper()
	if len(c.Queues) != 12 || len(c.Priorities) != 32 {
		t.Fatalf("got %d queues, %d priorities; want 12, 32", len(c.Queues), len(c.Priorities))
	}
	q3 := c.Queues[gnmifile.IfQueue{Interface: "swp1", Queue: "3"}]
	if q3.TransmitPkts == 0 || q3.TransmitOctets <= q3.TransmitPkts || q3.ECNMarkedPkts == 0 {
		t.Errorf("swp1 queue 3 = %+v, want RoCE traffic with ECN marks", q3)
	}
	p3 := c.Priorities[gnmifile.IfPrio{Interface: "swp1", Priority: 3}]
	if p3.InPausePkts == 0 || p3.OutPausePkts == 0 || p3.InPauseDuration == 0 {
		t.Errorf("swp1 priority 3 = %+v, want pause frames", p3)
	}
	if p0 := c.Priorities[gnmifile.IfPrio{Interface: "swp1", Priority: 0}]; p0.InPausePkts != 0 {
		t.Errorf("swp1 priority 0 pauses: %+v", p0)
	}
	if q3.Pos.File == "" || q3.Pos.Line < 2 {
		t.Errorf("queue position %+v", q3.Pos)
	}
}

func TestCollectPlaintextRoundTripAndGolden(t *testing.T) {
	f := startFabric(t, sim.Options{})
	tg := target(t, f, "leaf01")
	a, b := collect(t, tg), collect(t, tg)
	if string(a) != string(b) {
		t.Fatal("two collections of an unchanged switch differ")
	}
	checkBaseline(t, parse(t, a))

	golden := filepath.Join("testdata", "leaf01-"+layout.GNMIFile)
	if *update || os.Getenv("QOSLINT_UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(golden, a, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(want) {
		t.Errorf("output differs from %s (go test -update to accept):\n%s", golden, a)
	}
}

func TestAdvanceGrowsCounters(t *testing.T) {
	f := startFabric(t, sim.Options{})
	tg := target(t, f, "leaf02")
	before := parse(t, collect(t, tg))
	f.Advance()
	after := parse(t, collect(t, tg))
	k := gnmifile.IfQueue{Interface: "swp2", Queue: "3"}
	if d := after.Queues[k].TransmitPkts - before.Queues[k].TransmitPkts; d != 1000 {
		t.Errorf("transmit-pkts grew by %d, want 1000", d)
	}
	if after.Queues[k].ECNMarkedPkts != before.Queues[k].ECNMarkedPkts {
		t.Error("ecn-marked-pkts moved; only pause and transmit counters should")
	}
	p := gnmifile.IfPrio{Interface: "swp2", Priority: 3}
	if d := after.Priorities[p].OutPausePkts - before.Priorities[p].OutPausePkts; d != 20 {
		t.Errorf("out-pause-pkts grew by %d, want 20", d)
	}
}

func TestCollectTLS(t *testing.T) {
	f := startFabric(t, sim.Options{GNMITLS: true})
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(f.GNMICAPEM()) {
		t.Fatal("bad CA PEM")
	}
	tg := target(t, f, "spine01")

	verified := tg
	verified.TLS = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	checkBaseline(t, parse(t, collect(t, verified)))

	skip := tg
	skip.TLS = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // the opt-out under test
	checkBaseline(t, parse(t, collect(t, skip)))

	untrusted := tg
	untrusted.TLS = &tls.Config{RootCAs: x509.NewCertPool(), MinVersion: tls.VersionTLS12}
	_, err := gnmi.Collect(context.Background(), untrusted)
	if err == nil || !strings.Contains(err.Error(), "spine01") || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("untrusted CA: err = %v, want a certificate error naming spine01", err)
	}

	plain := tg // plaintext client, TLS server
	plain.Timeout = time.Second
	if _, err := gnmi.Collect(context.Background(), plain); err == nil {
		t.Error("plaintext client against a TLS server succeeded")
	}
}

func TestWrongPassword(t *testing.T) {
	f := startFabric(t, sim.Options{})
	tg := target(t, f, "leaf01")
	tg.Password = "wrong-password-xyz"
	_, err := gnmi.Collect(context.Background(), tg)
	if err == nil {
		t.Fatal("wrong password accepted")
	}
	if status.Code(err) != codes.Unauthenticated {
		t.Errorf("code %v, want Unauthenticated (%v)", status.Code(err), err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "authentication failed") || !strings.Contains(msg, "leaf01") {
		t.Errorf("err = %q", msg)
	}
	if strings.Contains(msg, tg.Password) {
		t.Errorf("error shows the password: %q", msg)
	}
	for _, form := range []string{fmt.Sprintf("%v", tg), fmt.Sprintf("%+v", tg), fmt.Sprintf("%#v", tg)} {
		if strings.Contains(form, tg.Password) || !strings.Contains(form, "leaf01") {
			t.Errorf("Target formats as %q", form)
		}
	}
	var ge *gnmi.Error
	if !errors.As(err, &ge) || ge.Device != "leaf01" {
		t.Errorf("not a *gnmi.Error for leaf01: %#v", err)
	}
}

func TestOnceUnimplementedFallsBackToStream(t *testing.T) {
	plain := startFabric(t, sim.Options{})
	want := collect(t, target(t, plain, "leaf01"))

	f := startFabric(t, sim.Options{Faults: map[string]sim.Fault{"leaf01": {GNMIOnceUnimplemented: true}}})
	got := collect(t, target(t, f, "leaf01"))
	if string(got) != string(want) {
		t.Error("STREAM fallback gave different data than ONCE")
	}
	checkBaseline(t, parse(t, got))
}

func TestNoSyncTimesOut(t *testing.T) {
	for _, fault := range []sim.Fault{
		{GNMINoSync: true},
		{GNMINoSync: true, GNMIOnceUnimplemented: true}, // through the STREAM fallback
	} {
		f := startFabric(t, sim.Options{Faults: map[string]sim.Fault{"leaf01": fault}})
		tg := target(t, f, "leaf01")
		tg.Timeout = 300 * time.Millisecond
		start := time.Now()
		_, err := gnmi.Collect(context.Background(), tg)
		if err == nil {
			t.Fatal("no error without sync_response")
		}
		if !strings.Contains(err.Error(), "no sync_response within 300ms") || !strings.Contains(err.Error(), "leaf01") {
			t.Errorf("err = %v", err)
		}
		if status.Code(err) != codes.DeadlineExceeded {
			t.Errorf("code %v, want DeadlineExceeded", status.Code(err))
		}
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("took %v with a 300ms timeout", el)
		}
	}
}

func TestStreamCutMidway(t *testing.T) {
	f := startFabric(t, sim.Options{Faults: map[string]sim.Fault{"leaf02": {GNMICutAfter: 5}}})
	_, err := gnmi.Collect(context.Background(), target(t, f, "leaf02"))
	if err == nil {
		t.Fatal("a cut stream succeeded")
	}
	if !strings.Contains(err.Error(), "leaf02") {
		t.Errorf("err = %v, want it to name leaf02", err)
	}
	if c := status.Code(err); c != codes.Unavailable {
		t.Errorf("code %v (%v), want Unavailable", c, err)
	}
}

func TestCollectAll(t *testing.T) {
	f := startFabric(t, sim.Options{Faults: map[string]sim.Fault{"spine02": {AuthFail: true}}})
	var targets []gnmi.Target
	for _, n := range []string{"spine02", "leaf01", "leaf02", "spine01"} {
		targets = append(targets, target(t, f, n))
	}
	res := gnmi.CollectAll(context.Background(), targets, 2)
	if len(res) != 4 {
		t.Fatalf("%d results", len(res))
	}
	for _, n := range []string{"leaf01", "leaf02", "spine01"} {
		if res[n].Err != nil {
			t.Errorf("%s: %v", n, res[n].Err)
			continue
		}
		checkBaseline(t, parse(t, res[n].Data))
	}
	if status.Code(res["spine02"].Err) != codes.Unauthenticated || res["spine02"].Data != nil {
		t.Errorf("spine02: %+v", res["spine02"])
	}
	if string(res["leaf01"].Data) == string(res["leaf02"].Data) {
		t.Error("two switches got the same synthetic counters")
	}
}

func TestCollectCancelled(t *testing.T) {
	f := startFabric(t, sim.Options{Faults: map[string]sim.Fault{"leaf01": {GNMINoSync: true}}})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	_, err := gnmi.Collect(ctx, target(t, f, "leaf01"))
	if err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Errorf("err = %v", err)
	}
}
