package live

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/scrapli/scrapligo/driver/generic"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/util"
)

// loginPrompt finds the first prompt after login (scrapligo
// v1.4.3 channel/channel.go: its default pattern has no '~'): bash's default PS1 \u@\h:\w\$
// on hosts (user@gpu01:~$ or root@gpu01:~#) and Cumulus Linux 5's
// user@leaf01:mgmt:~$ with the VRF segment or user@leaf01:~$ without it
// (CL docs, e.g. CumulusNetworks/docs content/cumulus-linux-514/System-Configuration/NVIDIA-User-Experience-NVUE/NVUE-CLI.md). It is not anchored at the line start: what
// scrapligo's ANSI filter leaves of an xterm title escape before the
// prompt (Debian's .bashrc) stays on the prompt's line.
var loginPrompt = regexp.MustCompile(`(?m)[A-Za-z0-9_.\-]+@[A-Za-z0-9_.\-]+:(?:[A-Za-z0-9_.\-]+:)?[~/]\S*[#$][ \t]*$`)

const (
	// termWidth keeps the pty from wrapping the echo of a long command (the
	// sysfs read of 8 NICs is ~7 KB): a wrapped echo is not the command.
	termWidth = 32767
	readSize  = 64 << 10
)

// session is one logged-in shell on one device.
type session struct {
	drv     *generic.Driver
	tr      *sshTransport
	ctx     context.Context
	prompt  string // as scrapligo sees it, without trailing blanks
	timeout time.Duration
	// maxOutput is --max-output: the most one command may print.
	maxOutput int64
	sent      int
}

// readDelay is scrapligo's pause between polls of its read queue.
const readDelay = time.Millisecond

// openSession connects, logs in and syncs to the prompt.
func openSession(ctx context.Context, dv *device, l *login, timeout time.Duration, maxOutput int64) (*session, error) {
	addr := dv.hostPort()
	if maxOutput <= 0 {
		maxOutput = DefaultMaxOutput
	}
	s := &session{ctx: ctx, timeout: timeout, maxOutput: maxOutput}
	route, err := l.jumpRoute(dv.creds.JumpHost)
	if err != nil {
		return nil, err
	}
	s.tr = &sshTransport{ctx: ctx, config: l.clientConfig(addr), handshakeTimeout: timeout, jump: route}
	drv, err := generic.NewDriver(dv.addr,
		options.WithCustomTransport(s.tr),
		options.WithPort(dv.port),
		options.WithPromptPattern(loginPrompt),
		options.WithTimeoutOps(timeout),
		options.WithTermWidth(termWidth),
		options.WithTransportReadSize(readSize),
		// scrapligo polls its read queue, sleeping ReadDelay between polls
		// (250µs by default, channel/read.go). A hundred devices waiting
		// on a slow command then wake the CPU 400,000 times a second;
		// 1ms costs a millisecond per output and a quarter of that.
		options.WithReadDelay(readDelay),
		// A banner could hold the first command's letters in order, which
		// scrapligo's fuzzy echo match would take for its echo (scrapligo
		// v1.4.3 channel/read.go ReadUntilFuzzy): read up to the prompt before sending anything.
		options.WithOnOpen(s.syncPrompt),
	)
	if err != nil {
		return nil, fmt.Errorf("scrapligo: %v", err)
	}
	s.drv = drv
	if err := drv.Open(); err != nil {
		_ = s.tr.Close()
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case s.tr.openErr != nil:
			var je *jumpError
			if errors.As(s.tr.openErr, &je) {
				return nil, errors.New(je.describe(timeout))
			}
			msg := describeOpenError(s.tr.openErr, addr, l, timeout)
			if route != nil {
				msg += " (through jump host " + route.host.String() + ")"
			}
			return nil, errors.New(msg)
		case errors.Is(err, util.ErrTimeoutError):
			return nil, fmt.Errorf("logged in to %s, but no shell prompt (user@host:~$ or user@host:mgmt:~$) came within %s", addr, timeout)
		}
		return nil, fmt.Errorf("logged in to %s, but the connection ended before the prompt: %v", addr, err)
	}
	s.tr.commandMode()
	return s, nil
}

// syncPrompt reads the login prompt and then waits for exactly that prompt
// at the very end of what was read: a prompt-like line inside an output
// must not end a command early.
func (s *session) syncPrompt(d *generic.Driver) error {
	p, err := d.GetPrompt()
	if err != nil {
		return err
	}
	s.prompt = strings.TrimRight(p, " \t\n")
	if s.prompt == "" {
		return errors.New("empty prompt")
	}
	d.Channel.PromptPattern = regexp.MustCompile(regexp.QuoteMeta(s.prompt) + `[ \t]*\z`)
	return nil
}

// close drops the connection without a word: `exit` is not on the
// allowlist. Closing the transport first ends scrapligo's blocked read, so
// the driver's Close does not wait out its grace period.
func (s *session) close() {
	_ = s.tr.Close()
	if s.drv != nil {
		_ = s.drv.Close()
	}
}

// cmdError is a command that gave no usable output. fatal means the
// session is gone (or stuck) and nothing more can be collected from it.
type cmdError struct {
	fatal bool
	msg   string
}

func (e *cmdError) Error() string { return e.msg }

// run is the only way a command reaches a device: anything devcmd does not
// allow is refused before a byte is written.
func (s *session) run(cmd string) ([]byte, error) {
	if err := devcmd.Check(cmd); err != nil {
		return nil, &cmdError{msg: fmt.Sprintf("refused to send %q: %v", cmd, err)}
	}
	if s.ctx.Err() != nil {
		return nil, s.ctx.Err()
	}
	timeout, capped := s.timeout, false
	if dl, ok := s.ctx.Deadline(); ok && time.Until(dl) < timeout {
		timeout, capped = time.Until(dl), true
	}
	raw, err := s.send(cmd, timeout)
	switch {
	case s.ctx.Err() != nil:
		return nil, s.ctx.Err()
	case errors.Is(err, errTimeout) && capped:
		// The device's budget ran out, whichever timer fired first.
		return nil, context.DeadlineExceeded
	case errors.Is(err, errTimeout):
		return nil, &cmdError{fatal: true, msg: fmt.Sprintf("`%s` did not finish within %s (the command hangs or the device stopped answering)", cmd, timeout.Round(time.Millisecond))}
	case errors.Is(err, errOverMax):
		// The rest of the output is still on its way: the session
		// cannot be used for another command, so the device fails.
		return nil, &cmdError{fatal: true, msg: fmt.Sprintf("`%s`: output over --max-output %d bytes", cmd, s.maxOutput)}
	case errors.Is(err, errConnLost):
		return nil, &cmdError{fatal: true, msg: fmt.Sprintf("connection lost during `%s` (closed by the device or the network)", cmd)}
	case err != nil:
		return nil, &cmdError{fatal: true, msg: fmt.Sprintf("`%s`: %v", cmd, err)}
	}
	out, err := extractOutput(raw, cmd, s.prompt)
	if err != nil {
		return nil, &cmdError{msg: fmt.Sprintf("`%s`: %v", cmd, err)}
	}
	return out, nil
}

// errTimeout is a command whose prompt did not come back in time.
var errTimeout = errors.New("timeout")

// send types cmd and returns the raw stream up to the next prompt.
func (s *session) send(cmd string, timeout time.Duration) ([]byte, error) {
	c := newCapture(s.maxOutput, cmd, s.prompt)
	s.tr.startCapture(c)
	s.sent++
	if err := s.tr.Write([]byte(cmd + "\n")); err != nil {
		s.tr.stopCapture(c, errConnLost)
		return nil, errConnLost
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-c.done:
	case <-timer.C:
		s.tr.stopCapture(c, errTimeout)
	case <-s.ctx.Done():
		s.tr.stopCapture(c, s.ctx.Err())
	}
	s.tr.stopCapture(c, nil)
	return c.output()
}
