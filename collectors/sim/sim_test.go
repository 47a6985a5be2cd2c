package sim

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/inventory"
	"golang.org/x/crypto/ssh"
)

func TestListenLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0", "::", "192.0.2.1", "10.0.0.1", "localhost", "example.com", "127.0.0.1:22", "fe80::1%lo"} {
		f, err := Start(cleanPod, Options{Listen: addr, Password: testPassword})
		if err == nil {
			_ = f.Close()
			t.Errorf("Listen %q accepted", addr)
		}
	}
	for _, addr := range []string{"", "127.0.0.1", "127.0.0.2", "::1"} {
		if addr == "::1" {
			ln, err := net.Listen("tcp", "[::1]:0")
			if err != nil {
				t.Log("no IPv6 loopback here; skipping ::1")
				continue
			}
			_ = ln.Close()
		}
		f := startSim(t, cleanPod, Options{Listen: addr})
		want := addr
		if want == "" {
			want = "127.0.0.1"
		}
		for _, d := range f.Devices() {
			if d.Addr != net.JoinHostPort(want, strconv.Itoa(d.Port)) {
				t.Errorf("Listen %q: device at %s", addr, d.Addr)
			}
		}
		dial(t, f, "leaf01")
	}
}

func TestStartErrors(t *testing.T) {
	for name, opt := range map[string]Options{
		"no auth":        {},
		"unknown device": {Password: testPassword, Faults: map[string]Fault{"leaf99": {Refuse: true}}},
	} {
		if f, err := Start(cleanPod, opt); err == nil {
			_ = f.Close()
			t.Errorf("%s: started", name)
		}
	}
	if f, err := Start(t.TempDir(), Options{Password: testPassword}); err == nil {
		_ = f.Close()
		t.Error("started without an inventory")
	}
}

func TestAuth(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, _ := ssh.NewSignerFromKey(priv)
	sshPub, _ := ssh.NewPublicKey(pub)
	_, otherPriv, _ := ed25519.GenerateKey(rand.Reader)
	other, _ := ssh.NewSignerFromKey(otherPriv)

	f := startSim(t, cleanPod, Options{Password: testPassword, AuthorizedKeys: []ssh.PublicKey{sshPub}})
	for _, tc := range []struct {
		name, user string
		auth       ssh.AuthMethod
		ok         bool
	}{
		{"password", DefaultUser, ssh.Password(testPassword), true},
		{"wrong password", DefaultUser, ssh.Password("nope"), false},
		{"wrong user", "root", ssh.Password(testPassword), false},
		{"key", DefaultUser, ssh.PublicKeys(signer), true},
		{"unknown key", DefaultUser, ssh.PublicKeys(other), false},
		{"key, wrong user", "root", ssh.PublicKeys(signer), false},
	} {
		_, err := dialAuth(t, f, "gpu01", tc.user, tc.auth)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err %v", tc.name, err)
		}
	}

	// Keys only: password auth is off.
	f = startSim(t, cleanPod, Options{AuthorizedKeys: []ssh.PublicKey{sshPub}})
	if _, err := dialAuth(t, f, "gpu01", DefaultUser, ssh.Password("")); err == nil {
		t.Error("empty password accepted with password auth off")
	}
	if _, err := dialAuth(t, f, "gpu01", DefaultUser, ssh.PublicKeys(signer)); err != nil {
		t.Error(err)
	}
}

// TestKnownHosts: the known_hosts file verifies every device, and only with
// the fabric's key.
func TestKnownHosts(t *testing.T) {
	f := startSim(t, cleanPod, Options{})
	cb := knownHostsCallback(t, f)
	lines := strings.Split(strings.TrimSuffix(string(f.KnownHosts()), "\n"), "\n")
	if len(lines) != len(f.Devices()) {
		t.Fatalf("%d known_hosts lines for %d devices", len(lines), len(f.Devices()))
	}
	_, otherPriv, _ := ed25519.GenerateKey(rand.Reader)
	other, _ := ssh.NewSignerFromKey(otherPriv)
	for i, d := range f.Devices() {
		if !strings.HasPrefix(lines[i], "[127.0.0.1]:"+strconv.Itoa(d.Port)+" ssh-ed25519 ") {
			t.Errorf("line %q", lines[i])
		}
		tcp, _ := net.ResolveTCPAddr("tcp", d.Addr)
		if err := cb(d.Addr, tcp, f.HostKey()); err != nil {
			t.Errorf("%s: %v", d.Name, err)
		}
		if err := cb(d.Addr, tcp, other.PublicKey()); err == nil {
			t.Errorf("%s: a foreign host key passed", d.Name)
		}
	}
	// And a real client with it.
	c, err := ssh.Dial("tcp", f.Devices()[0].Addr, &ssh.ClientConfig{
		User: DefaultUser, Auth: []ssh.AuthMethod{ssh.Password(testPassword)},
		HostKeyCallback: cb, HostKeyAlgorithms: []string{ssh.KeyAlgoED25519}, Timeout: testTimeout,
	})
	if err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
}

func TestWriteInventory(t *testing.T) {
	f := startSim(t, cleanPod, Options{User: "cumulus"})
	var b bytes.Buffer
	if err := f.WriteInventory(&b, "known_hosts", "QOSLINT_SIM_PASSWORD"); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{
		"fabric: pod-clean\n",
		"  preset: cumulus-default\n",
		"  roce: {dscp: [26], priority: 3, traffic_class: 3, mode: lossless}\n",
		"  cnp: {dscp: 48, priority: 6}\n",
		"  trust: dscp\n",
		"  mtu: {host: 4200, switch: 9216}\n",
		"    adaptive_routing: false\n",
		"ssh:\n  known_hosts: known_hosts\n",
		"  switches: {username: cumulus, password_env: QOSLINT_SIM_PASSWORD}\n",
		"  hosts: {username: cumulus, password_env: QOSLINT_SIM_PASSWORD}\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("inventory lacks %q:\n%s", want, text)
		}
	}
	for _, d := range f.Devices() {
		entry := "name: " + d.Name + "\n"
		i := strings.Index(text, entry)
		if i < 0 {
			t.Fatalf("no %s in\n%s", d.Name, text)
		}
		rest := text[i:]
		if j := strings.Index(rest[len(entry):], "name: "); j >= 0 {
			rest = rest[:len(entry)+j]
		}
		if !strings.Contains(rest, "address: 127.0.0.1\n") || !strings.Contains(rest, "port: "+strconv.Itoa(d.Port)+"\n") {
			t.Errorf("%s entry:\n%s", d.Name, rest)
		}
		if d.Kind == layout.KindSwitch && !strings.Contains(rest, "role: ") {
			t.Errorf("%s has no role:\n%s", d.Name, rest)
		}
	}
	if err := f.WriteInventory(&b, "", "X"); err == nil {
		t.Error("no known_hosts name accepted")
	}

	// Once the loader knows the ssh keys, the written inventory must load
	// back to the same policy and devices.
	inv, err := inventory.Parse("inventory.yaml", b.Bytes())
	if err != nil {
		if strings.Contains(err.Error(), "ssh") || strings.Contains(err.Error(), "port") {
			t.Logf("loader does not read ssh settings yet: %v", err)
			return
		}
		t.Fatalf("written inventory does not load: %v\n%s", err, text)
	}
	src, err := inventory.Load(cleanPod)
	if err != nil {
		t.Fatal(err)
	}
	if inv.Fabric != src.Fabric || len(inv.Switches) != len(src.Switches) || len(inv.Hosts) != len(src.Hosts) {
		t.Errorf("round trip changed the fabric: %+v", inv)
	}
	for _, c := range []inventory.Credentials{inv.SSH.Switches, inv.SSH.Hosts} {
		if c.Username != "cumulus" || c.PasswordEnv != "QOSLINT_SIM_PASSWORD" {
			t.Errorf("ssh credentials read back as %+v", c)
		}
	}
	if inv.SSH.KnownHosts != "known_hosts" {
		t.Errorf("known_hosts read back as %q", inv.SSH.KnownHosts)
	}
	ports := map[string]int{}
	for _, s := range inv.Switches {
		ports[s.Name] = s.Credentials.Port
	}
	for _, h := range inv.Hosts {
		ports[h.Name] = h.Credentials.Port
	}
	for _, d := range f.Devices() {
		if ports[d.Name] != d.Port {
			t.Errorf("%s: port read back as %d, want %d", d.Name, ports[d.Name], d.Port)
		}
	}
	inv.Policy.Pos, src.Policy.Pos = nil, nil
	if a, b := policyText(inv.Policy), policyText(src.Policy); a != b {
		t.Errorf("policy changed:\n got %s\nwant %s", a, b)
	}
	if inv.GNMI != (inventory.GNMI{}) || strings.Contains(text, "gnmi") {
		t.Errorf("gnmi written without Options.GNMI: %+v", inv.GNMI)
	}
}

// TestWriteInventoryGNMI: with gNMI the inventory names each switch's own
// gNMI port and, with TLS, the CA file; it loads back to those.
func TestWriteInventoryGNMI(t *testing.T) {
	for _, tlsOn := range []bool{false, true} {
		f := startSim(t, cleanPod, Options{User: "cumulus", Password: "pw", GNMI: true, GNMITLS: tlsOn})
		var b bytes.Buffer
		if err := f.WriteInventory(&b, "known_hosts", "QOSLINT_SIM_PASSWORD"); err != nil {
			t.Fatal(err)
		}
		inv, err := inventory.Parse("inventory.yaml", b.Bytes())
		if err != nil {
			t.Fatalf("%v\n%s", err, b.String())
		}
		want := inventory.GNMI{TLS: tlsOn}
		if tlsOn {
			want.CAFile = GNMICAFile
		}
		if inv.GNMI != want {
			t.Errorf("tls %t: gnmi read back as %+v, want %+v", tlsOn, inv.GNMI, want)
		}
		addr := map[string]string{}
		for _, d := range f.Devices() {
			addr[d.Name] = d.GNMIAddr
		}
		for _, s := range inv.Switches {
			if got := net.JoinHostPort(s.Address, strconv.Itoa(inv.GNMIPort(s))); got != addr[s.Name] {
				t.Errorf("%s: gNMI at %s, the simulator serves %s", s.Name, got, addr[s.Name])
			}
		}
	}
}

func policyText(p policy.Policy) string {
	var b strings.Builder
	b.WriteString(p.Preset + " " + p.Trust + " " + p.RoCE.Mode)
	for _, v := range append(append([]int{}, p.RoCE.DSCP...), p.RoCE.Priority, p.RoCE.TrafficClass,
		p.CNP.DSCP, p.CNP.Priority, p.MTU.Host, p.MTU.Switch) {
		b.WriteString(" " + strconv.Itoa(v))
	}
	b.WriteString(" " + strings.Join(p.ECMP.HashFields, ",") + " " + strconv.FormatBool(p.ECMP.AdaptiveRouting))
	return b.String()
}

// TestSwitchOnlyCommandsFile: a switch whose folder has only
// nv-config-commands.txt answers the YAML request with an NVUE error and
// the commands request with the file; hosts do not know nv at all.
func TestSwitchOnlyCommandsFile(t *testing.T) {
	f := startSim(t, cleanPod, Options{})
	c := dial(t, f, "spine02")
	r := run(t, c, devcmd.NVConfigYAML, testTimeout)
	if r.code != 1 || !strings.HasPrefix(r.stderr, "Error: ") || r.stdout != "" {
		t.Errorf("yaml on a commands-only switch: %+v", r)
	}
	r = run(t, c, nvConfigCommands, testTimeout)
	if want := readFile(t, filepath.Join(cleanPod, "devices/spine02/nv-config-commands.txt")); r.code != 0 || r.stdout != want {
		t.Errorf("commands: %+v", r)
	}
	c = dial(t, f, "gpu01")
	r = run(t, c, devcmd.NVShowQosRoce, testTimeout)
	if r.code != 127 || r.stderr != "bash: line 1: nv: command not found\n" {
		t.Errorf("nv on a host: %+v", r)
	}
}

// TestScale starts 1,000 devices with 200 ms latency. Every one of them
// accepts a connection and greets at once; one in five (200 SSH handshakes,
// the CPU cost of the test) also logs in and answers a command
// concurrently.
func TestScale(t *testing.T) {
	const n, sshEvery = 1000, 5
	dir := t.TempDir()
	var inv strings.Builder
	inv.WriteString("fabric: big\nhosts:\n")
	for i := range n {
		name := "gpu" + strconv.Itoa(i)
		inv.WriteString("  - {name: " + name + "}\n")
		if i%sshEvery != 0 {
			continue // a device without a folder is still served
		}
		writeFiles(t, filepath.Join(dir, "devices", name), map[string]string{
			"ibdev2netdev.txt": "mlx5_0 port 1 ==> " + name + "np0 (Up)\n",
		})
	}
	writeFiles(t, dir, map[string]string{"inventory.yaml": inv.String()})
	f := startSim(t, dir, Options{Latency: 200 * time.Millisecond})
	devs := f.Devices()
	if len(devs) != n {
		t.Fatalf("%d devices", len(devs))
	}
	ports := map[int]bool{}
	for _, d := range devs {
		ports[d.Port] = true
	}
	if len(ports) != n {
		t.Fatalf("%d distinct ports for %d devices", len(ports), n)
	}
	start := time.Now()
	errs := make(chan error, n)
	for i, d := range devs {
		go func() {
			if i%sshEvery != 0 {
				errs <- greets(d.Addr)
				return
			}
			c, err := dialAuth(t, f, d.Name, DefaultUser, ssh.Password(testPassword))
			if err != nil {
				errs <- err
				return
			}
			r := run(t, c, devcmd.IBDev2Netdev, testTimeout)
			if r.err == nil && r.stdout != "mlx5_0 port 1 ==> "+d.Name+"np0 (Up)\n" {
				r.err = fmt.Errorf("%s answered %q", d.Name, r.stdout)
			}
			errs <- r.err
		}()
	}
	for range devs {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d devices served in %v", n, time.Since(start))
}

// greets connects and reads the SSH version line.
func greets(addr string) error {
	nc, err := net.DialTimeout("tcp", addr, testTimeout)
	if err != nil {
		return err
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(testTimeout))
	line, err := bufio.NewReader(nc).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "SSH-2.0-") {
		return fmt.Errorf("%s greeted %q: %v", addr, line, err)
	}
	return nil
}
