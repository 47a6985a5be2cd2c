package inventory

import (
	"path/filepath"
	"regexp"
	"strings"
)

var (
	// POSIX environment variable names (portable character set, IEEE Std
	// 1003.1 §8.1): what os.Getenv can look up from any shell's export.
	envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// Login names as shadow-utils' useradd accepts them by default, plus
	// upper case, at most 32 characters. The name reaches ssh as "-l user"
	// or "user@host": a leading '-' could be read as an option and '@',
	// ':' or whitespace would change the destination, so none may appear.
	userName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]{0,31}$`)
)

// Credential rules, the same for YAML and HCL, for ssh.switches, ssh.hosts
// and every device:
//
//   - port is 1..65535.
//   - username matches userName; password_env is an environment variable's
//     name, and a bad one is never echoed (it may be the password itself,
//     written in the wrong key).
//   - key_file and ssh.known_hosts are non-empty paths without control
//     characters and without a leading '-' (write ./-x for such a file).
//   - sudo may not be written for switches at all, true or false: switch
//     commands never need root.
//   - A key named password, secret, passphrase or token is refused wherever
//     it appears (secrets.go).

func buildSSH(raw rawSSH, p *problems) SSH {
	var s SSH
	if f := raw.KnownHosts; f.Set {
		s.KnownHosts = checkPath("ssh.known_hosts", f, p)
	}
	if f := raw.JumpHost; f.Set {
		s.JumpHost = checkJumpHost("ssh.jump_host", f, p)
	}
	s.Switches = buildCreds("ssh.switches", raw.Switches, true, p)
	s.Hosts = buildCreds("ssh.hosts", raw.Hosts, false, p)
	return s
}

// buildCreds validates one group's or device's settings; who names it in
// messages ("ssh.hosts", `switch "leaf01"`). A bad value is reported and
// left zero.
func buildCreds(who string, r rawCreds, switches bool, p *problems) Credentials {
	var c Credentials
	if f := r.Username; f.Set {
		if userName.MatchString(f.V) {
			c.Username = f.V
		} else {
			p.semantic(f.Line, "%s: invalid username %q (want 1-32 letters, digits, '_', '.' or '-', starting with a letter or '_')", who, f.V)
		}
	}
	if f := r.PasswordEnv; f.Set {
		if envName.MatchString(f.V) {
			c.PasswordEnv = f.V
		} else {
			p.semantic(f.Line, "%s: password_env must be the name of an environment variable "+
				"(letters, digits and '_', not starting with a digit); its value is not shown in case it is a password", who)
		}
	}
	if f := r.KeyFile; f.Set {
		c.KeyFile = checkPath(who+": key_file", f, p)
	}
	if f := r.Port; f.Set && inRange(p, f.Line, who+": port", f.V, 1, 65535) {
		c.Port = f.V
	}
	if f := r.JumpHost; f.Set {
		c.JumpHost = checkJumpHost(who+": jump_host", f, p)
	}
	c.Agent = r.Agent.Set && r.Agent.V
	if f := r.Sudo; f.Set {
		if switches {
			p.semantic(f.Line, "%s: sudo is not allowed for switches: switch commands never need root", who)
		} else {
			c.Sudo = f.V
		}
	}
	return c
}

// checkPath validates a file name that reaches ssh (-i, UserKnownHostsFile).
func checkPath(key string, f field[string], p *problems) string {
	switch {
	case f.V == "":
		p.semantic(f.Line, "%s must not be empty", key)
	case strings.ContainsFunc(f.V, isControl):
		p.semantic(f.Line, "%s %q must not contain control characters", key, f.V)
	case strings.HasPrefix(f.V, "-"):
		p.semantic(f.Line, "%s %q must not start with '-' (write ./%s)", key, f.V, f.V)
	default:
		return f.V
	}
	return ""
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// SwitchCredentials is how to log in to s: ssh.switches overlaid by the
// switch's own settings (see merge).
func (inv *Inventory) SwitchCredentials(s Switch) Credentials {
	return merge(inv.withJump(inv.SSH.Switches), s.Credentials)
}

// HostCredentials is how to log in to h: ssh.hosts overlaid by the host's
// own settings (see merge).
func (inv *Inventory) HostCredentials(h Host) Credentials {
	return merge(inv.withJump(inv.SSH.Hosts), h.Credentials)
}

// withJump is a group's defaults with ssh.jump_host where the group names
// no jump host of its own.
func (inv *Inventory) withJump(group Credentials) Credentials {
	if group.JumpHost == "" {
		group.JumpHost = inv.SSH.JumpHost
	}
	return group
}

// merge overlays a device's non-zero fields on its group's defaults, and
// sets Port to 22 when neither gives one.
//
// Agent and Sudo are plain bools, so a device's false cannot be told from a
// device that says nothing: a device can only turn them on. To have a
// device without sudo, leave sudo out of ssh.hosts and set it on the hosts
// that need it.
func merge(group, dev Credentials) Credentials {
	c := group
	if dev.Username != "" {
		c.Username = dev.Username
	}
	if dev.PasswordEnv != "" {
		c.PasswordEnv = dev.PasswordEnv
	}
	if dev.KeyFile != "" {
		c.KeyFile = dev.KeyFile
	}
	if dev.Port != 0 {
		c.Port = dev.Port
	}
	if c.Port == 0 {
		c.Port = 22
	}
	if dev.JumpHost != "" {
		c.JumpHost = dev.JumpHost
	}
	if c.JumpHost == JumpNone {
		c.JumpHost = ""
	}
	c.Agent = c.Agent || dev.Agent
	c.Sudo = c.Sudo || dev.Sudo
	return c
}

// KnownHostsPath is the known_hosts file to verify host keys against: a
// relative ssh.known_hosts is taken relative to invDir, the inventory
// file's folder. "" stays "" and means the user's default
// (~/.ssh/known_hosts); a path starting with '~' is returned as written,
// for the collector to expand as it does key files.
func (inv *Inventory) KnownHostsPath(invDir string) string {
	k := inv.SSH.KnownHosts
	if k == "" || filepath.IsAbs(k) || strings.HasPrefix(k, "~") {
		return k
	}
	return filepath.Join(invDir, k)
}
