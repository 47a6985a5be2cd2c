package inventory

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/internal/source"
)

// lab is testdata/ssh-{yaml,hcl}: the brief's example, plus a device that
// gets everything from its group and one that overrides the host group.
func lab(file string) *Inventory {
	pol, _ := policy.Preset(policy.DefaultPreset)
	return &Inventory{
		File:   file,
		Fabric: "lab",
		Policy: pol,
		SSH: SSH{
			KnownHosts: "known_hosts",
			Switches:   Credentials{Username: "cumulus", PasswordEnv: "QOSLINT_SWITCH_PASSWORD"},
			Hosts:      Credentials{Username: "root", KeyFile: "~/.ssh/id_ed25519", Agent: true, Sudo: true, Port: 22},
		},
		Switches: []Switch{
			{Name: "leaf01", Role: "leaf", Address: "127.0.0.1",
				Credentials: Credentials{Username: "admin", PasswordEnv: "LEAF01_PW", Port: 2201}},
			{Name: "spine01", Role: "spine", Address: "127.0.0.1"},
		},
		Hosts: []Host{
			{Name: "gpu01", Address: "127.0.0.1", Credentials: Credentials{KeyFile: "keys/gpu01", Port: 2202}},
			{Name: "gpu02", Address: "127.0.0.1", Credentials: Credentials{Username: "ubuntu"}},
		},
	}
}

func TestLoadSSH(t *testing.T) {
	for _, tc := range []struct {
		dir, file       string
		switches, hosts []int
	}{
		{"testdata/ssh-yaml", "inventory.yaml", []int{9, 10}, []int{12, 13}},
		{"testdata/ssh-hcl", "inventory.hcl", []int{18, 25}, []int{29, 35}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			inv, err := Load(tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := withoutPositions(inv), withoutPositions(lab(tc.file)); !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
			for i, sw := range inv.Switches {
				if want := (source.Pos{File: tc.file, Line: tc.switches[i]}); sw.Pos != want {
					t.Errorf("switch %s Pos = %v, want %v", sw.Name, sw.Pos, want)
				}
			}
			for i, h := range inv.Hosts {
				if want := (source.Pos{File: tc.file, Line: tc.hosts[i]}); h.Pos != want {
					t.Errorf("host %s Pos = %v, want %v", h.Name, h.Pos, want)
				}
			}
		})
	}
}

// TestLoadedCredentials resolves every device of the lab inventory.
func TestLoadedCredentials(t *testing.T) {
	inv, err := Load("testdata/ssh-yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Credentials{
		"leaf01":  {Username: "admin", PasswordEnv: "LEAF01_PW", Port: 2201},
		"spine01": {Username: "cumulus", PasswordEnv: "QOSLINT_SWITCH_PASSWORD", Port: 22},
		// sudo: false on the device cannot turn the group's sudo off.
		"gpu01": {Username: "root", KeyFile: "keys/gpu01", Agent: true, Sudo: true, Port: 2202},
		"gpu02": {Username: "ubuntu", KeyFile: "~/.ssh/id_ed25519", Agent: true, Sudo: true, Port: 22},
	}
	for _, s := range inv.Switches {
		if got := inv.SwitchCredentials(s); got != want[s.Name] {
			t.Errorf("%s: got %+v, want %+v", s.Name, got, want[s.Name])
		}
	}
	for _, h := range inv.Hosts {
		if got := inv.HostCredentials(h); got != want[h.Name] {
			t.Errorf("%s: got %+v, want %+v", h.Name, got, want[h.Name])
		}
	}
}

func TestCredentialsMerge(t *testing.T) {
	full := Credentials{Username: "u", PasswordEnv: "PW", KeyFile: "k", Agent: true, Port: 2222, Sudo: true}
	for _, tc := range []struct {
		name            string
		group, dev, out Credentials
	}{
		{"nothing: port 22", Credentials{}, Credentials{}, Credentials{Port: 22}},
		{"group only", full, Credentials{}, full},
		{"device only", Credentials{}, full, full},
		{"device strings and port win",
			full,
			Credentials{Username: "v", PasswordEnv: "PW2", KeyFile: "k2", Port: 2},
			Credentials{Username: "v", PasswordEnv: "PW2", KeyFile: "k2", Agent: true, Port: 2, Sudo: true}},
		{"one field overridden, the rest inherited",
			Credentials{Username: "u", KeyFile: "k"},
			Credentials{KeyFile: "mine"},
			Credentials{Username: "u", KeyFile: "mine", Port: 22}},
		{"a device can turn the bools on",
			Credentials{},
			Credentials{Agent: true, Sudo: true},
			Credentials{Agent: true, Sudo: true, Port: 22}},
		{"but not off",
			Credentials{Agent: true, Sudo: true},
			Credentials{Username: "v"},
			Credentials{Username: "v", Agent: true, Sudo: true, Port: 22}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Each group applies to its own kind of device only.
			inv := &Inventory{SSH: SSH{Switches: tc.group, Hosts: Credentials{Username: "other", Port: 1}}}
			if got := inv.SwitchCredentials(Switch{Credentials: tc.dev}); got != tc.out {
				t.Errorf("switch: got %+v, want %+v", got, tc.out)
			}
			inv = &Inventory{SSH: SSH{Hosts: tc.group, Switches: Credentials{Username: "other", Port: 1}}}
			if got := inv.HostCredentials(Host{Credentials: tc.dev}); got != tc.out {
				t.Errorf("host: got %+v, want %+v", got, tc.out)
			}
		})
	}
}

func TestKnownHostsPath(t *testing.T) {
	for _, tc := range []struct{ known, dir, want string }{
		{"", "fabrics/pod-a", ""},
		{"known_hosts", "fabrics/pod-a", "fabrics/pod-a/known_hosts"},
		{"../shared/known_hosts", "fabrics/pod-a", "fabrics/shared/known_hosts"},
		{"known_hosts", "", "known_hosts"},
		{"/etc/ssh/ssh_known_hosts", "fabrics/pod-a", "/etc/ssh/ssh_known_hosts"},
		{"~/.ssh/known_hosts", "fabrics/pod-a", "~/.ssh/known_hosts"},
	} {
		inv := &Inventory{SSH: SSH{KnownHosts: tc.known}}
		if got := inv.KnownHostsPath(tc.dir); got != tc.want {
			t.Errorf("KnownHostsPath(%q) with %q = %q, want %q", tc.dir, tc.known, got, tc.want)
		}
	}
}

func TestSSHErrors(t *testing.T) {
	const user = ` (want 1-32 letters, digits, '_', '.' or '-', starting with a letter or '_')`
	const env = `password_env must be the name of an environment variable (letters, digits and '_', not starting with a digit); its value is not shown in case it is a password`
	const sudo = `sudo is not allowed for switches: switch commands never need root`
	// The YAML and HCL files spell the same mistakes; the HCL one puts
	// the group's closing brace and a device header on lines of their own.
	semantic := func(l []int) []string {
		return []string{
			fmt.Sprintf(`%d: ssh.known_hosts must not be empty`, l[0]),
			fmt.Sprintf(`%d: ssh.switches: invalid username "-oProxyCommand=x"`+user, l[1]),
			fmt.Sprintf(`%d: ssh.switches: `+env, l[2]),
			fmt.Sprintf(`%d: ssh.switches: port 0 out of range 1..65535`, l[3]),
			fmt.Sprintf(`%d: ssh.switches: `+sudo, l[4]),
			fmt.Sprintf(`%d: ssh.hosts: invalid username "root user"`+user, l[5]),
			fmt.Sprintf(`%d: ssh.hosts: key_file "-i" must not start with '-' (write ./-i)`, l[6]),
			fmt.Sprintf(`%d: ssh.hosts: port 65536 out of range 1..65535`, l[7]),
			fmt.Sprintf(`%d: switch "leaf01": invalid username "admin@evil"`+user, l[8]),
			fmt.Sprintf(`%d: switch "leaf01": `+env, l[9]),
			fmt.Sprintf(`%d: switch "leaf01": key_file must not be empty`, l[10]),
			fmt.Sprintf(`%d: switch "leaf01": port 70000 out of range 1..65535`, l[11]),
			fmt.Sprintf(`%d: switch "leaf01": `+sudo, l[12]),
			fmt.Sprintf(`%d: host "gpu01": invalid username "ThisNameIsMuchTooLongForALoginName"`+user, l[13]),
			fmt.Sprintf(`%d: host "gpu01": key_file "keys/gpu\x00" must not contain control characters`, l[14]),
			fmt.Sprintf(`%d: host "gpu01": port -1 out of range 1..65535`, l[15]),
		}
	}
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"ssh.yaml", semantic([]int{3, 5, 6, 7, 8, 10, 11, 12, 15, 16, 17, 18, 19, 22, 23, 24})},
		{"ssh.hcl", semantic([]int{3, 5, 6, 7, 8, 11, 12, 13, 17, 18, 19, 20, 21, 24, 25, 26})},
		{"ssh-types.yaml", []string{
			`3: unknown key "known_host" in ssh`,
			`4: ssh.switches: want a mapping, got string "cumulus"`,
			`6: unknown key "user" in ssh.hosts`,
			`7: ssh.hosts.port: want an integer, got string "ssh"`,
			`8: ssh.hosts.agent: want true or false, got string "maybe"`,
			// Two lists start on these lines (the device list and the
			// value), so the message cannot name the key.
			`10: want an integer, got list`,
			`10: switches[0].sudo: want true or false, got integer "1"`,
			`12: want a string, got list`,
		}},
		{"ssh-types.hcl", []string{
			`3: Unsupported argument: An argument named "known_host" is not expected here. Did you mean "known_hosts"?`,
			`4: Unsupported argument: An argument named "switches" is not expected here. Did you mean to define a block of type "switches"?`,
			`6: Unsupported argument: An argument named "user" is not expected here.`,
			`7: ssh.hosts.port: want an integer, got string "ssh"`,
			`8: ssh.hosts.agent: want a boolean, got string "maybe"`,
			`10: duplicate hosts block (first at line 5)`,
			`13: switch "leaf01": port: want an integer, got tuple`,
			`14: switch "leaf01": sudo: want a boolean, got number 1`,
			`17: host "gpu01": key_file: want a string, got tuple`,
			`19: duplicate ssh block (first at line 2)`,
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			text := wantErrors(t, "testdata/bad/"+tc.file, tc.want)
			// A password written in password_env must not be echoed.
			if strings.Contains(text, "hunter2") || strings.Contains(text, "1PW") {
				t.Errorf("password_env value echoed:\n%s", text)
			}
		})
	}
}

// secretValues are the values written in testdata/bad/secret.*; none may
// appear in any message.
var secretValues = []string{"tok-A1b2C3d4", "Hunter2-sw!", "s3cr3t-hosts", "pp-", "quoted", "sw-secret-77", "hunter-list-1"}

func TestSecretFiles(t *testing.T) {
	msg := `: inventory holds credential references, not secrets: use password_env`
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"secret.yaml", []string{
			`3: key "token"` + msg,
			`4: key "password"` + msg,
			`6: key "Sudo_Password"` + msg,
			`7: key "passphrase"` + msg,
			`9: key "secret"` + msg,
			`9: unknown key "adress" in switches[0]`,
			// The anchored secret reaches a value that is echoed.
			`11: switch "spine01": unknown role "[hidden]" (want leaf, spine, super-spine or border)`,
			`14: key "password"` + msg,
		}},
		{"secret.hcl", []string{
			`3: key "token"` + msg,
			`6: key "password"` + msg,
			`9: key "Sudo_Password"` + msg,
			`10: key "passphrase"` + msg,
			`14: key "secret"` + msg,
			`15: Unsupported argument: An argument named "adress" is not expected here. Did you mean "address"?`,
			`18: key "password"` + msg,
			`21: key "password"` + msg,
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			text := wantErrors(t, "testdata/bad/"+tc.file, tc.want)
			for _, v := range secretValues {
				if strings.Contains(text, v) {
					t.Errorf("secret %q appears in:\n%s", v, text)
				}
			}
		})
	}
}

// TestSecretKeys writes each secret key in the ssh section, a group and a
// device, in both formats: one error on the key's line, value not shown.
func TestSecretKeys(t *testing.T) {
	const value = "correct-horse-battery"
	type place struct {
		where, yaml, hcl string
		yamlLine         int
		hclLine          int
	}
	places := []place{
		{"ssh", "fabric: lab\nssh:\n  %s: %s\n", "fabric = \"lab\"\nssh {\n  %s = %s\n}\n", 3, 3},
		{"group", "fabric: lab\nssh:\n  hosts:\n    username: root\n    %s: %s\n",
			"fabric = \"lab\"\nssh {\n  hosts {\n    username = \"root\"\n    %s = %s\n  }\n}\n", 5, 5},
		{"switch", "fabric: lab\nswitches:\n  - name: leaf01\n    %s: %s\n",
			"fabric = \"lab\"\nswitch \"leaf01\" {\n  %s = %s\n}\n", 4, 3},
		{"host", "fabric: lab\nhosts:\n  - name: gpu01\n    address: 192.0.2.1\n    %s: %s\n",
			"fabric = \"lab\"\nhost \"gpu01\" {\n  address = \"192.0.2.1\"\n  %s = %s\n}\n", 5, 4},
	}
	for _, key := range []string{"password", "secret", "passphrase", "token", "sudo_password", "enable-secret"} {
		for _, pl := range places {
			for _, hcl := range []bool{false, true} {
				name, doc, line := "inventory.yaml", fmt.Sprintf(pl.yaml, key, value), pl.yamlLine
				if hcl {
					name, doc, line = "inventory.hcl", fmt.Sprintf(pl.hcl, key, `"`+value+`"`), pl.hclLine
				}
				t.Run(key+"/"+pl.where+"/"+name, func(t *testing.T) {
					inv, err := Parse(name, []byte(doc))
					want := fmt.Sprintf("%s:%d: key %q: %s", name, line, key, secretMsg)
					if inv != nil || err == nil || err.Error() != want {
						t.Fatalf("got %v\nwant %s", err, want)
					}
					if strings.Contains(err.Error(), value) {
						t.Errorf("value echoed: %v", err)
					}
				})
			}
		}
	}
}

func TestSecretKeyNames(t *testing.T) {
	for name, want := range map[string]bool{
		"password": true, "PASSWORD": true, "sudo_password": true, "enablePassword": true,
		"passwd": true, "secret": true, "client-secret": true, "passphrase": true, "token": true,
		"password_env": false, "username": false, "key_file": false, "known_hosts": false, "agent": false,
	} {
		if secretKey(name) != want {
			t.Errorf("secretKey(%q) = %v, want %v", name, !want, want)
		}
	}
}

func TestRedact(t *testing.T) {
	p := newProblems("f")
	p.hide("credential") // also a word of the advice, which stays whole
	p.hide("abc")        // too short to hide
	p.hide(`say "x"`)
	for in, want := range map[string]string{
		`key "password": ` + secretMsg:    `key "password": ` + secretMsg,
		`role "credential" invalid`:       `role "[hidden]" invalid`,
		`role "say \"x\"" invalid`:        `role "[hidden]" invalid`,
		`abc credentials credential`:      `abc [hidden]s [hidden]`,
		`role "credential": ` + secretMsg: `role "[hidden]": ` + secretMsg,
	} {
		if got := p.redact(in); got != want {
			t.Errorf("redact(%q) = %q, want %q", in, got, want)
		}
	}
}
