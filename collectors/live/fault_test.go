package live

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/layout"
)

// closedPort is a loopback port nobody listens on.
func closedPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	return port
}

// TestFaults collects broken-pod with one fault per device (and one
// healthy leaf): each is reported for its device with its cause, what was
// collected before it is kept, and the others are unaffected.
func TestFaults(t *testing.T) {
	p := startPod(t, brokenPod, sim.Options{Faults: map[string]sim.Fault{
		"spine01": {Refuse: true},
		"leaf01":  {AuthFail: true},
		"gpu01":   {Hang: "mlnx_qos"},
		"gpu02":   {DropAfter: 200},
		"gpu03":   {Garbage: "mlnx_qos"},
		"gpu04":   {Silent: true},
	}})
	// spine02: nothing listens; leaf02: known_hosts holds another key.
	for i := range p.inv.Switches {
		if p.inv.Switches[i].Name == "spine02" {
			p.inv.Switches[i].Credentials.Port = closedPort(t)
		}
	}
	_, other, _ := ed25519.GenerateKey(nil)
	otherPub, _ := ssh.NewPublicKey(other.Public())
	var kh bytes.Buffer
	for _, d := range p.fab.Devices() {
		key := p.fab.HostKey()
		if d.Name == "leaf02" {
			key = otherPub
		}
		kh.WriteString(knownhosts.Line([]string{knownhosts.Normalize(d.Addr)}, key) + "\n")
	}
	writeFile(t, filepath.Join(p.invDir, "known_hosts"), kh.Bytes())

	var evs events
	opt := p.options()
	opt.CommandTimeout = shortTimeout
	opt.OnEvent = evs.add
	start := time.Now()
	r := Collect(context.Background(), p.inv, opt)
	elapsed := time.Since(start)
	t.Logf("faults collected in %s", elapsed.Round(time.Millisecond))
	for _, s := range r.Status {
		t.Logf("%s: err=%q notes=%q commands=%d elapsed=%s", s.Name, s.Err, s.Notes, s.Commands, s.Elapsed.Round(time.Millisecond))
	}
	if elapsed > 3*shortTimeout {
		t.Errorf("took %s: faults must cost about one timeout, in parallel", elapsed)
	}

	for _, tc := range []struct{ dev, err string }{
		{"spine01", "closed the connection during the SSH handshake"},
		{"spine02", "connection refused by 127.0.0.1:"},
		{"leaf01", `authentication failed as "qoslint" (tried password from $` + passwordEv + `)`},
		{"leaf02", "host key mismatch: 127.0.0.1:"},
		{"gpu01", "`mlnx_qos -i ens1f0np0` did not finish within " + shortTimeout.String()},
		{"gpu02", "connection lost during `ip -j link show`"},
		{"gpu04", "SSH handshake with 127.0.0.1:"},
	} {
		s := status(t, r, tc.dev)
		if !strings.HasPrefix(s.Err, tc.dev+": ") || !strings.Contains(s.Err, tc.err) {
			t.Errorf("%s: Err %q, want it to name the device and say %q", tc.dev, s.Err, tc.err)
		}
	}
	if s := status(t, r, "leaf02"); !strings.Contains(s.Err, ssh.FingerprintSHA256(p.fab.HostKey())) {
		t.Errorf("leaf02: %q does not show the offered key", s.Err)
	}

	served := servedFiles(t, brokenPod)
	same := func(name string) {
		t.Helper()
		if got, ok := r.Files[name]; !ok || !bytes.Equal(got, served[name]) {
			t.Errorf("%s: not kept as served (present %v)", name, ok)
		}
	}
	// Healthy: all of it.
	if s := status(t, r, "leaf03"); s.Err != "" || len(withoutStatusNote(s.Notes)) != 0 {
		t.Errorf("leaf03 affected: %+v", s)
	}
	same("devices/leaf03/" + layout.NVUEYAMLFile)
	same("devices/leaf03/" + layout.RoceShowFile)
	// Hang and cut: what came before is kept, nothing after.
	for _, f := range []string{layout.IBDev2NetdevFile, layout.IPLinkFile, layout.NCCLConfFile} {
		same("devices/gpu01/" + f)
	}
	same("devices/gpu02/" + layout.IBDev2NetdevFile)
	for name := range r.Files {
		if strings.HasPrefix(name, "devices/gpu01/mlnx_qos") || strings.HasPrefix(name, "devices/gpu02/ip-link") {
			t.Errorf("%s saved from a failed command", name)
		}
	}
	// Garbage is saved as printed, for the parsers to report.
	if s := status(t, r, "gpu03"); s.Err != "" {
		t.Errorf("gpu03: %q", s.Err)
	}
	g := r.Files["devices/gpu03/"+layout.MlnxQosFile("ens1f0np0")]
	if len(g) == 0 || bytes.Equal(g, served["devices/gpu03/"+layout.MlnxQosFile("ens1f0np0")]) {
		t.Errorf("gpu03 garbage not saved as printed: %q", g)
	}
	same("devices/gpu03/" + layout.NCCLConfFile)
	// Nothing collected from devices that never logged in.
	for _, dev := range []string{"spine01", "spine02", "leaf01", "leaf02", "gpu04"} {
		if s := status(t, r, dev); s.Commands != 0 {
			t.Errorf("%s: %d commands sent", dev, s.Commands)
		}
		for name := range r.Files {
			if strings.HasPrefix(name, "devices/"+dev+"/") {
				t.Errorf("%s collected from %s", name, dev)
			}
		}
	}
	if !r.Incomplete() {
		t.Error("Incomplete() = false")
	}
	checkEvents(t, evs.list(), r)
	assertNoSecret(t, r, evs.list())
}

// TestWrongPassword: a wrong password is an auth failure that shows
// neither password.
func TestWrongPassword(t *testing.T) {
	const wrong = "Wrong-PW-91b2-NEVER-LEAK"
	p := startPod(t, cleanPod, sim.Options{})
	p.inv.Switches, p.inv.Hosts = p.inv.Switches[:1], p.inv.Hosts[:1]
	var evs events
	opt := p.options()
	opt.Getenv = env(map[string]string{passwordEv: wrong})
	opt.OnEvent = evs.add
	r := Collect(context.Background(), p.inv, opt)
	for _, s := range r.Status {
		if !strings.Contains(s.Err, "authentication failed") {
			t.Errorf("%s: %q", s.Name, s.Err)
		}
	}
	assertNoSecret(t, r, evs.list(), wrong)
}

// TestCancel: cancelling stops promptly, keeps what was collected and
// marks every unfinished device "cancelled", running or queued.
func TestCancel(t *testing.T) {
	// Every device hangs after its first outputs, so that the cancel finds
	// files kept, devices in flight and devices queued however slow the
	// machine is: nothing can finish before it.
	faults := map[string]sim.Fault{}
	for _, sw := range []string{"leaf01", "leaf02", "leaf03", "spine01", "spine02"} {
		faults[sw] = sim.Fault{Hang: "nv show"}
	}
	for _, h := range []string{"gpu01", "gpu02", "gpu03", "gpu04"} {
		faults[h] = sim.Fault{Hang: "mlnx_qos"}
	}
	p := startPod(t, brokenPod, sim.Options{Latency: 100 * time.Millisecond, Faults: faults})
	ctx, cancel := context.WithCancel(context.Background())
	var evs events
	opt := p.options()
	opt.Workers = 4
	opt.OnEvent = evs.add
	var cancelled time.Time
	time.AfterFunc(1500*time.Millisecond, func() { cancelled = time.Now(); cancel() })
	r := Collect(ctx, p.inv, opt)
	if d := time.Since(cancelled); d > 2*time.Second { // typically a few ms; generous for a loaded CI
		t.Errorf("Collect returned %s after the cancel", d.Round(time.Millisecond))
	}
	for _, s := range r.Status {
		if !strings.HasPrefix(s.Err, s.Name+": cancelled") {
			t.Errorf("%s: Err %q, want cancelled", s.Name, s.Err)
		}
	}
	if len(r.Files) == 0 {
		t.Error("nothing kept from before the cancel")
	}
	served := servedFiles(t, brokenPod)
	for name, data := range r.Files {
		if !bytes.Equal(data, served[name]) {
			t.Errorf("%s kept but not as served", name)
		}
	}
	// Each device ends with one Failed, after its Started if it had begun.
	kinds := map[string][]EventKind{}
	for _, ev := range evs.list() {
		kinds[ev.Device] = append(kinds[ev.Device], ev.Kind)
	}
	queued := 0
	for _, s := range r.Status {
		k := kinds[s.Name]
		switch {
		case slices.Equal(k, []EventKind{Failed}):
			queued++
		case !slices.Equal(k, []EventKind{Started, Failed}):
			t.Errorf("%s: events %v", s.Name, k)
		}
	}
	if queued == 0 {
		t.Error("no device was still queued: the test does not cover them")
	}
	assertNoSecret(t, r, evs.list())
}

// TestDeviceTimeout: the whole-device budget ends a slow device with its
// own cause.
func TestDeviceTimeout(t *testing.T) {
	p := startPod(t, cleanPod, sim.Options{Faults: map[string]sim.Fault{"gpu01": {Delay: 200 * time.Millisecond}}})
	p.inv.Switches, p.inv.Hosts = nil, p.inv.Hosts[:1]
	opt := p.options()
	opt.DeviceTimeout = 500 * time.Millisecond
	start := time.Now()
	r := Collect(context.Background(), p.inv, opt)
	if d := time.Since(start); d > 3*time.Second { // generous: CI shares two cores
		t.Errorf("took %s", d)
	}
	s := status(t, r, "gpu01")
	if !strings.Contains(s.Err, "gpu01: not finished within the device timeout (500ms) during `") {
		t.Errorf("Err %q", s.Err)
	}
	if _, ok := r.Files["devices/gpu01/"+layout.IBDev2NetdevFile]; !ok {
		t.Error("the first file was not kept")
	}
}

// TestHostKeyPolicy: an unknown host is refused with the offered key, a
// missing known_hosts file is reported, and the explicit opt-out connects.
func TestHostKeyPolicy(t *testing.T) {
	p := startPod(t, cleanPod, sim.Options{})
	p.inv.Switches, p.inv.Hosts = p.inv.Switches[:1], nil
	kh := filepath.Join(p.invDir, "known_hosts")

	writeFile(t, kh, nil)
	r := Collect(context.Background(), p.inv, p.options())
	if e := r.Status[0].Err; !strings.Contains(e, "unknown host key: 127.0.0.1:") || !strings.Contains(e, kh) {
		t.Errorf("empty known_hosts: %q", e)
	}

	if err := os.Remove(kh); err != nil {
		t.Fatal(err)
	}
	r = Collect(context.Background(), p.inv, p.options())
	if e := r.Status[0].Err; !strings.Contains(e, "cannot read the known_hosts file "+kh) {
		t.Errorf("no known_hosts: %q", e)
	}

	opt := p.options()
	opt.InsecureSkipHostKeyCheck = true
	r = Collect(context.Background(), p.inv, opt)
	if e := r.Status[0].Err; e != "" {
		t.Errorf("insecure: %q", e)
	}

	// No known_hosts in the inventory means ~/.ssh/known_hosts; "~/" is
	// expanded.
	home := t.TempDir()
	t.Setenv("HOME", home)
	writeFile(t, filepath.Join(home, ".ssh", "known_hosts"), p.fab.KnownHosts())
	writeFile(t, filepath.Join(home, "kh"), p.fab.KnownHosts())
	for _, kh := range []string{"", "~/kh"} {
		p.inv.SSH.KnownHosts = kh
		r = Collect(context.Background(), p.inv, p.options())
		if e := r.Status[0].Err; e != "" {
			t.Errorf("known_hosts %q: %q", kh, e)
		}
	}
}
