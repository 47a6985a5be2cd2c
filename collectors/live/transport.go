package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/scrapli/scrapligo/transport"
	"golang.org/x/crypto/ssh"
)

// termType is the TERM the pty asks for. "dumb" keeps a login shell from
// decorating its output: Debian/Ubuntu .bashrc sets an xterm title escape
// before every prompt only for xterm*|rxvt*, and readline ≥ 8.1 turns
// bracketed paste off for dumb terminals. Fewer escapes in the stream means
// fewer bytes to tell apart from what the command printed.
const termType = "dumb"

// sshTransport is a scrapligo transport.Implementation on x/crypto/ssh
// that, unlike scrapligo's "standard" transport (scrapligo v1.4.3
// transport/standard.go: ssh.Dial, whose Timeout covers the TCP connect
// only), bounds
// the TCP connect and the SSH handshake, follows ctx (closing the
// connection when it is done unblocks every read, so a cancelled collection
// stops at once), and takes its auth methods and host key check from the
// caller (so ssh-agent works).
//
// scrapligo logs in and finds the prompt; the commands' output bypasses it.
// Its channel drops every '\r' and ANSI escape before anything reaches
// Response.RawResult, and holds a whole output several times over with no
// limit: ReadUntilPrompt appends every read to one buffer, SendInputB
// appends that to another, processOut and Response.Result copy it again
// (scrapligo v1.4.3 channel/read.go, channel/sendinput.go). Once the
// session is open (commandMode), every byte read goes to the running
// command's capture (output.go), which holds a bounded amount in memory and
// ends at the prompt, or is dropped between commands; scrapligo's read loop
// gets nothing more.
type sshTransport struct {
	ctx              context.Context
	config           func(remote net.Addr) (*ssh.ClientConfig, func(), error)
	handshakeTimeout time.Duration
	// jump, when set, is the jump host the device is reached through
	// (jump.go); jumpConn and jumpClient are its connection.
	jump       *jumpRoute
	jumpConn   net.Conn
	jumpClient *ssh.Client

	conn    net.Conn
	client  *ssh.Client
	session *ssh.Session
	stdin   io.WriteCloser
	stdout  io.Reader
	stop    func() bool // unregisters the ctx watcher

	mu      sync.Mutex
	closed  bool
	openErr error // the handshake error, with its type, for describeOpenError
	// commands is set once the shell is at its prompt; cap is the running
	// command's capture, nil between commands.
	commands bool
	cap      *cmdOutput
	buf      []byte
}

func (t *sshTransport) Open(a *transport.Args) error {
	addr := net.JoinHostPort(a.Host, strconv.Itoa(a.Port))
	var conn net.Conn
	var err error
	if t.jump != nil {
		conn, err = t.dialJump(addr)
	} else {
		d := net.Dialer{Timeout: t.handshakeTimeout}
		conn, err = d.DialContext(t.ctx, "tcp", addr)
	}
	if err != nil {
		_ = t.Close()
		return t.fail(err)
	}
	// Until the shell runs, the deadline bounds every handshake read and
	// write (through a jump host, the jump connection's deadline does:
	// its channels have none); ctx closes the connection whenever it ends.
	_ = conn.SetDeadline(time.Now().Add(t.handshakeTimeout))
	t.mu.Lock()
	t.conn = conn
	t.mu.Unlock()
	stop := context.AfterFunc(t.ctx, func() { _ = t.Close() })
	t.mu.Lock()
	t.stop = stop
	t.mu.Unlock()

	cfg, release, err := t.config(conn.RemoteAddr())
	if err != nil {
		_ = t.Close()
		return t.fail(err)
	}
	c, chans, reqs, err := ssh.NewClientConn(conn, addr, cfg)
	release() // the agent connection is only needed for the handshake
	if err != nil {
		_ = t.Close()
		return t.fail(err)
	}
	t.mu.Lock()
	t.client = ssh.NewClient(c, chans, reqs)
	t.mu.Unlock()
	if err := t.startShell(a); err != nil {
		_ = t.Close()
		return t.fail(fmt.Errorf("starting the remote shell: %w", err))
	}
	_ = conn.SetDeadline(time.Time{}) // commands are bounded by the op timeouts
	if t.jumpConn != nil {
		_ = t.jumpConn.SetDeadline(time.Time{})
	}
	return nil
}

func (t *sshTransport) fail(err error) error {
	if t.ctx.Err() != nil {
		err = t.ctx.Err()
	}
	t.openErr = err
	return err
}

func (t *sshTransport) startShell(a *transport.Args) error {
	s, err := t.client.NewSession()
	if err != nil {
		return err
	}
	t.mu.Lock()
	t.session = s
	t.mu.Unlock()
	if t.stdin, err = s.StdinPipe(); err != nil {
		return err
	}
	if t.stdout, err = s.StdoutPipe(); err != nil {
		return err
	}
	modes := ssh.TerminalModes{ssh.ECHO: 1, ssh.TTY_OP_ISPEED: 115200, ssh.TTY_OP_OSPEED: 115200}
	if err := s.RequestPty(termType, a.TermHeight, a.TermWidth, modes); err != nil {
		return err
	}
	return s.Shell()
}

// Close may be called by scrapligo, by the ctx watcher and by Open, in any
// order and more than once.
func (t *sshTransport) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil
	}
	t.closed = true
	if t.stop != nil {
		t.stop()
	}
	if t.session != nil {
		_ = t.session.Close()
	}
	if t.client != nil {
		_ = t.client.Close()
	}
	if t.conn != nil {
		_ = t.conn.Close()
	}
	if t.jumpClient != nil {
		_ = t.jumpClient.Close()
	}
	if t.jumpConn != nil {
		_ = t.jumpConn.Close()
	}
	return nil
}

func (t *sshTransport) IsAlive() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.session != nil && !t.closed
}

// Read is called by scrapligo's read loop only. Before commandMode it
// passes what the device sent on; after, it keeps reading into the running
// command's capture and returns only when the connection ends.
func (t *sshTransport) Read(n int) ([]byte, error) {
	if t.stdout == nil {
		return nil, io.EOF
	}
	if t.buf == nil {
		t.buf = make([]byte, max(n, readSize))
	}
	for {
		m, err := t.stdout.Read(t.buf)
		if m > 0 {
			// Who gets the bytes is decided when they arrive: the
			// echo of the first command may come while this read
			// was started before commandMode.
			t.mu.Lock()
			c, commands := t.cap, t.commands
			t.mu.Unlock()
			switch {
			case c != nil:
				c.feed(t.buf[:m])
			case !commands:
				return append([]byte(nil), t.buf[:m]...), nil // a reader repeats its error on the next call
			}
		}
		if err == nil {
			if m == 0 && !t.isCommandMode() {
				return nil, nil
			}
			continue
		}
		t.mu.Lock()
		if t.cap != nil {
			t.cap.fail(errConnLost)
		}
		t.mu.Unlock()
		// scrapligo's read loop ends quietly on io.EOF only; a closed
		// connection is the same thing to it.
		if errors.Is(err, net.ErrClosed) {
			err = io.EOF
		}
		return nil, err
	}
}

func (t *sshTransport) isCommandMode() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.commands
}

// commandMode hands every byte read from now on to the commands' captures.
func (t *sshTransport) commandMode() {
	t.mu.Lock()
	t.commands = true
	t.mu.Unlock()
}

// startCapture makes c the capture of what arrives from now on.
func (t *sshTransport) startCapture(c *cmdOutput) {
	t.mu.Lock()
	t.cap = c
	closed := t.closed
	t.mu.Unlock()
	if closed {
		c.fail(errConnLost)
	}
}

// stopCapture ends the capture: what arrives next is dropped.
func (t *sshTransport) stopCapture(c *cmdOutput, err error) {
	t.mu.Lock()
	if t.cap == c {
		t.cap = nil
	}
	t.mu.Unlock()
	c.fail(err)
}

func (t *sshTransport) Write(b []byte) error {
	if t.stdin == nil {
		return io.ErrClosedPipe
	}
	_, err := t.stdin.Write(b)
	return err
}
