package live

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/inventory"
)

// jumpServer is an in-process SSH jump host on loopback: it logs in one
// user by password and forwards direct-tcpip channels (RFC 4254 section
// 7.2) to their target, as sshd does with AllowTcpForwarding. It opens
// no session: a jump host must never be given a command.
type jumpServer struct {
	addr string
	key  ssh.PublicKey

	mu        sync.Mutex
	forwarded []string // host:port of every forwarding, in order
	bytes     int64    // what came back from the targets
	sessions  int      // session channels asked for (refused)
	wg        sync.WaitGroup
}

func startJump(t *testing.T, user, password string, refuse func(target string) bool) *jumpServer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &ssh.ServerConfig{PasswordCallback: func(c ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
		if c.User() == user && string(pw) == password {
			return nil, nil
		}
		return nil, fmt.Errorf("denied")
	}}
	cfg.AddHostKey(signer)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	j := &jumpServer{addr: ln.Addr().String(), key: signer.PublicKey()}
	var conns sync.Map
	t.Cleanup(func() {
		_ = ln.Close()
		conns.Range(func(k, _ any) bool { _ = k.(net.Conn).Close(); return true })
		j.wg.Wait()
	})
	j.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Store(c, true)
			j.wg.Go(func() { j.serve(c, cfg, refuse, &conns) })
		}
	})
	return j
}

func (j *jumpServer) serve(c net.Conn, cfg *ssh.ServerConfig, refuse func(string) bool, conns *sync.Map) {
	sc, chans, reqs, err := ssh.NewServerConn(c, cfg)
	if err != nil {
		_ = c.Close()
		return
	}
	defer sc.Close()
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "direct-tcpip" {
			j.mu.Lock()
			j.sessions++
			j.mu.Unlock()
			_ = nc.Reject(ssh.Prohibited, "this jump host only forwards")
			continue
		}
		var p struct {
			Host       string
			Port       uint32
			OrigHost   string
			OriginPort uint32
		}
		if err := ssh.Unmarshal(nc.ExtraData(), &p); err != nil {
			_ = nc.Reject(ssh.ConnectionFailed, "bad direct-tcpip payload")
			continue
		}
		target := net.JoinHostPort(p.Host, fmt.Sprint(p.Port))
		if refuse != nil && refuse(target) {
			_ = nc.Reject(ssh.Prohibited, "administratively prohibited: open failed")
			continue
		}
		out, err := net.Dial("tcp", target)
		if err != nil {
			_ = nc.Reject(ssh.ConnectionFailed, err.Error())
			continue
		}
		conns.Store(out, true)
		ch, creqs, err := nc.Accept()
		if err != nil {
			_ = out.Close()
			continue
		}
		go ssh.DiscardRequests(creqs)
		j.mu.Lock()
		j.forwarded = append(j.forwarded, target)
		j.mu.Unlock()
		j.wg.Go(func() {
			_, _ = io.Copy(out, ch)
			_ = out.(*net.TCPConn).CloseWrite()
		})
		j.wg.Go(func() {
			n, _ := io.Copy(ch, out)
			j.mu.Lock()
			j.bytes += n
			j.mu.Unlock()
			_ = ch.CloseWrite()
			_ = ch.Close()
		})
	}
}

func (j *jumpServer) stats() (forwarded []string, n int64, sessions int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]string(nil), j.forwarded...), j.bytes, j.sessions
}

// knownLine is a known_hosts line for the jump host with key.
func (j *jumpServer) knownLine(key ssh.PublicKey) string {
	return knownhosts.Line([]string{knownhosts.Normalize(j.addr)}, key) + "\n"
}

// jumpPod is a two-device pod (a switch and a host of the clean pod)
// behind a jump host; writeKnownHosts gives it its known_hosts.
func jumpPod(t *testing.T) (*pod, *jumpServer) {
	t.Helper()
	p := startPod(t, cleanPod, sim.Options{})
	p.inv.Switches, p.inv.Hosts = p.inv.Switches[:1], p.inv.Hosts[:1]
	j := startJump(t, "ops", secret, nil)
	p.inv.SSH.JumpHost = "ops@" + j.addr
	return p, j
}

func writeKnownHosts(t *testing.T, p *pod, extra string) {
	t.Helper()
	writeFile(t, filepath.Join(p.invDir, "known_hosts"), append(p.fab.KnownHosts(), extra...))
}

// The devices answer through the jump host: every SSH connection is a
// forwarding the jump host made, the files are the devices' byte for
// byte, the devices saw only allowlisted commands, and the jump host was
// given none.
func TestJumpHost(t *testing.T) {
	p, j := jumpPod(t)
	writeKnownHosts(t, p, j.knownLine(j.key))
	r := Collect(context.Background(), p.inv, p.options())
	for _, s := range r.Status {
		if s.Err != "" {
			t.Fatalf("%s: %s", s.Name, s.Err)
		}
	}
	forwarded, n, sessions := j.stats()
	want := map[string]bool{}
	for _, d := range devices(p.inv) {
		want[d.hostPort()] = true
	}
	for _, f := range forwarded {
		if !want[f] {
			t.Errorf("the jump host forwarded to %s, not a device", f)
		}
		delete(want, f)
	}
	if len(want) != 0 || n == 0 {
		t.Errorf("not reached through the jump host: %v (%d bytes back)", want, n)
	}
	if sessions != 0 {
		t.Errorf("the jump host was asked for %d sessions", sessions)
	}
	served := servedFiles(t, cleanPod)
	for _, d := range devices(p.inv) {
		seen := p.fab.Seen(d.name)
		if len(seen) == 0 {
			t.Errorf("%s received no command", d.name)
		}
		for _, cmd := range seen {
			if err := devcmd.Check(cmd); err != nil {
				t.Errorf("%s received a command off the allowlist: %v", d.name, err)
			}
		}
		prefix := "devices/" + d.name + "/"
		for name, data := range served {
			if strings.HasPrefix(name, prefix) && !bytes.Equal(r.Files[name], data) {
				t.Errorf("%s differs from the source", name)
			}
		}
	}
	assertNoSecret(t, r, nil, secret)
}

// The jump host's key is checked against known_hosts like a device's: a
// wrong or missing key is refused with an error naming the jump host, and
// no device is reached.
func TestJumpHostKey(t *testing.T) {
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	otherPub, err := ssh.NewPublicKey(other.Public())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, want string
		known      func(j *jumpServer) string
	}{
		{"wrong key", "host key mismatch: " + "%s presented ssh-ed25519 key SHA256:", func(j *jumpServer) string { return j.knownLine(otherPub) }},
		{"unknown key", "unknown host key: %s presented ssh-ed25519 key", func(*jumpServer) string { return "" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, j := jumpPod(t)
			writeKnownHosts(t, p, tc.known(j))
			r := Collect(context.Background(), p.inv, p.options())
			for _, s := range r.Status {
				head := s.Name + ": jump host ops@" + j.addr + ": "
				if !strings.HasPrefix(s.Err, head) || !strings.Contains(s.Err, fmt.Sprintf(tc.want, j.addr)) {
					t.Errorf("%s: %q, want %q then %q", s.Name, s.Err, head, fmt.Sprintf(tc.want, j.addr))
				}
				if seen := p.fab.Seen(s.Name); len(seen) != 0 {
					t.Errorf("%s was reached: %q", s.Name, seen)
				}
			}
			if f, _, _ := j.stats(); len(f) != 0 {
				t.Errorf("forwarded to %v after a bad host key", f)
			}
		})
	}
	// --insecure-skip-host-key-check turns the jump host's check off with
	// the devices'.
	p, j := jumpPod(t)
	writeKnownHosts(t, p, j.knownLine(otherPub))
	opt := p.options()
	opt.InsecureSkipHostKeyCheck = true
	for _, s := range Collect(context.Background(), p.inv, opt).Status {
		if s.Err != "" {
			t.Errorf("insecure: %s: %s", s.Name, s.Err)
		}
	}
}

// A failed login to the jump host, and a forwarding it refuses, name the
// jump host and never the password.
func TestJumpHostFailures(t *testing.T) {
	p, j := jumpPod(t)
	writeKnownHosts(t, p, j.knownLine(j.key))
	p.inv.SSH.JumpHost = "intruder@" + j.addr
	r := Collect(context.Background(), p.inv, p.options())
	for _, s := range r.Status {
		if want := s.Name + ": jump host intruder@" + j.addr + `: authentication failed as "intruder" (tried password from $` + passwordEv + ")"; s.Err != want {
			t.Errorf("%q\nwant %q", s.Err, want)
		}
	}
	assertNoSecret(t, r, nil, secret)

	q := startPod(t, cleanPod, sim.Options{})
	q.inv.Switches, q.inv.Hosts = q.inv.Switches[:1], nil
	refusing := startJump(t, "ops", secret, func(string) bool { return true })
	q.inv.SSH.JumpHost = "ops@" + refusing.addr
	writeKnownHosts(t, q, refusing.knownLine(refusing.key))
	r = Collect(context.Background(), q.inv, q.options())
	dev := devices(q.inv)[0]
	if want := dev.name + ": jump host ops@" + refusing.addr + " would not forward to " + dev.hostPort() + ": "; !strings.HasPrefix(r.Status[0].Err, want) ||
		!strings.Contains(r.Status[0].Err, "administratively prohibited") {
		t.Errorf("%q, want %q...", r.Status[0].Err, want)
	}
}

// A device's jump_host none connects directly although ssh.jump_host is
// set; a switch behind a jump host gets a note instead of gNMI counters.
func TestJumpHostNoneAndGNMI(t *testing.T) {
	p, j := jumpPod(t)
	writeKnownHosts(t, p, j.knownLine(j.key))
	p.inv.Switches[0].Credentials.JumpHost = inventory.JumpNone
	r := Collect(context.Background(), p.inv, p.options())
	for _, s := range r.Status {
		if s.Err != "" {
			t.Fatalf("%s: %s", s.Name, s.Err)
		}
	}
	forwarded, _, _ := j.stats()
	sw, host := devices(p.inv)[0], devices(p.inv)[1]
	if len(forwarded) != 1 || forwarded[0] != host.hostPort() {
		t.Errorf("forwarded %v: want only %s's %s", forwarded, host.name, host.hostPort())
	}
	if sw.creds.JumpHost != "" {
		t.Errorf("%s: jump host %q after none", sw.name, sw.creds.JumpHost)
	}

	p.inv.Switches[0].Credentials.JumpHost = ""
	opt := p.options()
	opt.Getenv = env(map[string]string{passwordEv: secret})
	jobs := gnmiTargets(p.inv, opt)
	if s := jobs[sw.name].skip; !strings.HasPrefix(s, "gNMI through a jump host (jump_host ops@"+j.addr+") is not supported") {
		t.Errorf("gNMI behind a jump host: %q", s)
	}
}
