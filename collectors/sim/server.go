package sim

import (
	"bytes"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"time"

	"golang.org/x/crypto/ssh"
)

// handshakeTimeout frees the goroutine of a client that connects and never
// finishes logging in.
const handshakeTimeout = 30 * time.Second

var errAuth = errors.New("permission denied")

// serverConfig is shared by every device; deny builds the one for
// Fault.AuthFail, which offers the same methods and accepts nothing.
func (f *Fabric) serverConfig(deny bool) *ssh.ServerConfig {
	cfg := &ssh.ServerConfig{ServerVersion: "SSH-2.0-qoslint_sim"}
	if f.opt.Password != "" {
		want := []byte(f.opt.Password)
		cfg.PasswordCallback = func(c ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
			okUser := subtle.ConstantTimeCompare([]byte(c.User()), []byte(f.opt.User)) == 1
			okPass := subtle.ConstantTimeCompare(pw, want) == 1
			if deny || !okUser || !okPass {
				return nil, errAuth
			}
			return nil, nil
		}
	}
	if len(f.opt.AuthorizedKeys) > 0 {
		cfg.PublicKeyCallback = func(c ssh.ConnMetadata, k ssh.PublicKey) (*ssh.Permissions, error) {
			if deny || c.User() != f.opt.User {
				return nil, errAuth
			}
			for _, ak := range f.opt.AuthorizedKeys {
				if bytes.Equal(ak.Marshal(), k.Marshal()) {
					return nil, nil
				}
			}
			return nil, errAuth
		}
	}
	cfg.AddHostKey(f.signer)
	return cfg
}

func (f *Fabric) accept(d *device) {
	defer f.wg.Done()
	for {
		nc, err := d.ln.Accept()
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return // listener closed
		}
		if !f.track(nc) {
			_ = nc.Close()
			return
		}
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			defer f.untrack(nc)
			defer nc.Close()
			d.serve(nc)
		}()
	}
}

// serve runs one TCP connection.
func (d *device) serve(nc net.Conn) {
	switch {
	case d.fault.Refuse:
		return
	case d.fault.Silent:
		// Read until the peer gives up or Close drops the connection.
		_, _ = io.Copy(io.Discard, nc)
		return
	}
	_ = nc.SetDeadline(time.Now().Add(handshakeTimeout))
	sc, chans, reqs, err := ssh.NewServerConn(nc, d.cfg)
	if err != nil {
		return // failed login or handshake
	}
	_ = nc.SetDeadline(time.Time{})
	defer sc.Close()
	d.f.wg.Add(1)
	go func() {
		defer d.f.wg.Done()
		ssh.DiscardRequests(reqs) // keepalive@openssh.com and the like
	}()
	for nch := range chans {
		if nch.ChannelType() != "session" {
			_ = nch.Reject(ssh.UnknownChannelType, "only session channels")
			continue
		}
		ch, chReqs, err := nch.Accept()
		if err != nil {
			continue
		}
		d.f.wg.Add(1)
		go func() {
			defer d.f.wg.Done()
			s := &session{d: d, nc: nc, ch: ch, gone: make(chan struct{})}
			s.handle(chReqs)
		}()
	}
}

// session is one SSH session channel.
type session struct {
	d    *device
	nc   net.Conn
	ch   ssh.Channel
	pty  bool
	gone chan struct{} // closed when the client closed the channel
}

func (s *session) handle(reqs <-chan *ssh.Request) {
	defer s.ch.Close()
	// x/crypto closes the requests channel once the peer closed the
	// channel; a stdin EOF is not the end of the session.
	defer close(s.gone)
	started := false
	for req := range reqs {
		switch req.Type {
		case "pty-req":
			s.pty = true
			_ = req.Reply(true, nil)
		case "env", "window-change":
			_ = req.Reply(true, nil)
		case "shell", "exec":
			if started {
				_ = req.Reply(false, nil)
				continue
			}
			var cmd string
			if req.Type == "exec" {
				// RFC 4254 §6.5: the payload is an SSH string, uint32 length then bytes.
				p := req.Payload
				if len(p) < 4 || uint64(binary.BigEndian.Uint32(p)) > uint64(len(p)-4) {
					_ = req.Reply(false, nil)
					continue
				}
				cmd = string(p[4 : 4+binary.BigEndian.Uint32(p)])
			}
			started = true
			_ = req.Reply(true, nil)
			// The requests channel must keep being drained (window-change
			// during a shell), so the work runs beside this loop.
			s.d.f.wg.Add(1)
			go func(shell bool) {
				defer s.d.f.wg.Done()
				if shell {
					s.shell()
				} else {
					s.exec(cmd)
				}
			}(req.Type == "shell")
		default:
			_ = req.Reply(false, nil)
		}
	}
}

// exit sends the exit status and closes the channel, as sshd does when the
// session's process ends (RFC 4254 §6.10).
func (s *session) exit(code uint32) {
	_, _ = s.ch.SendRequest("exit-status", false, ssh.Marshal(struct{ C uint32 }{code}))
	_ = s.ch.Close()
}

// drop ends the whole connection, as a crashed device would: no exit
// status, no channel close. It half-closes first because closing a socket
// that still holds unread input sends a RST, which can make the peer's
// kernel discard the partial output we want it to see; the read deadline
// then ends the connection's reader, and serve closes the socket.
func (s *session) drop() {
	tc, ok := s.nc.(*net.TCPConn)
	if !ok {
		_ = s.nc.Close()
		return
	}
	_ = tc.CloseWrite()
	_ = tc.SetReadDeadline(time.Now().Add(time.Second))
}

// exec runs one command without a shell: the output is raw unless a pty
// was requested (then ONLCR applies and stderr is merged, as with a tty).
func (s *session) exec(cmd string) {
	r, ok := s.d.answer(cmd, !s.pty)
	if !ok {
		s.waitGone()
		return
	}
	if !s.emit(r.out, s.pty) {
		return
	}
	s.exit(r.code)
}

// waitGone blocks until the client closes the session or the fabric
// closes: a hung command never returns.
func (s *session) waitGone() {
	select {
	case <-s.gone:
	case <-s.d.f.done:
	}
}

// emit writes a command's output, applying Fault.DropAfter. crlf converts
// LF to CRLF (ONLCR) and merges stderr, as a pty does. It returns false
// when the connection was dropped.
func (s *session) emit(out []chunk, crlf bool) bool {
	left, cut := s.d.fault.DropAfter, s.d.fault.DropAfter > 0
	for _, c := range out {
		w := io.Writer(s.ch)
		if c.stderr && !crlf {
			w = s.ch.Stderr()
		}
		write := func(b []byte) bool {
			if crlf {
				b = onlcr(b)
			}
			if cut && len(b) > left {
				_, _ = w.Write(b[:left])
				s.drop()
				return false
			}
			left -= len(b)
			_, err := w.Write(b)
			return err == nil
		}
		if c.file == "" {
			if !write([]byte(c.text)) {
				return false
			}
			continue
		}
		if !streamFile(c.file, write) {
			return false
		}
	}
	return true
}

// streamFile passes a file to write in pieces; false when write gave up.
// A file that cannot be read any more ends early: the output is then cut
// short, as a device's would be.
func streamFile(name string, write func([]byte) bool) bool {
	f, err := os.Open(name)
	if err != nil {
		return true
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	for {
		n, err := f.Read(buf)
		if n > 0 && !write(buf[:n]) {
			return false
		}
		if err != nil {
			return true
		}
	}
}

// onlcr is the tty's output LF → CRLF translation (termios ONLCR).
func onlcr(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))
}
