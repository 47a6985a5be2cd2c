package inventory

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// JumpNone is the jump_host value that turns a default jump host off for
// a group or a device, as ssh_config(5) ProxyJump says: "Setting the host
// to none disables this option entirely" (https://man.openbsd.org/ssh_config).
const JumpNone = "none"

// JumpHost is one SSH jump host: OpenSSH's ProxyJump, which ssh_config(5)
// describes as "Specifies one or more jump proxies as either
// [user@]host[:port] or an ssh URI. ... Setting this option will cause
// ssh(1) to connect to the target host by first making a ssh(1) connection
// to the specified ProxyJump host and then establishing a TCP forwarding
// to the ultimate target from there" (https://man.openbsd.org/ssh_config).
// qoslint takes one [user@]host[:port]: chains of jump hosts and ssh://
// URIs are refused by name.
type JumpHost struct {
	// User logs in to the jump host; "" means the device's username.
	User string
	// Host is an IP address or a host name.
	Host string
	// Port is 22 unless written.
	Port int
}

// String is the jump host as the inventory writes it, with the port.
func (j JumpHost) String() string {
	hp := j.Addr()
	if j.User != "" {
		return j.User + "@" + hp
	}
	return hp
}

// Addr is host:port, IPv6 in brackets.
func (j JumpHost) Addr() string {
	h := j.Host
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	return h + ":" + strconv.Itoa(j.Port)
}

// ParseJumpHost reads [user@]host[:port]; an IPv6 address with a port is
// written in brackets ([2001:db8::1]:2222). The error never repeats what
// was written before an '@', in case a password was put there.
func ParseJumpHost(s string) (JumpHost, error) {
	j := JumpHost{Port: 22}
	switch {
	case s == "":
		return j, errors.New("is empty (want [user@]host[:port], or none)")
	case strings.Contains(s, "://"):
		return j, errors.New("ssh:// URIs are not supported (write [user@]host[:port])")
	case strings.Contains(s, ","):
		return j, errors.New("names several jump hosts: only one jump host is supported")
	case strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f }):
		return j, errors.New("must not contain spaces or control characters")
	}
	rest := s
	if at := strings.LastIndexByte(s, '@'); at >= 0 {
		j.User, rest = s[:at], s[at+1:]
		if !userName.MatchString(j.User) {
			return j, errors.New("has an invalid user before '@' (want 1-32 letters, digits, '_', '.' or '-', starting with a letter or '_'; it is not shown in case it is a password)")
		}
	}
	host, port := rest, ""
	switch {
	case strings.HasPrefix(rest, "["):
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return j, fmt.Errorf("%q: '[' without ']'", rest)
		}
		host = rest[1:end]
		switch after := rest[end+1:]; {
		case after == "":
		case strings.HasPrefix(after, ":"):
			port = after[1:]
		default:
			return j, fmt.Errorf("%q: want [address]:port", rest)
		}
		if a, err := netip.ParseAddr(host); err != nil || !a.Is6() {
			return j, fmt.Errorf("%q: only an IPv6 address goes in brackets", rest)
		}
	case strings.Count(rest, ":") == 1:
		host, port, _ = strings.Cut(rest, ":")
	case strings.Count(rest, ":") > 1:
		// A bare IPv6 address, which cannot carry a port.
		if _, err := netip.ParseAddr(rest); err != nil {
			return j, fmt.Errorf("%q: an IPv6 address with a port is written [address]:port", rest)
		}
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return j, fmt.Errorf("%q: port %q is not 1..65535", rest, port)
		}
		j.Port = n
	}
	_, ipErr := netip.ParseAddr(host)
	if ipErr == nil && !ipChars.MatchString(host) {
		return j, fmt.Errorf("%q: %q is not an IP address or a host name", rest, host)
	}
	if ipErr != nil && (host == "" || len(host) > 253 || !hostName.MatchString(host)) {
		return j, fmt.Errorf("%q: %q is not an IP address or a host name", rest, host)
	}
	if host == JumpNone {
		return j, errors.New("none turns the jump host off and takes no user or port")
	}
	j.Host = host
	return j, nil
}

// checkJumpHost validates a jump_host value; "none" is kept for the merge.
func checkJumpHost(key string, f field[string], p *problems) string {
	if f.V == JumpNone {
		return f.V
	}
	if _, err := ParseJumpHost(f.V); err != nil {
		p.semantic(f.Line, "%s %s", key, err)
		return ""
	}
	return f.V
}
