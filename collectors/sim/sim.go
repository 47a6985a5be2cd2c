// Package sim serves a fabric directory over real SSH on the loopback
// interface: every device of the inventory gets its own listener and
// answers qoslint's read-only commands from its files, through an
// interactive pty-like shell (what scrapligo drives) or plain exec. Latency
// and faults (auth failure, hang, cut output, garbage, refused or silent
// connections) can be injected per device, so live collectors are tested
// against real SSH and real sockets rather than mocks.
package sim

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/inventory"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

// DefaultUser is the login name when Options.User is empty.
const DefaultUser = "qoslint"

// Options configure a simulated fabric.
type Options struct {
	// Listen is the IP every device listens on (default 127.0.0.1). Only
	// loopback addresses are accepted: the simulator answers anyone who
	// knows the password, so it must never be reachable from elsewhere.
	Listen string
	// Latency is added before answering each command.
	Latency time.Duration
	// User is the login name (default DefaultUser).
	User string
	// Password is the login password; "" turns password auth off. It is
	// never logged or written anywhere.
	Password string
	// AuthorizedKeys are the client keys accepted for User.
	AuthorizedKeys []ssh.PublicKey
	// Faults are injected per device name.
	Faults map[string]Fault
	// Banner is printed at the start of every interactive shell (a MOTD).
	Banner string
	// GNMI also starts a gNMI server (Subscribe ONCE and STREAM) on every
	// switch, streaming devices/<switch>/gnmi-counters.json or a synthetic
	// baseline; it checks User/Password as gRPC metadata (sim/gnmi.go).
	GNMI bool
	// GNMITLS serves gNMI over TLS with a per-run CA (Fabric.GNMICAPEM).
	GNMITLS bool
}

// Fault is what goes wrong on one device.
type Fault struct {
	// AuthFail rejects every login.
	AuthFail bool
	// Hang is a command substring ("*" matches every command): once a
	// matching command arrives the device never answers a command again,
	// on any connection. Its shells keep echoing what is typed, as a pty
	// does while the foreground process is stuck, but print nothing else.
	Hang string
	// DropAfter closes the TCP connection after DropAfter bytes of a
	// command's output, when the output is longer (0: off).
	DropAfter int
	// Garbage is a command substring ("*" matches every command) whose
	// output is replaced with deterministic random-looking printable text.
	Garbage string
	// Fail is a command substring ("*" matches every command) that fails:
	// an error line on stderr and exit status 1 instead of its output
	// (on a SONiC switch, Fail "sonic-cfggen" makes the collector fall
	// back to `show runningconfiguration all`).
	Fail string
	// Delay is extra latency for this device.
	Delay time.Duration
	// Refuse accepts the TCP connection and closes it at once.
	Refuse bool
	// Silent accepts the TCP connection and never says anything, not even
	// the SSH version: what a client's handshake deadline is for.
	Silent bool
	// GNMIOnceUnimplemented answers a ONCE subscription with Unimplemented.
	GNMIOnceUnimplemented bool
	// GNMINoSync never sends sync_response.
	GNMINoSync bool
	// GNMICutAfter drops the gNMI connection after that many
	// notifications (0: off).
	GNMICutAfter int
}

// Device is one simulated device.
type Device struct {
	Name string
	Kind string // layout.KindSwitch or layout.KindHost
	Addr string // host:port to dial
	Port int
	// GNMIAddr is the switch's gNMI host:port ("" without Options.GNMI).
	GNMIAddr string
}

// Fabric is a running simulation. Its methods are safe for concurrent use.
type Fabric struct {
	inv    *inventory.Inventory
	opt    Options
	hostIP netip.Addr
	signer ssh.Signer
	devs   []*device
	byName map[string]*device
	gnmi   *gnmiFabric // nil without Options.GNMI
	// samples counts Advance calls: the synthetic ethtool counters grow
	// with it as the gNMI ones do.
	samples atomic.Int64

	done chan struct{} // closed by Close: ends sleeps and hangs
	wg   sync.WaitGroup

	mu     sync.Mutex
	closed bool
	conns  map[net.Conn]struct{}
}

// Start loads the inventory of the fabric in dir and starts one SSH
// listener per device on Options.Listen, each on a free port.
func Start(dir string, opt Options) (*Fabric, error) {
	ip, err := loopback(opt.Listen)
	if err != nil {
		return nil, err
	}
	if opt.User == "" {
		opt.User = DefaultUser
	}
	if opt.Password == "" && len(opt.AuthorizedKeys) == 0 {
		return nil, errors.New("sim: no way to log in: set a password or authorized keys")
	}
	if opt.GNMI && opt.Password == "" {
		return nil, errors.New("sim: gNMI logs in with a password: set one")
	}
	inv, err := inventory.Load(dir)
	if err != nil {
		return nil, err
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		return nil, err
	}
	f := &Fabric{
		inv: inv, opt: opt, hostIP: ip, signer: signer,
		byName: map[string]*device{},
		done:   make(chan struct{}),
		conns:  map[net.Conn]struct{}{},
	}
	for _, s := range inv.Switches {
		f.add(s.Name, layout.KindSwitch, dir).os = switchOS(s, filepath.Join(dir, layout.DevicesDir, s.Name))
	}
	for _, h := range inv.Hosts {
		f.add(h.Name, layout.KindHost, dir)
	}
	for _, d := range f.devs {
		d.prompt = prompt(d.kind, d.os, opt.User, d.name)
	}
	for name := range opt.Faults {
		if f.byName[name] == nil {
			return nil, fmt.Errorf("sim: fault for %q, which is not in the inventory", name)
		}
	}
	ok, fail := f.serverConfig(false), f.serverConfig(true)
	for _, d := range f.devs {
		ln, err := net.Listen("tcp", net.JoinHostPort(ip.String(), "0"))
		if err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("sim: listen for %s: %w", d.name, err)
		}
		d.ln = ln
		d.port = ln.Addr().(*net.TCPAddr).Port
		d.cfg = ok
		if d.fault.AuthFail {
			d.cfg = fail
		}
		f.wg.Add(1)
		go f.accept(d)
	}
	if opt.GNMI {
		if err := f.startGNMI(); err != nil {
			_ = f.Close()
			return nil, err
		}
	}
	return f, nil
}

// loopback parses Listen and refuses any address that is not loopback.
func loopback(s string) (netip.Addr, error) {
	if s == "" {
		s = "127.0.0.1"
	}
	ip, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("sim: listen address %q is not an IP address", s)
	}
	if !ip.IsLoopback() || ip.Zone() != "" {
		return netip.Addr{}, fmt.Errorf("sim: refusing to listen on %s: only loopback addresses are allowed", ip)
	}
	return ip.Unmap(), nil
}

func (f *Fabric) add(name, kind, dir string) *device {
	d := &device{
		f: f, name: name, kind: kind,
		dir:   filepath.Join(dir, layout.DevicesDir, name),
		fault: f.opt.Faults[name],
	}
	f.devs = append(f.devs, d)
	f.byName[name] = d
	return d
}

// prompt is bash's default PS1 (\u@\h:\w\$) with Cumulus Linux 5's VRF
// segment on Cumulus switches (CL docs show `cumulus@leaf01:mgmt:~$`,
// CumulusNetworks/docs content/cumulus-linux-514/System-Configuration/NVIDIA-User-Experience-NVUE/NVUE-CLI.md); SONiC's is bash's plain one (sonic-utilities
// doc/Command-Reference.md shows `admin@sonic:~$`).
func prompt(kind, os, user, name string) string {
	sign := "$"
	if user == "root" {
		sign = "#"
	}
	if kind == layout.KindSwitch && os != inventory.OSSONiC {
		return user + "@" + name + ":mgmt:~" + sign + " "
	}
	return user + "@" + name + ":~" + sign + " "
}

// Devices lists the devices, switches first, in inventory order.
func (f *Fabric) Devices() []Device {
	out := make([]Device, 0, len(f.devs))
	for _, d := range f.devs {
		out = append(out, Device{Name: d.name, Kind: d.kind, Addr: d.addr(), Port: d.port, GNMIAddr: f.gnmiAddr(d.name)})
	}
	return out
}

// HostKey is the ed25519 host key every device presents.
func (f *Fabric) HostKey() ssh.PublicKey { return f.signer.PublicKey() }

// KnownHosts is a known_hosts file listing every device's address with the
// host key, in the [ip]:port form that knownhosts.Normalize gives a non-22
// port.
func (f *Fabric) KnownHosts() []byte {
	var b strings.Builder
	for _, d := range f.devs {
		b.WriteString(knownhosts.Line([]string{knownhosts.Normalize(d.addr())}, f.HostKey()))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// Seen returns the command lines a device received, in order, over shells
// and exec alike (exit, logout and empty lines are not commands). It is nil
// for an unknown device.
func (f *Fabric) Seen(device string) []string {
	d := f.byName[device]
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.seen...)
}

// Close stops the listeners, drops every connection, ends sleeps and hangs,
// and waits for all the simulator's goroutines.
func (f *Fabric) Close() error {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil
	}
	f.closed = true
	close(f.done)
	for c := range f.conns {
		_ = c.Close()
	}
	f.mu.Unlock()
	for _, d := range f.devs {
		if d.ln != nil {
			_ = d.ln.Close()
		}
	}
	f.stopGNMI()
	f.wg.Wait()
	return nil
}

// track registers a connection so Close can drop it; false when closing.
func (f *Fabric) track(c net.Conn) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return false
	}
	f.conns[c] = struct{}{}
	return true
}

func (f *Fabric) untrack(c net.Conn) {
	f.mu.Lock()
	delete(f.conns, c)
	f.mu.Unlock()
}

// sleep waits d or until Close; false when the fabric closed.
func (f *Fabric) sleep(d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-f.done:
		return false
	}
}

// device is one simulated device's state. Files are read when a command
// asks for them, so an idle device costs a listener and a goroutine.
type device struct {
	f      *Fabric
	name   string
	kind   string
	dir    string
	prompt string
	// os is a switch's operating system (switchOS): inventory.OSSONiC
	// answers the SONiC commands (sonic.go), anything else NVUE's.
	os    string
	fault Fault
	ln    net.Listener
	port  int
	cfg   *ssh.ServerConfig

	mu   sync.Mutex
	seen []string
	hung bool
}

func (d *device) addr() string {
	return net.JoinHostPort(d.f.hostIP.String(), strconv.Itoa(d.port))
}

// record notes cmd and reports whether the device is (now) hung.
func (d *device) record(cmd string) (hung bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.seen = append(d.seen, cmd)
	if h := d.fault.Hang; h != "" && (h == "*" || strings.Contains(cmd, h)) {
		d.hung = true
	}
	return d.hung
}

func (d *device) isHung() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.hung
}
