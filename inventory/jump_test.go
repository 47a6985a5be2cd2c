package inventory

import (
	"strings"
	"testing"
)

// TestParseJumpHost: ssh_config(5) ProxyJump's "[user@]host[:port]"
// (https://man.openbsd.org/ssh_config), port 22 unless written.
func TestParseJumpHost(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want JumpHost
	}{
		{"bastion", JumpHost{Host: "bastion", Port: 22}},
		{"ops@bastion.example.net", JumpHost{User: "ops", Host: "bastion.example.net", Port: 22}},
		{"ops@bastion.example.net:2222", JumpHost{User: "ops", Host: "bastion.example.net", Port: 2222}},
		{"192.0.2.7:2200", JumpHost{Host: "192.0.2.7", Port: 2200}},
		{"ops@[2001:db8::7]:2200", JumpHost{User: "ops", Host: "2001:db8::7", Port: 2200}},
		{"[2001:db8::7]", JumpHost{Host: "2001:db8::7", Port: 22}},
		{"2001:db8::7", JumpHost{Host: "2001:db8::7", Port: 22}},
	} {
		got, err := ParseJumpHost(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%q: %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
		if again, err := ParseJumpHost(got.String()); err != nil || again != got {
			t.Errorf("%q: String %q does not read back (%+v, %v)", tc.in, got.String(), again, err)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"", "is empty"},
		{"ssh://ops@bastion:22", "ssh:// URIs are not supported"},
		{"a@b1,c@b2", "only one jump host"},
		{"ops@bastion:0", `port "0" is not 1..65535`},
		{"ops@bastion:99999", "is not 1..65535"},
		{"bastion:ssh", "is not 1..65535"},
		{"-oProxyCommand=x", "is not an IP address or a host name"},
		{"ops@", "is not an IP address or a host name"},
		{"[bastion]:22", "only an IPv6 address goes in brackets"},
		{"[2001:db8::7", "'[' without ']'"},
		{"2001:db8::7:22x", "written [address]:port"},
		{"ops@none", "none turns the jump host off"},
		{"bast ion", "spaces or control characters"},
	} {
		_, err := ParseJumpHost(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.want)
		}
	}
	// What is before '@' may be a password typed in the wrong place.
	_, err := ParseJumpHost("ops:Hunter2-secret@bastion")
	if err == nil || strings.Contains(err.Error(), "Hunter2") {
		t.Errorf("a bad user: %v", err)
	}
}

// jump_host sits in ssh (every device), ssh.switches / ssh.hosts and on a
// device, the nearer overriding; none undoes a default. Both formats.
func TestJumpHostPrecedence(t *testing.T) {
	const yamlInv = `fabric: lab
ssh:
  jump_host: ops@bastion:2222
  hosts:
    username: root
    agent: true
    jump_host: gpu-bastion
switches:
  - name: leaf01
    username: cumulus
    agent: true
  - name: leaf02
    username: cumulus
    agent: true
    jump_host: none
hosts:
  - name: gpu01
  - name: gpu02
    jump_host: admin@[2001:db8::9]:22
`
	const hclInv = `fabric = "lab"
ssh {
  jump_host = "ops@bastion:2222"
  hosts {
    username  = "root"
    agent     = true
    jump_host = "gpu-bastion"
  }
}
switch "leaf01" {
  username = "cumulus"
  agent    = true
}
switch "leaf02" {
  username  = "cumulus"
  agent     = true
  jump_host = "none"
}
host "gpu01" {}
host "gpu02" { jump_host = "admin@[2001:db8::9]:22" }
`
	want := map[string]string{"leaf01": "ops@bastion:2222", "leaf02": "", "gpu01": "gpu-bastion", "gpu02": "admin@[2001:db8::9]:22"}
	for name, data := range map[string]string{"inventory.yaml": yamlInv, "inventory.hcl": hclInv} {
		inv, err := Parse(name, []byte(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, s := range inv.Switches {
			if got := inv.SwitchCredentials(s).JumpHost; got != want[s.Name] {
				t.Errorf("%s %s: jump host %q, want %q", name, s.Name, got, want[s.Name])
			}
		}
		for _, h := range inv.Hosts {
			if got := inv.HostCredentials(h).JumpHost; got != want[h.Name] {
				t.Errorf("%s %s: jump host %q, want %q", name, h.Name, got, want[h.Name])
			}
		}
	}
}

// A bad jump_host is an inventory error at its line, in both formats.
func TestJumpHostErrors(t *testing.T) {
	for name, data := range map[string]string{
		"inventory.yaml": "fabric: lab\nssh:\n  jump_host: \"a,b\"\nswitches:\n  - name: leaf01\n    jump_host: \"x@y:0\"\n",
		"inventory.hcl":  "fabric = \"lab\"\nssh {\n  jump_host = \"a,b\"\n}\nswitch \"leaf01\" {\n  jump_host = \"x@y:0\"\n}\n",
	} {
		_, err := Parse(name, []byte(data))
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		for _, want := range []string{name + ":3: ssh.jump_host names several jump hosts", `switch "leaf01": jump_host "y:0": port "0" is not 1..65535`} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: %q lacks %q", name, msg, want)
			}
		}
	}
}

func FuzzParseJumpHost(f *testing.F) {
	for _, s := range []string{"ops@bastion:2222", "[2001:db8::7]:22", "2001:db8::7", "a,b", "ssh://x", "none", "u@[::1", "x:0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		j, err := ParseJumpHost(s)
		if err != nil {
			return
		}
		if j.Port < 1 || j.Port > 65535 || j.Host == "" || strings.HasPrefix(j.Host, "-") {
			t.Fatalf("%q: %+v", s, j)
		}
		if again, err := ParseJumpHost(j.String()); err != nil || again != j {
			t.Fatalf("%q: %q reads back as %+v, %v", s, j.String(), again, err)
		}
	})
}
