package live

import (
	"context"
	"fmt"
	"net"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/qoslint/qoslint/inventory"
)

// A device with a jump_host is reached as OpenSSH's ProxyJump reaches it:
// "by first making a ssh(1) connection to the specified ProxyJump host and
// then establishing a TCP forwarding to the ultimate target from there"
// (ssh_config(5), https://man.openbsd.org/ssh_config). The forwarding is a
// direct-tcpip channel (RFC 4254 section 7.2) from x/crypto/ssh's
// Client.DialContext; the device's own SSH handshake, host key check and
// login then run inside it, end to end, exactly as on a direct connection.
//
// scrapligo's "standard" transport cannot be given that connection: it
// dials with ssh.Dial(tcp, host:port, cfg) itself (scrapligo v1.4.3
// transport/standard.go openSession) and has no dialer option. qoslint
// already plugs its own transport in with options.WithCustomTransport
// ("sets a custom, user provided, transport instead of one of the "core"
// transports", driver/options/transport.go), so the jump happens there
// (sshTransport.Open).
//
// The jump host gets no session and no command: only the forwarding. Its
// host key is checked against the same known_hosts file as the devices'
// (the same --insecure-skip-host-key-check turns both off), and it is
// logged in to with the device's credential sources (key_file, agent,
// password_env) as the user written before '@', else the device's.

// jumpRoute is the jump host of one device and how to log in to it.
type jumpRoute struct {
	host  inventory.JumpHost
	login *login
}

// jumpRoute is nil for a direct connection.
func (l *login) jumpRoute(spec string) (*jumpRoute, error) {
	if spec == "" {
		return nil, nil
	}
	j, err := inventory.ParseJumpHost(spec)
	if err != nil {
		return nil, fmt.Errorf("jump_host %v", err)
	}
	jl := &login{user: l.user, methods: l.methods, tried: l.tried, problems: l.problems, agentSock: l.agentSock, secrets: l.secrets, keys: l.keys}
	if j.User != "" {
		jl.user = j.User
	}
	return &jumpRoute{host: j, login: jl}, nil
}

// jumpError is a failure before the device's own handshake: reaching or
// logging in to the jump host (forward false), or the jump host's
// forwarding to the device (forward true).
type jumpError struct {
	route   *jumpRoute
	target  string
	forward bool
	err     error
}

func (e *jumpError) Error() string { return e.err.Error() }
func (e *jumpError) Unwrap() error { return e.err }

// describe names the jump host, then the cause as a direct connection's
// would be told.
func (e *jumpError) describe(timeout time.Duration) string {
	at := "jump host " + e.route.host.String()
	if e.forward {
		return fmt.Sprintf("%s would not forward to %s: %v", at, e.target, e.err)
	}
	return at + ": " + describeOpenError(e.err, e.route.host.Addr(), e.route.login, timeout)
}

// dialJump logs in to the jump host and opens a forwarded connection to
// target. The jump connection keeps the handshake deadline until Open
// clears it, which bounds the device's handshake through it too.
func (t *sshTransport) dialJump(target string) (net.Conn, error) {
	r := t.jump
	fail := func(forward bool, err error) error {
		if t.ctx.Err() != nil {
			return t.ctx.Err()
		}
		return &jumpError{route: r, target: target, forward: forward, err: err}
	}
	addr := r.host.Addr()
	d := net.Dialer{Timeout: t.handshakeTimeout}
	raw, err := d.DialContext(t.ctx, "tcp", addr)
	if err != nil {
		return nil, fail(false, err)
	}
	_ = raw.SetDeadline(time.Now().Add(t.handshakeTimeout))
	t.mu.Lock()
	t.jumpConn = raw
	t.mu.Unlock()
	stop := context.AfterFunc(t.ctx, func() { _ = raw.Close() })
	defer stop()
	cfg, release, err := r.login.clientConfig(addr)(raw.RemoteAddr())
	if err != nil {
		return nil, fail(false, err)
	}
	c, chans, reqs, err := ssh.NewClientConn(raw, addr, cfg)
	release()
	if err != nil {
		return nil, fail(false, err)
	}
	client := ssh.NewClient(c, chans, reqs)
	t.mu.Lock()
	t.jumpClient = client
	t.mu.Unlock()
	conn, err := client.DialContext(t.ctx, "tcp", target)
	if err != nil {
		return nil, fail(true, err)
	}
	return conn, nil
}
