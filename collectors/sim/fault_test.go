package sim

import (
	"errors"
	"net"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"golang.org/x/crypto/ssh"
)

func TestFaultAuthFail(t *testing.T) {
	f := startSim(t, cleanPod, Options{Faults: map[string]Fault{"leaf02": {AuthFail: true}}})
	_, err := dialAuth(t, f, "leaf02", DefaultUser, ssh.Password(testPassword))
	if err == nil || !strings.Contains(err.Error(), "unable to authenticate") {
		t.Fatalf("leaf02 login: %v, want an authentication failure", err)
	}
	dial(t, f, "leaf01") // the others still work
	if len(f.Seen("leaf02")) != 0 {
		t.Error("a command reached a device nobody logged in to")
	}
}

// TestFaultHang: the matching command never answers, nor does any later
// command on any connection; a new shell still logs in and echoes.
func TestFaultHang(t *testing.T) {
	mlnx, _ := devcmd.MlnxQos("ens1f0np0")
	f := startSim(t, cleanPod, Options{Faults: map[string]Fault{
		"gpu01": {Hang: "mlnx_qos"},
		"gpu02": {Hang: "*"},
	}})
	c := dial(t, f, "gpu01")
	if r := run(t, c, devcmd.IBDev2Netdev, testTimeout); r.err != nil || r.code != 0 {
		t.Fatalf("before the hang: %+v", r)
	}
	if r := run(t, c, mlnx, 300*time.Millisecond); r.err != errTimeout || r.stdout != "" {
		t.Fatalf("hung command answered: %+v", r)
	}
	c2 := dial(t, f, "gpu01")
	if r := run(t, c2, devcmd.IBDev2Netdev, 200*time.Millisecond); r.err != errTimeout {
		t.Fatalf("a hung device answered on a new connection: %+v", r)
	}
	_, send, scr := shellSession(t, c2)
	scr.waitFor(t, "gpu01:~$ ", testTimeout)
	send(devcmd.IPLink + "\n")
	scr.waitFor(t, devcmd.IPLink+"\r\n", testTimeout)
	time.Sleep(100 * time.Millisecond)
	if got := scr.String(); got != DefaultUser+"@gpu01:~$ "+devcmd.IPLink+"\r\n" {
		t.Fatalf("hung shell printed more than the echo: %q", got)
	}
	want := []string{devcmd.IBDev2Netdev, mlnx, devcmd.IBDev2Netdev, devcmd.IPLink}
	if got := f.Seen("gpu01"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Seen = %q, want %q", got, want)
	}

	c3 := dial(t, f, "gpu02")
	if r := run(t, c3, devcmd.IBDev2Netdev, 200*time.Millisecond); r.err != errTimeout {
		t.Fatalf(`Hang "*": first command answered: %+v`, r)
	}
}

// TestFaultDropAfter: the connection ends after exactly DropAfter bytes of
// a longer output, with no exit status; shorter outputs pass.
func TestFaultDropAfter(t *testing.T) {
	f := startSim(t, cleanPod, Options{Faults: map[string]Fault{
		"leaf01": {DropAfter: 100},
		"gpu01":  {DropAfter: 100},
	}})
	c := dial(t, f, "leaf01")
	file := readFile(t, filepath.Join(cleanPod, "devices/leaf01/nv-config.yaml"))
	r := run(t, c, devcmd.NVConfigYAML, testTimeout)
	if r.stdout != file[:100] {
		t.Errorf("got %d bytes %q, want the first 100 of the file", len(r.stdout), r.stdout)
	}
	var ee *ssh.ExitError
	if r.err == nil || errors.As(r.err, &ee) || r.err == errTimeout {
		t.Errorf("cut output ended with %v, want a lost connection", r.err)
	}
	if _, err := c.NewSession(); err == nil {
		t.Error("the connection survived the drop")
	}

	// Short output passes; a shell is cut mid-output, CRLF counted.
	c = dial(t, f, "gpu01")
	ib := readFile(t, filepath.Join(cleanPod, "devices/gpu01/ibdev2netdev.txt"))
	if len(ib)+2 > 100 {
		t.Fatal("test needs a short ibdev2netdev.txt")
	}
	if r := run(t, c, devcmd.IBDev2Netdev, testTimeout); r.err != nil || r.stdout != ib {
		t.Fatalf("short output: %+v", r)
	}
	s, send, scr := shellSession(t, c)
	const p = DefaultUser + "@gpu01:~$ "
	scr.waitFor(t, p, testTimeout)
	send(devcmd.CatNCCLConf + "\n")
	done := make(chan error, 1)
	go func() { done <- s.Wait() }()
	select {
	case err := <-done:
		if err == nil || errors.As(err, &ee) {
			t.Errorf("shell ended with %v, want a lost connection", err)
		}
	case <-time.After(testTimeout):
		t.Fatal("shell was not dropped")
	}
	nccl := strings.ReplaceAll(readFile(t, filepath.Join(cleanPod, "devices/gpu01/nccl.conf")), "\n", "\r\n")
	if want := p + devcmd.CatNCCLConf + "\r\n" + nccl[:100]; scr.String() != want {
		t.Errorf("shell screen\n got %q\nwant %q", scr.String(), want)
	}
}

func TestFaultGarbage(t *testing.T) {
	f := startSim(t, cleanPod, Options{Faults: map[string]Fault{"leaf01": {Garbage: "qos roce"}}})
	c := dial(t, f, "leaf01")
	file := readFile(t, filepath.Join(cleanPod, "devices/leaf01/nv-show-qos-roce.txt"))
	a := run(t, c, devcmd.NVShowQosRoce, testTimeout)
	b := run(t, c, devcmd.NVShowQosRoce, testTimeout)
	if a.err != nil || a.code != 0 || a.stdout == file || len(a.stdout) != len(file) {
		t.Fatalf("garbage: %+v", a)
	}
	if a.stdout != b.stdout {
		t.Error("garbage is not reproducible")
	}
	if strings.ContainsAny(a.stdout, "@#$\r\x1b") {
		t.Errorf("garbage could pass for a prompt or a control sequence: %q", a.stdout)
	}
	if r := run(t, c, devcmd.NVConfigYAML, testTimeout); r.stdout != readFile(t, filepath.Join(cleanPod, "devices/leaf01/nv-config.yaml")) {
		t.Error("a command not matching Garbage was garbled")
	}
}

func TestFaultRefuseAndSilent(t *testing.T) {
	f := startSim(t, cleanPod, Options{Faults: map[string]Fault{
		"spine01": {Refuse: true},
		"spine02": {Silent: true},
	}})
	start := time.Now()
	if _, err := dialAuth(t, f, "spine01", DefaultUser, ssh.Password(testPassword)); err == nil {
		t.Fatal("refusing device let a client in")
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("refusal took %v", el)
	}

	// A silent device accepts TCP and never sends its SSH version.
	nc, err := net.DialTimeout("tcp", devByName(t, f, "spine02").Addr, testTimeout)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	_ = nc.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	n, err := nc.Read(make([]byte, 64))
	var ne net.Error
	if n != 0 || !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("silent device: read %d bytes, %v", n, err)
	}
}

// TestLatencyAndDelay: Options.Latency applies to every device, Delay adds
// to it on one.
func TestLatencyAndDelay(t *testing.T) {
	const lat, extra = 60 * time.Millisecond, 400 * time.Millisecond
	f := startSim(t, cleanPod, Options{Latency: lat, Faults: map[string]Fault{"gpu02": {Delay: extra}}})
	for _, tc := range []struct {
		dev      string
		min, max time.Duration
	}{
		{"gpu01", lat, lat + extra},
		{"gpu02", lat + extra, testTimeout},
	} {
		c := dial(t, f, tc.dev)
		start := time.Now()
		r := run(t, c, devcmd.IBDev2Netdev, testTimeout)
		el := time.Since(start)
		if r.err != nil || el < tc.min || el >= tc.max {
			t.Errorf("%s: answered in %v (err %v), want [%v, %v)", tc.dev, el, r.err, tc.min, tc.max)
		}
	}
}

// TestCloseWithOpenConnections: Close returns promptly while shells are
// open, a command hangs, a command sleeps in its latency, a device is
// silent and a client sits in the middle of the handshake.
func TestCloseWithOpenConnections(t *testing.T) {
	f, err := Start(cleanPod, Options{
		Password: testPassword,
		Latency:  time.Minute,
		Faults:   map[string]Fault{"gpu01": {Hang: "*"}, "spine02": {Silent: true}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"leaf01", "leaf02", "gpu03"} {
		_, _, scr := shellSession(t, dial(t, f, name))
		scr.waitFor(t, "~$ ", testTimeout)
	}
	sleeping := make(chan execResult, 1)
	c := dial(t, f, "gpu02")
	go func() { sleeping <- run(t, c, devcmd.IBDev2Netdev, time.Minute) }()
	hung := make(chan execResult, 1)
	c = dial(t, f, "gpu01")
	go func() { hung <- run(t, c, devcmd.IBDev2Netdev, time.Minute) }()
	for _, name := range []string{"spine02", "spine01"} {
		nc, err := net.Dial("tcp", devByName(t, f, name).Addr)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
	}
	waitSeen(t, f, "gpu01", 1)
	waitSeen(t, f, "gpu02", 1)

	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- f.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(testTimeout):
		t.Fatal("Close did not return")
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("Close took %v", el)
	}
	// Close waited for every goroutine of the simulator.
	buf := make([]byte, 1<<20)
	stacks := string(buf[:runtime.Stack(buf, true)])
	for _, fn := range []string{"sim.(*Fabric)", "sim.(*device)", "sim.(*session)"} {
		if strings.Contains(stacks, fn) {
			t.Errorf("a %s goroutine outlived Close:\n%s", fn, stacks)
		}
	}
	for _, ch := range []chan execResult{sleeping, hung} {
		select {
		case r := <-ch:
			if r.err == nil {
				t.Errorf("a command in flight succeeded after Close: %+v", r)
			}
		case <-time.After(testTimeout):
			t.Error("a client in flight was not released by Close")
		}
	}
	if _, err := net.DialTimeout("tcp", devByName(t, f, "leaf01").Addr, time.Second); err == nil {
		t.Error("still listening after Close")
	}
	if err := f.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func waitSeen(t *testing.T, f *Fabric, dev string, n int) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for len(f.Seen(dev)) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%s never received a command", dev)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
