package sim

import (
	"bytes"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

const (
	cleanPod     = "../../examples/clean-pod"
	testPassword = "not-a-real-secret"
	testTimeout  = 5 * time.Second
)

// startSim starts a fabric with the test password unless opt has one, and
// closes it at the end of the test, failing if Close is slow.
func startSim(t *testing.T, dir string, opt Options) *Fabric {
	t.Helper()
	if opt.Password == "" && len(opt.AuthorizedKeys) == 0 {
		opt.Password = testPassword
	}
	f, err := Start(dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		done := make(chan struct{})
		go func() { _ = f.Close(); close(done) }()
		select {
		case <-done:
		case <-time.After(testTimeout):
			t.Error("Close did not return")
		}
	})
	return f
}

func devByName(t *testing.T, f *Fabric, name string) Device {
	t.Helper()
	for _, d := range f.Devices() {
		if d.Name == name {
			return d
		}
	}
	t.Fatalf("no device %s", name)
	return Device{}
}

// knownHostsCallback verifies host keys against the fabric's known_hosts
// file, as a collector would.
func knownHostsCallback(t *testing.T, f *Fabric) ssh.HostKeyCallback {
	t.Helper()
	path := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(path, f.KnownHosts(), 0o600); err != nil {
		t.Fatal(err)
	}
	cb, err := knownhosts.New(path)
	if err != nil {
		t.Fatal(err)
	}
	return cb
}

// dialAuth connects with the given auth methods; the whole handshake is
// bounded (ssh.ClientConfig.Timeout bounds only the TCP connect).
func dialAuth(t *testing.T, f *Fabric, name, user string, auth ...ssh.AuthMethod) (*ssh.Client, error) {
	t.Helper()
	addr := devByName(t, f, name).Addr
	nc, err := net.DialTimeout("tcp", addr, testTimeout)
	if err != nil {
		return nil, err
	}
	_ = nc.SetDeadline(time.Now().Add(testTimeout))
	cfg := &ssh.ClientConfig{
		User:              user,
		Auth:              auth,
		HostKeyCallback:   ssh.FixedHostKey(f.HostKey()),
		HostKeyAlgorithms: []string{ssh.KeyAlgoED25519},
	}
	c, chans, reqs, err := ssh.NewClientConn(nc, addr, cfg)
	if err != nil {
		_ = nc.Close()
		return nil, err
	}
	_ = nc.SetDeadline(time.Time{})
	cl := ssh.NewClient(c, chans, reqs)
	t.Cleanup(func() { _ = cl.Close() })
	return cl, nil
}

func dial(t *testing.T, f *Fabric, name string) *ssh.Client {
	t.Helper()
	c, err := dialAuth(t, f, name, DefaultUser, ssh.Password(testPassword))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return c
}

type execResult struct {
	stdout, stderr string
	code           int
	err            error // other than a non-zero exit status
}

// run execs cmd on a new session, bounded by timeout.
func run(t *testing.T, c *ssh.Client, cmd string, timeout time.Duration) execResult {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		return execResult{err: err}
	}
	defer s.Close()
	o, e := newScreen(), newScreen() // locked: read on timeout while still written
	s.Stdout, s.Stderr = o, e
	done := make(chan error, 1)
	go func() { done <- s.Run(cmd) }()
	select {
	case err = <-done:
	case <-time.After(timeout):
		return execResult{stdout: o.String(), err: errTimeout}
	}
	r := execResult{stdout: o.String(), stderr: e.String()}
	var ee *ssh.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitStatus()
	case err != nil:
		r.err = err
	}
	return r
}

var errTimeout = errors.New("test timeout")

// screen collects a shell's output for waitFor.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
	ch  chan struct{}
}

func newScreen() *screen { return &screen{ch: make(chan struct{}, 1)} }

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	s.buf.Write(p)
	s.mu.Unlock()
	select {
	case s.ch <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitFor waits until the screen holds want (counting from the start).
func (s *screen) waitFor(t *testing.T, want string, timeout time.Duration) string {
	t.Helper()
	deadline := time.After(timeout)
	for {
		if got := s.String(); strings.Contains(got, want) {
			return got
		}
		select {
		case <-s.ch:
		case <-deadline:
			t.Fatalf("timed out waiting for %q; screen:\n%q", want, s.String())
		}
	}
}

// shellSession opens a pty shell on name and returns its stdin and screen.
func shellSession(t *testing.T, c *ssh.Client) (*ssh.Session, func(string), *screen) {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RequestPty("xterm", 80, 200, ssh.TerminalModes{ssh.ECHO: 1}); err != nil {
		t.Fatal(err)
	}
	in, err := s.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	scr := newScreen()
	s.Stdout = scr
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	return s, func(x string) {
		if _, err := in.Write([]byte(x)); err != nil {
			t.Fatal(err)
		}
	}, scr
}
