package live

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/qoslint/qoslint/inventory"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	"golang.org/x/crypto/ssh/knownhosts"
)

// hostKeys is the host key policy of one collection: a known_hosts file,
// or the explicit opt-out.
type hostKeys struct {
	file     string
	callback ssh.HostKeyCallback // nil with insecure
	insecure bool
	err      error // the known_hosts file could not be read
}

func loadHostKeys(inv *inventory.Inventory, opt Options) *hostKeys {
	if opt.InsecureSkipHostKeyCheck {
		return &hostKeys{insecure: true}
	}
	file := inv.KnownHostsPath(opt.InventoryDir)
	if file == "" {
		file = "~/.ssh/known_hosts" // OpenSSH's UserKnownHostsFile default
	}
	file, err := expandHome(file)
	if err != nil {
		return &hostKeys{file: file, err: fmt.Errorf("known_hosts file: %w", err)}
	}
	cb, err := knownhosts.New(file)
	if err != nil {
		return &hostKeys{file: file, err: fmt.Errorf("cannot read the known_hosts file %s: %w", file, unwrapPath(err))}
	}
	return &hostKeys{file: file, callback: cb}
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// login is how one device is logged in to. Its secrets are kept so that
// every message about the device can be scrubbed of them.
type login struct {
	user      string
	methods   []ssh.AuthMethod
	tried     []string // what the methods are, for an auth failure message
	problems  []string // credential sources that could not be used
	agentSock string
	secrets   []string
	keys      *hostKeys

	mu      sync.Mutex
	offered ssh.PublicKey // the host key the device presented
}

func newLogin(c inventory.Credentials, keys *hostKeys, opt Options) (*login, error) {
	l := &login{user: c.Username, keys: keys}
	if l.user == "" {
		return nil, errors.New("no SSH username: set username in the inventory's ssh section or on the device")
	}
	if c.Agent {
		if sock := opt.Getenv("SSH_AUTH_SOCK"); sock != "" {
			l.agentSock = sock
			l.tried = append(l.tried, "ssh-agent")
		} else {
			l.problems = append(l.problems, "agent is on but SSH_AUTH_SOCK is not set")
		}
	}
	if c.KeyFile != "" {
		if signer, err := readKey(c.KeyFile, opt.InventoryDir); err != nil {
			l.problems = append(l.problems, err.Error())
		} else {
			l.methods = append(l.methods, ssh.PublicKeys(signer))
			l.tried = append(l.tried, "key file "+c.KeyFile)
		}
	}
	if c.PasswordEnv != "" {
		if pw := opt.Getenv(c.PasswordEnv); pw != "" {
			l.secrets = append(l.secrets, pw)
			answer := func(_, _ string, qs []string, _ []bool) ([]string, error) {
				out := make([]string, len(qs))
				for i := range out {
					out[i] = pw
				}
				return out, nil
			}
			l.methods = append(l.methods, ssh.Password(pw), ssh.KeyboardInteractive(answer))
			l.tried = append(l.tried, "password from $"+c.PasswordEnv)
		} else {
			l.problems = append(l.problems, "$"+c.PasswordEnv+" (password_env) is empty or not set")
		}
	}
	if len(l.tried) == 0 {
		msg := "no usable SSH credentials (set password_env, key_file or agent)"
		if len(l.problems) > 0 {
			msg = "no usable SSH credentials: " + strings.Join(l.problems, "; ")
		}
		return nil, errors.New(msg)
	}
	return l, nil
}

// readKey loads an unencrypted private key. A passphrase cannot be asked
// for while 32 devices are collected at once; the agent is the way to use
// an encrypted key.
func readKey(file, invDir string) (ssh.Signer, error) {
	path, err := expandHome(file)
	if err != nil {
		return nil, fmt.Errorf("key file %s: %v", file, err)
	}
	if !filepath.IsAbs(path) && invDir != "" {
		path = filepath.Join(invDir, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("key file %s: %v", file, unwrapPath(err))
	}
	signer, err := ssh.ParsePrivateKey(data)
	var pm *ssh.PassphraseMissingError
	switch {
	case errors.As(err, &pm):
		return nil, fmt.Errorf("key file %s is passphrase-protected: add it to ssh-agent and set agent: true", file)
	case err != nil:
		return nil, fmt.Errorf("key file %s: %v", file, err)
	}
	return signer, nil
}

// expandHome expands a leading "~/" (the inventory keeps paths as
// written, the shell is not there to expand them).
func expandHome(p string) (string, error) {
	rest, ok := strings.CutPrefix(p, "~/")
	if !ok && p != "~" {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return p, err
	}
	return filepath.Join(home, rest), nil
}

// clientConfig builds the handshake's config once the TCP peer is known
// (known_hosts may name the peer by address). release closes the agent
// connection, which only the handshake uses.
func (l *login) clientConfig(addr string) func(net.Addr) (*ssh.ClientConfig, func(), error) {
	return func(remote net.Addr) (*ssh.ClientConfig, func(), error) {
		cfg := &ssh.ClientConfig{User: l.user, Auth: slices.Clone(l.methods)}
		release := func() {}
		if l.agentSock != "" {
			conn, err := net.DialTimeout("unix", l.agentSock, 5*time.Second)
			if err != nil {
				l.problems = append(l.problems, fmt.Sprintf("ssh-agent at $SSH_AUTH_SOCK: %v", unwrapPath(err)))
			} else {
				release = func() { _ = conn.Close() }
				// The agent's keys go first, as OpenSSH offers them.
				cfg.Auth = append([]ssh.AuthMethod{ssh.PublicKeysCallback(agent.NewClient(conn).Signers)}, cfg.Auth...)
			}
		}
		if l.keys.insecure {
			cfg.HostKeyCallback = ssh.InsecureIgnoreHostKey() // the caller opted out explicitly
			return cfg, release, nil
		}
		cfg.HostKeyCallback = func(host string, r net.Addr, key ssh.PublicKey) error {
			l.mu.Lock()
			l.offered = key
			l.mu.Unlock()
			return l.keys.callback(host, r, key)
		}
		cfg.HostKeyAlgorithms = knownAlgorithms(l.keys.callback, addr, remote)
		return cfg, release, nil
	}
}

var (
	probeOnce sync.Once
	probeKey  ssh.PublicKey
)

// knownAlgorithms lists the host key algorithms known_hosts holds for the
// peer, so that the server is asked for a key we can verify: x/crypto
// otherwise prefers ecdsa > rsa > ed25519 and reports a mismatch when the
// file holds only the peer's other key (x/crypto v0.59.0 ssh/common.go
// defaultHostKeyAlgos). knownhosts has
// no lookup, but checking a throwaway key returns a KeyError listing the
// known keys. nil (the default order) when the peer is unknown.
func knownAlgorithms(cb ssh.HostKeyCallback, addr string, remote net.Addr) []string {
	probeOnce.Do(func() {
		pub, _, err := ed25519.GenerateKey(nil)
		if err == nil {
			probeKey, _ = ssh.NewPublicKey(pub)
		}
	})
	if probeKey == nil {
		return nil
	}
	var ke *knownhosts.KeyError
	if !errors.As(cb(addr, remote, probeKey), &ke) {
		return nil
	}
	var algos []string
	for _, k := range ke.Want {
		t := k.Key.Type()
		if t == ssh.KeyAlgoRSA {
			// An ssh-rsa key signs with any of these (RFC 8332).
			algos = append(algos, ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256)
		}
		algos = append(algos, t)
	}
	slices.Sort(algos)
	return slices.Compact(algos)
}
