package live

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/pem"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/inventory"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	"golang.org/x/crypto/ssh/knownhosts"
)

func newKey(t *testing.T) (ed25519.PrivateKey, ssh.PublicKey) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ssh.NewPublicKey(priv.Public())
	if err != nil {
		t.Fatal(err)
	}
	return priv, pub
}

// keyPEM encodes priv as OpenSSH PEM; with a passphrase it costs bcrypt's
// rounds (about 2 s under -race).
func keyPEM(t *testing.T, priv ed25519.PrivateKey, passphrase string) []byte {
	t.Helper()
	var blk *pem.Block
	var err error
	if passphrase == "" {
		blk, err = ssh.MarshalPrivateKey(priv, "test")
	} else {
		blk, err = ssh.MarshalPrivateKeyWithPassphrase(priv, "test", []byte(passphrase))
	}
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(blk)
}

// serveAgent runs an ssh-agent holding priv on a socket in a temp folder.
func serveAgent(t *testing.T, priv ed25519.PrivateKey) string {
	t.Helper()
	keyring := agent.NewKeyring()
	if err := keyring.Add(agent.AddedKey{PrivateKey: priv}); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _ = agent.ServeAgent(keyring, c); _ = c.Close() }()
		}
	}()
	return sock
}

// TestKeyAndAgentAuth logs in with a key file relative to the inventory's
// folder, and with a key only the agent holds; an encrypted key file is
// refused with the way out.
func TestKeyAndAgentAuth(t *testing.T) {
	filePriv, filePub := newKey(t)
	agentPriv, agentPub := newKey(t)
	p := startPod(t, cleanPod, sim.Options{AuthorizedKeys: []ssh.PublicKey{filePub, agentPub}})
	writeFile(t, filepath.Join(p.invDir, "keys", "id_file"), keyPEM(t, filePriv, ""))
	writeFile(t, filepath.Join(p.invDir, "keys", "id_enc"), keyPEM(t, filePriv, "phrase"))
	sock := serveAgent(t, agentPriv)
	p.inv.Switches, p.inv.Hosts = p.inv.Switches[:2], p.inv.Hosts[:1]
	user := sim.DefaultUser
	p.inv.SSH.Switches = inventory.Credentials{Username: user}
	p.inv.SSH.Hosts = inventory.Credentials{Username: user}
	p.inv.Switches[0].Credentials.KeyFile = "keys/id_file"
	p.inv.Switches[1].Credentials.Agent = true
	p.inv.Hosts[0].Credentials.KeyFile = "keys/id_enc"
	opt := p.options()
	opt.Getenv = env(map[string]string{"SSH_AUTH_SOCK": sock})
	r := Collect(context.Background(), p.inv, opt)
	for _, name := range []string{p.inv.Switches[0].Name, p.inv.Switches[1].Name} {
		// Two commands, or three for spine02 that prints no YAML.
		if s := status(t, r, name); s.Err != "" || s.Commands < 2 {
			t.Errorf("%s: %+v", name, s)
		}
	}
	h := status(t, r, p.inv.Hosts[0].Name)
	if !strings.Contains(h.Err, "key file keys/id_enc is passphrase-protected: add it to ssh-agent") {
		t.Errorf("encrypted key: %q", h.Err)
	}

	// Agent asked for but absent, and nothing else: say so.
	opt.Getenv = env(nil)
	p.inv.Switches, p.inv.Hosts = p.inv.Switches[1:2], nil
	r = Collect(context.Background(), p.inv, opt)
	if e := r.Status[0].Err; !strings.Contains(e, "SSH_AUTH_SOCK is not set") {
		t.Errorf("no agent: %q", e)
	}
}

// TestNoCredentials: a device with no way to log in names what is missing.
func TestNoCredentials(t *testing.T) {
	inv := &inventory.Inventory{Hosts: []inventory.Host{{Name: "gpu01", Address: "127.0.0.1"}}}
	inv.SSH.Hosts = inventory.Credentials{Username: "ops", PasswordEnv: "NOPE"}
	r := Collect(context.Background(), inv, Options{InsecureSkipHostKeyCheck: true, Getenv: env(nil)})
	if e := r.Status[0].Err; e != "gpu01: no usable SSH credentials: $NOPE (password_env) is empty or not set" {
		t.Errorf("Err %q", e)
	}
	inv.SSH.Hosts = inventory.Credentials{}
	r = Collect(context.Background(), inv, Options{InsecureSkipHostKeyCheck: true, Getenv: env(nil)})
	if e := r.Status[0].Err; !strings.HasPrefix(e, "gpu01: no SSH username") {
		t.Errorf("Err %q", e)
	}
}

// TestKnownAlgorithms: the host key algorithms asked for are those
// known_hosts holds for the peer (x/crypto v0.59.0 ssh/common.go
// defaultHostKeyAlgos), every RSA signature
// algorithm for an ssh-rsa key, and the default order for an unknown peer.
func TestKnownAlgorithms(t *testing.T) {
	_, edPub := newKey(t)
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecPub, _ := ssh.NewPublicKey(&ec.PublicKey)
	rk, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	rsaPub, _ := ssh.NewPublicKey(&rk.PublicKey)
	file := filepath.Join(t.TempDir(), "known_hosts")
	host := func(a string) string { return knownhosts.Normalize(a) }
	writeFile(t, file, []byte(strings.Join([]string{
		knownhosts.Line([]string{host("127.0.0.1:2222")}, edPub),
		knownhosts.Line([]string{host("127.0.0.1:2222")}, ecPub),
		knownhosts.Line([]string{host("127.0.0.1:2223")}, rsaPub),
	}, "\n")+"\n"))
	cb, err := knownhosts.New(file)
	if err != nil {
		t.Fatal(err)
	}
	remote := func(port int) net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port} }
	for _, tc := range []struct {
		addr string
		port int
		want []string
	}{
		{"127.0.0.1:2222", 2222, []string{ssh.KeyAlgoECDSA256, ssh.KeyAlgoED25519}},
		{"127.0.0.1:2223", 2223, []string{ssh.KeyAlgoRSASHA256, ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSA}},
		{"127.0.0.1:2224", 2224, nil},
	} {
		got := knownAlgorithms(cb, tc.addr, remote(tc.port))
		slices.Sort(tc.want)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.addr, got, tc.want)
		}
	}
}
