package inventory

import (
	"github.com/qoslint/qoslint/internal/names"
	"github.com/qoslint/qoslint/internal/policy"

	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2/hclparse"
	"gopkg.in/yaml.v3"
)

// FuzzParse feeds both formats arbitrary bytes: Parse must not panic, must
// return either a complete inventory or Errors that each name the file and a
// line >= 1 on one line, and must give the same answer twice.
func FuzzParse(f *testing.F) {
	err := filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(path, "fuzz") {
			return err
		}
		ext := filepath.Ext(path)
		if ext != ".yaml" && ext != ".yml" && ext != ".hcl" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f.Add(data, ext == ".hcl")
		return nil
	})
	if err != nil {
		f.Fatal(err)
	}
	// Shapes the files above lack: anchors, merge keys, huge numbers,
	// nesting, non-literal HCL expressions.
	f.Add([]byte("fabric: a\nx: &l [swp1]\nswitches:\n  - &s {name: leaf1, ports: *l}\n  - {<<: *s, name: leaf2}\n"), false)
	f.Add([]byte("fabric: a\npolicy: {roce: {dscp: [99999999999999999999, 0x1a, 1e3]}}\n"), false)
	f.Add([]byte("fabric: [[[[[[[[[[[[a]]]]]]]]]]]]\n"), false)
	f.Add([]byte("fabric = \"a\"\npolicy {\n  roce {\n    dscp = true ? [1] : [2]\n    priority = 1e100\n  }\n}\nhost \"h\" { nics = [for x in [\"a\"] : x] }\n"), true)
	// ssh shapes: merge keys into groups and devices, null groups, a
	// secret behind an alias, secrets in HCL objects and as block types.
	f.Add([]byte("fabric: a\nssh:\n  switches: &g {username: u, port: 22}\n  hosts: {<<: *g, sudo: true, agent: yes}\nswitches:\n  - {name: leaf1, <<: *g}\n"), false)
	f.Add([]byte("fabric: a\nssh: {known_hosts: ~, switches: ~, hosts: {key_file: ~/.ssh/id}}\nhosts:\n  - {name: h, port: 0x50, agent: true}\n"), false)
	f.Add([]byte(gnmiYAML), false)
	f.Add([]byte(gnmiHCL), true)
	f.Add([]byte("fabric: a\ngnmi: {timeout: 9999999999999h, port: ~, tls: yes}\nswitches:\n  - {name: leaf1, gnmi_port: 0x10}\n"), false)
	f.Add([]byte("fabric: a\nx: {token: &t tok-123456}\nswitches:\n  - {name: leaf1, username: *t, Password: [p, {q: r}]}\n"), false)
	f.Add([]byte("fabric = \"a\"\nssh {\n  known_hosts = \"kh\"\n  switches {\n    port = 1e3\n  }\n  hosts {\n    sudo = true\n  }\n}\n"+
		"host \"h\" {\n  creds = { \"token\" = \"t-123456\" }\n  password {\n  }\n}\nswitch \"leaf1\" {\n  port = 65535\n  agent = \"true\"\n}\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, isHCL bool) {
		name := "fuzz/inventory.yaml"
		if isHCL {
			name = "fuzz/inventory.hcl"
		}
		inv, err := Parse(name, data)
		inv2, err2 := Parse(name, data)
		if !reflect.DeepEqual(inv, inv2) || (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("not deterministic:\n%+v %v\n%+v %v", inv, err, inv2, err2)
		}
		if err != nil {
			errs, ok := err.(Errors)
			if !ok || len(errs) == 0 || inv != nil {
				t.Fatalf("err = %#v (%T), inv = %+v", err, err, inv)
			}
			for _, e := range errs {
				if e.File != name || e.Line < 1 || e.Msg == "" || strings.ContainsAny(e.Msg, "\r\n") {
					t.Fatalf("bad error %#v", e)
				}
				if strings.Contains(e.Msg, "internal error") {
					t.Fatalf("parser panicked: %v", e)
				}
			}
			return
		}
		checkComplete(t, name, inv)
		if n := secretsIn(name, data, isHCL); n > 0 {
			t.Fatalf("loaded a file with %d secret-looking keys", n)
		}
	})
}

// secretsIn counts the secret-looking keys in data (which must parse).
func secretsIn(name string, data []byte, isHCL bool) int {
	p := newProblems(name)
	if isHCL {
		f, _ := hclparse.NewParser().ParseHCL(data, name)
		hclSecrets(f.Body, p)
	} else {
		var doc yaml.Node
		_ = yaml.Unmarshal(data, &doc)
		yamlSecrets(yamlRoot(&doc), p)
	}
	return len(p.list)
}

// checkComplete asserts what every consumer of a loaded inventory relies on.
func checkComplete(t *testing.T, name string, inv *Inventory) {
	t.Helper()
	p := inv.Policy
	if inv.File != name || !names.Device(inv.Fabric) {
		t.Fatalf("File %q Fabric %q", inv.File, inv.Fabric)
	}
	if _, ok := policy.Preset(p.Preset); !ok {
		t.Fatalf("preset %q", p.Preset)
	}
	if len(p.RoCE.DSCP) == 0 || !slices.IsSorted(p.RoCE.DSCP) || len(slices.Compact(slices.Clone(p.RoCE.DSCP))) != len(p.RoCE.DSCP) {
		t.Fatalf("DSCP %v not sorted, unique, non-empty", p.RoCE.DSCP)
	}
	for _, d := range p.RoCE.DSCP {
		if d < 0 || d > 63 || d == p.CNP.DSCP {
			t.Fatalf("DSCP %d (CNP %d)", d, p.CNP.DSCP)
		}
	}
	if p.RoCE.Priority == p.CNP.Priority || p.Trust == "" || p.RoCE.Mode == "" || p.MTU.Host < 68 || p.MTU.Switch < 68 || len(p.ECMP.HashFields) == 0 {
		t.Fatalf("incomplete policy %+v", p)
	}
	for k, pos := range p.Pos {
		if pos.File != name || pos.Line < 1 {
			t.Fatalf("Pos[%s] = %v", k, pos)
		}
	}
	seen := map[string]bool{}
	for _, s := range inv.Switches {
		if !names.Device(s.Name) || seen[s.Name] || s.Role == "" || s.Pos.Line < 1 {
			t.Fatalf("switch %+v", s)
		}
		seen[s.Name] = true
	}
	for _, h := range inv.Hosts {
		if !names.Device(h.Name) || seen[h.Name] || h.Pos.Line < 1 {
			t.Fatalf("host %+v", h)
		}
		seen[h.Name] = true
	}
	checkCreds(t, "ssh.switches", inv.SSH.Switches)
	checkCreds(t, "ssh.hosts", inv.SSH.Hosts)
	if inv.SSH.Switches.Sudo || strings.ContainsFunc(inv.SSH.KnownHosts, isControl) || strings.HasPrefix(inv.SSH.KnownHosts, "-") {
		t.Fatalf("ssh %+v", inv.SSH)
	}
	for _, s := range inv.Switches {
		checkCreds(t, s.Name, s.Credentials)
		if c := inv.SwitchCredentials(s); s.Credentials.Sudo || c.Sudo || c.Port < 1 {
			t.Fatalf("switch %s: %+v", s.Name, c)
		}
	}
	for _, h := range inv.Hosts {
		checkCreds(t, h.Name, h.Credentials)
		if c := inv.HostCredentials(h); c.Port < 1 {
			t.Fatalf("host %s: %+v", h.Name, c)
		}
	}
}

// checkCreds asserts what the collectors rely on: every value is safe to
// hand to ssh as written.
func checkCreds(t *testing.T, who string, c Credentials) {
	t.Helper()
	if c.Port < 0 || c.Port > 65535 ||
		c.Username != "" && !userName.MatchString(c.Username) ||
		c.PasswordEnv != "" && !envName.MatchString(c.PasswordEnv) ||
		strings.ContainsFunc(c.KeyFile, isControl) || strings.HasPrefix(c.KeyFile, "-") {
		t.Fatalf("%s: unsafe credentials %+v", who, c)
	}
}
