package live

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// describeOpenError turns a failed connect/handshake into the cause an
// operator can act on.
func describeOpenError(err error, addr string, l *login, timeout time.Duration) string {
	var (
		ke   *knownhosts.KeyError
		re   *knownhosts.RevokedError
		ne   net.Error
		oe   *net.OpError
		dial = errors.As(err, &oe) && oe.Op == "dial"
	)
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("connection refused by %s (is SSH listening on that port?)", addr)
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return fmt.Sprintf("%s is unreachable: %v", addr, unwrapPath(err))
	case dial && errors.As(err, &ne) && ne.Timeout():
		return fmt.Sprintf("cannot connect to %s: no answer within %s", addr, timeout)
	case dial:
		return fmt.Sprintf("cannot connect to %s: %v", addr, oe.Err)
	case errors.As(err, &ke) && len(ke.Want) > 0:
		return fmt.Sprintf("host key mismatch: %s presented %s, but known_hosts has another key for it (%s); "+
			"replace that entry if the device was reinstalled, otherwise suspect a man in the middle",
			addr, l.offeredKey(), knownAt(ke.Want))
	case errors.As(err, &ke):
		return fmt.Sprintf("unknown host key: %s presented %s, which is not in %s (add it with ssh-keyscan after checking it)",
			addr, l.offeredKey(), l.keys.file)
	case errors.As(err, &re):
		return fmt.Sprintf("host key of %s is revoked in %s (%s)", addr, l.keys.file, knownAt([]knownhosts.KnownKey{re.Revoked}))
	case strings.Contains(err.Error(), "unable to authenticate"):
		msg := fmt.Sprintf("authentication failed as %q (tried %s)", l.user, strings.Join(l.tried, ", "))
		if len(l.problems) > 0 {
			msg += "; also: " + strings.Join(l.problems, "; ")
		}
		return msg
	case errors.As(err, &ne) && ne.Timeout():
		return fmt.Sprintf("SSH handshake with %s did not finish within %s", addr, timeout)
	case errors.Is(err, io.EOF), errors.Is(err, syscall.ECONNRESET):
		return fmt.Sprintf("%s closed the connection during the SSH handshake", addr)
	}
	return fmt.Sprintf("SSH to %s: %v", addr, err)
}

func (l *login) offeredKey() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.offered == nil {
		return "a key"
	}
	return fmt.Sprintf("%s key %s", l.offered.Type(), ssh.FingerprintSHA256(l.offered))
}

func knownAt(keys []knownhosts.KnownKey) string {
	var at []string
	for _, k := range keys {
		at = append(at, fmt.Sprintf("%s line %d, %s", k.Filename, k.Line, k.Key.Type()))
	}
	return strings.Join(at, ", ")
}
