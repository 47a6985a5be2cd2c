package sim

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/scrapli/scrapligo/driver/generic"
	"github.com/scrapli/scrapligo/driver/opoptions"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/transport"
	"golang.org/x/crypto/ssh"
)

// TestShellTranscript checks the exact bytes of an interactive session:
// banner and prompt with CRLF, echo, CR / LF / CRLF line ends each running
// the command once, output with CRLF, erase, ^C, and exit with the last
// command's status.
func TestShellTranscript(t *testing.T) {
	f := startSim(t, cleanPod, Options{Banner: "Welcome to the pod\nauthorized use only\n"})
	c := dial(t, f, "gpu01")
	s, send, scr := shellSession(t, c)
	const p = DefaultUser + "@gpu01:~$ "
	scr.waitFor(t, p, testTimeout)
	ib := readFile(t, filepath.Join(cleanPod, "devices/gpu01/ibdev2netdev.txt"))
	ibCRLF := strings.ReplaceAll(ib, "\n", "\r\n")

	send(devcmd.IBDev2Netdev + "\r\n") // CRLF: runs once
	send(devcmd.IBDev2Netdev + "\r")   // CR alone (OpenSSH's Enter)
	send(devcmd.IBDev2Netdev + "\n")   // LF alone (scrapligo)
	send("ibdev2netdex\x7fv\n")        // erase fixes a typo
	send("ls -l\x03")                  // ^C drops the line
	send("bogus --x\n")
	want := "Welcome to the pod\r\nauthorized use only\r\n" + p +
		devcmd.IBDev2Netdev + "\r\n" + ibCRLF + p +
		devcmd.IBDev2Netdev + "\r\n" + ibCRLF + p +
		devcmd.IBDev2Netdev + "\r\n" + ibCRLF + p +
		"ibdev2netdex\b \bv\r\n" + ibCRLF + p +
		"ls -l^C\r\n" + p +
		"bogus --x\r\n-bash: bogus: command not found\r\n" + p
	got := scr.waitFor(t, want, testTimeout)
	if got != want {
		t.Fatalf("transcript\n got %q\nwant %q", got, want)
	}
	send("exit\r")
	done := make(chan error, 1)
	go func() { done <- s.Wait() }()
	select {
	case err := <-done:
		var ee *ssh.ExitError
		if !errors.As(err, &ee) || ee.ExitStatus() != 127 {
			t.Errorf("exit: %v, want status 127 (the last command's)", err)
		}
	case <-time.After(testTimeout):
		t.Fatal("exit did not end the session")
	}
	wantSeen := []string{devcmd.IBDev2Netdev, devcmd.IBDev2Netdev, devcmd.IBDev2Netdev, devcmd.IBDev2Netdev, "bogus --x"}
	if got := f.Seen("gpu01"); strings.Join(got, "|") != strings.Join(wantSeen, "|") {
		t.Errorf("Seen = %q, want %q", got, wantSeen)
	}
}

// TestShellPrompts checks the prompt forms: a switch has the VRF segment,
// root gets '#'.
func TestShellPrompts(t *testing.T) {
	for _, tc := range []struct{ user, dev, want string }{
		{"cumulus", "leaf01", "cumulus@leaf01:mgmt:~$ "},
		{"root", "gpu02", "root@gpu02:~# "},
		{"root", "spine01", "root@spine01:mgmt:~# "},
		{"ops", "gpu03", "ops@gpu03:~$ "},
	} {
		f := startSim(t, cleanPod, Options{User: tc.user})
		c, err := dialAuth(t, f, tc.dev, tc.user, ssh.Password(testPassword))
		if err != nil {
			t.Fatal(err)
		}
		_, _, scr := shellSession(t, c)
		if got := scr.waitFor(t, tc.want, testTimeout); got != tc.want {
			t.Errorf("prompt %q, want %q", got, tc.want)
		}
	}
}

// promptRe matches both prompt forms (`user@host:~$ `, `user@host:mgmt:~$ `,
// '#' for root) at the end of a line. It has no '^': scrapligo matches it
// against its last PromptSearchDepth bytes, and the end anchor is what
// keeps output lines from matching.
var promptRe = regexp.MustCompile(`(?m)[\w.\-]+@[\w.\-]+:(?:[\w.\-]+:)?~[#$]\s*$`)

// normalize is what scrapligo's processOut does (scrapligo v1.4.3
// channel/channel.go):
// no CR, trailing spaces trimmed per line, newlines trimmed at both ends.
func normalize(s string) string {
	s = strings.ReplaceAll(s, "\r", "")
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// TestScrapligo drives every clean-pod device with scrapligo's generic
// driver over the standard transport (scrapligo v1.4.3 driver/generic,
// transport/standard.go), with strict
// host key checking against the fabric's known_hosts, a banner and
// latency, and compares every allowlisted command's result with the file.
func TestScrapligo(t *testing.T) {
	f := startSim(t, cleanPod, Options{
		Banner:  "Cumulus Linux: nv show, nv config show\n", // holds command characters in order (pitfall 3)
		Latency: 10 * time.Millisecond,
	})
	kh := filepath.Join(t.TempDir(), "known_hosts")
	if err := os.WriteFile(kh, f.KnownHosts(), 0o600); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, d := range f.Devices() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			drv, err := openScrapli(d, kh)
			if err != nil {
				t.Errorf("%s: %v", d.Name, err)
				return
			}
			defer drv.Close()
			for _, e := range expectations(t, cleanPod, d) {
				r, err := drv.SendCommand(e.cmd, opoptions.WithTimeoutOps(testTimeout))
				if err != nil {
					t.Errorf("%s: %q: %v", d.Name, e.cmd, err)
					return
				}
				want := normalize(e.stdout)
				if e.stderr != "" { // a pty merges stderr into the screen
					want = normalize(e.stdout + "\n" + e.stderr)
				}
				if e.code == 0 && r.Failed != nil {
					t.Errorf("%s: %q failed: %v", d.Name, e.cmd, r.Failed)
				}
				if e.code == 0 && r.Result != want || e.code != 0 && !strings.Contains(r.Result, normalize(e.stderr)) {
					t.Errorf("%s: %q:\n got %q\nwant %q", d.Name, e.cmd, r.Result, want)
				}
			}
			r, err := drv.SendCommand("rm -rf /")
			if err != nil || r.Failed == nil || r.Result != "-bash: rm: command not found" {
				t.Errorf("%s: unknown command: err %v failed %v result %q", d.Name, err, r.Failed, r.Result)
			}
		}()
	}
	wg.Wait()
}

// openScrapli opens scrapligo's generic driver on d over the standard
// transport (scrapligo v1.4.3 transport/standard.go), verifying the host key with kh.
func openScrapli(d Device, kh string) (*generic.Driver, error) {
	drv, err := generic.NewDriver("127.0.0.1",
		options.WithTransportType(transport.StandardTransport),
		options.WithPort(d.Port),
		options.WithAuthUsername(DefaultUser),
		options.WithAuthPassword(testPassword),
		options.WithSSHKnownHostsFile(kh),
		options.WithStandardTransportHostKeyAlgorithms([]string{ssh.KeyAlgoED25519}),
		options.WithPromptPattern(promptRe),
		options.WithTimeoutSocket(testTimeout),
		options.WithTimeoutOps(testTimeout),
		options.WithTermWidth(511),
		options.WithFailedWhenContains([]string{"command not found", "Error:"}),
		options.WithOnOpen(func(d *generic.Driver) error { _, err := d.GetPrompt(); return err }),
	)
	if err != nil {
		return nil, err
	}
	if err := drv.Open(); err != nil {
		return nil, err
	}
	return drv, nil
}

// TestNoFinalNewline: as with bash, output without a final newline is
// followed by the prompt on the same line, and an unanchored prompt
// pattern still finds it.
func TestNoFinalNewline(t *testing.T) {
	dir := t.TempDir()
	const ib = "mlx5_0 port 1 ==> eth0 (Up)"
	writeFiles(t, dir, map[string]string{
		"inventory.yaml":              "fabric: t\nhosts:\n  - {name: h1}\n",
		"devices/h1/ibdev2netdev.txt": ib,
	})
	f := startSim(t, dir, Options{})
	_, send, scr := shellSession(t, dial(t, f, "h1"))
	const p = DefaultUser + "@h1:~$ "
	scr.waitFor(t, p, testTimeout)
	send(devcmd.IBDev2Netdev + "\n")
	want := p + devcmd.IBDev2Netdev + "\r\n" + ib + p
	if got := scr.waitFor(t, want, testTimeout); got != want {
		t.Fatalf("got %q want %q", got, want)
	}

	kh := filepath.Join(dir, "known_hosts")
	if err := os.WriteFile(kh, f.KnownHosts(), 0o600); err != nil {
		t.Fatal(err)
	}
	drv, err := openScrapli(devByName(t, f, "h1"), kh)
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	r, err := drv.SendCommand(devcmd.IBDev2Netdev)
	if err != nil || r.Result != ib {
		t.Fatalf("scrapligo: %q, %v", r.Result, err)
	}
}
