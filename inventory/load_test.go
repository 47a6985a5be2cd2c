package inventory

import (
	"errors"
	"io/fs"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/internal/source"
)

// podA is testdata/good-{yaml,hcl}: every policy field written, equal to
// cumulus-default.
func podA(file string) *Inventory {
	pol, _ := policy.Preset(policy.DefaultPreset)
	return &Inventory{
		File:   file,
		Fabric: "pod-a",
		Policy: pol,
		Switches: []Switch{
			{Name: "leaf01", Role: "leaf", Address: "192.0.2.11", Ports: []string{"swp1-32"}},
			{Name: "leaf02", Role: "leaf", Address: "192.0.2.12"}, // role from the name
			{Name: "spine01", Role: "spine", Address: "spine01.example.net"},
		},
		Hosts: []Host{
			{Name: "gpu01", Address: "192.0.2.101", NICs: []string{"ens1f0np0", "ens1f1np1"}},
			{Name: "gpu02", Address: "2001:db8::102"},
		},
	}
}

// withoutPositions clears what legitimately differs between the YAML and
// HCL spelling of one inventory: the file name and line numbers.
func withoutPositions(inv *Inventory) *Inventory {
	c := *inv
	c.File = ""
	c.Policy.Pos = nil
	c.Switches = slices.Clone(inv.Switches)
	for i := range c.Switches {
		c.Switches[i].Pos = source.Pos{}
	}
	c.Hosts = slices.Clone(inv.Hosts)
	for i := range c.Hosts {
		c.Hosts[i].Pos = source.Pos{}
	}
	return &c
}

var allPosKeys = []string{
	"cnp.dscp", "cnp.priority", "ecmp.adaptive_routing", "ecmp.hash_fields",
	"mtu.host", "mtu.switch", "preset", "roce.dscp", "roce.mode",
	"roce.priority", "roce.traffic_class", "trust",
}

func TestLoadGood(t *testing.T) {
	for _, tc := range []struct {
		dir, file string
		// lines of Policy.Pos keys (sorted key order), switches and hosts
		pos             []int
		switches, hosts []int
	}{
		{
			dir: "testdata/good-yaml", file: "inventory.yaml",
			pos:      []int{6, 6, 10, 9, 8, 8, 4, 5, 5, 5, 5, 7},
			switches: []int{12, 13, 14}, hosts: []int{18, 19},
		},
		{
			dir: "testdata/good-hcl", file: "inventory.hcl",
			pos:      []int{12, 13, 22, 21, 17, 18, 4, 6, 9, 7, 8, 15},
			switches: []int{25, 30, 31}, hosts: []int{35, 39},
		},
	} {
		t.Run(tc.file, func(t *testing.T) {
			inv, err := Load(tc.dir)
			if err != nil {
				t.Fatalf("Load(%s): %v", tc.dir, err)
			}
			if inv.File != tc.file {
				t.Errorf("File = %q, want %q", inv.File, tc.file)
			}
			if got, want := withoutPositions(inv), withoutPositions(podA(tc.file)); !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
			if got := slices.Sorted(maps.Keys(inv.Policy.Pos)); !slices.Equal(got, allPosKeys) {
				t.Fatalf("Pos keys = %v, want %v", got, allPosKeys)
			}
			for i, k := range allPosKeys {
				if want := (source.Pos{File: tc.file, Line: tc.pos[i]}); inv.Policy.Pos[k] != want {
					t.Errorf("Pos[%s] = %v, want %v", k, inv.Policy.Pos[k], want)
				}
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

func TestLoadFindsYml(t *testing.T) {
	inv, err := Load("testdata/good-yml")
	if err != nil {
		t.Fatal(err)
	}
	want := []Switch{{Name: "leaf01", Role: "leaf", Address: "192.0.2.11", Pos: source.Pos{File: "inventory.yml", Line: 3}}}
	if inv.File != "inventory.yml" || inv.Fabric != "lab" || !reflect.DeepEqual(inv.Switches, want) {
		t.Errorf("got %+v", inv)
	}
}

func TestLoadDirErrors(t *testing.T) {
	_, err := Load("testdata/ambiguous")
	if err == nil || !strings.Contains(err.Error(), "ambiguous inventory: found inventory.yaml and inventory.hcl") {
		t.Errorf("ambiguous: err = %v", err)
	}
	_, err = Load("testdata/empty")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: err = %v, want fs.ErrNotExist", err)
	}
	if _, err := LoadFile("testdata/nope.yaml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadFile missing: err = %v, want fs.ErrNotExist", err)
	}
}

// TestLoadErrors checks the exact text of every error kind, in both formats.
func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string // "line: message"; the file name is prepended
	}{
		{"semantic.yaml", []string{
			`1: fabric name "pod a" is not a safe name: use letters, digits, '.', '_' and '-', starting with a letter or digit`,
			`3: unknown preset "nvidia" (want cumulus-default, cumulus-lossy-multi-tc, custom-dscp46 or spectrum-x-ra2.0)`,
			`5: roce.dscp 64 out of range 0..63`,
			`6: roce.priority 8 out of range 0..7`,
			`7: roce.traffic_class -1 out of range 0..7`,
			`8: roce.mode "lossles" invalid (want lossless, lossy, lossless-single-ipool, lossy-multi-tc or dci-1)`,
			`9: cnp.priority 9 out of range 0..7`,
			`9: cnp.dscp 26 is also a roce.dscp value: CNPs must have their own DSCP and strict priority`,
			`10: trust "l3" invalid (want dscp or pcp)`,
			`11: mtu.host 67 out of range 68..65535`,
			`11: mtu.switch 65536 out of range 68..65535`,
			`13: ecmp.hash_fields: unknown field "src-port" (want NVUE ecmp-hash fields: ` + strings.Join(hashFieldNames, ", ") + `)`,
			`15: switch "leaf01": unknown role "tor" (want leaf, spine, super-spine or border)`,
			`16: switch "spine01": role is required (leaf, spine, super-spine or border); only switches named leaf* default to leaf`,
			`17: switch name is required`,
			`18: switch name "../etc" is not a safe name: use letters, digits, '.', '_' and '-', starting with a letter or digit`,
			`19: switch "leaf02": invalid address "-oProxyCommand=x" (want an IP address or a host name)`,
			`19: switch "leaf02": invalid port "swp2;reboot" (want NVUE port names or ranges such as swp1 or swp1-32)`,
			`21: duplicate device name "leaf01" (first defined at line 15)`,
			`25: host "gpu01": invalid NIC name "this-name-is-too-long" (want a netdev name: 1-15 letters, digits, '.', '_' or '-')`,
		}},
		{"semantic.hcl", []string{
			`1: fabric name "pod a" is not a safe name: use letters, digits, '.', '_' and '-', starting with a letter or digit`,
			`3: unknown preset "nvidia" (want cumulus-default, cumulus-lossy-multi-tc, custom-dscp46 or spectrum-x-ra2.0)`,
			`5: roce.dscp 64 out of range 0..63`,
			`6: roce.priority 8 out of range 0..7`,
			`7: roce.traffic_class -1 out of range 0..7`,
			`8: roce.mode "lossles" invalid (want lossless, lossy, lossless-single-ipool, lossy-multi-tc or dci-1)`,
			`11: cnp.dscp 26 is also a roce.dscp value: CNPs must have their own DSCP and strict priority`,
			`12: cnp.priority 9 out of range 0..7`,
			`14: trust "l3" invalid (want dscp or pcp)`,
			`16: mtu.host 67 out of range 68..65535`,
			`17: mtu.switch 65536 out of range 68..65535`,
			`20: ecmp.hash_fields: unknown field "src-port" (want NVUE ecmp-hash fields: ` + strings.Join(hashFieldNames, ", ") + `)`,
			`23: switch "leaf01": unknown role "tor" (want leaf, spine, super-spine or border)`,
			`24: switch "spine01": role is required (leaf, spine, super-spine or border); only switches named leaf* default to leaf`,
			`25: switch name is required`,
			`26: switch name "../etc" is not a safe name: use letters, digits, '.', '_' and '-', starting with a letter or digit`,
			`28: switch "leaf02": invalid port "swp2;reboot" (want NVUE port names or ranges such as swp1 or swp1-32)`,
			`29: switch "leaf02": invalid address "-oProxyCommand=x" (want an IP address or a host name)`,
			`31: duplicate device name "leaf01" (first defined at line 23)`,
			`35: host "gpu01": invalid NIC name "this-name-is-too-long" (want a netdev name: 1-15 letters, digits, '.', '_' or '-')`,
		}},
		// "vendor" is an mlnx_qos TSA, but no policy: it guarantees nothing.
		{"host-tsa.yaml", []string{`4: roce.host_tsa "vendor" invalid (want ets or strict)`}},
		{"host-tsa.hcl", []string{`4: roce.host_tsa "wrr" invalid (want ets or strict)`}},
		{"empty-lists.yaml", []string{
			`1: fabric is required`,
			`2: roce.dscp must list at least one value`,
			`3: ecmp.hash_fields must list at least one field`,
		}},
		{"empty-lists.hcl", []string{
			`1: fabric is required`,
			`2: roce.dscp must list at least one value`,
			`3: ecmp.hash_fields must list at least one field`,
		}},
		// cnp.priority is not written: the clash is reported at roce.priority.
		{"cnp-priority.yaml", []string{
			`5: cnp.priority 6 equals roce.priority: CNPs must have their own strict priority`,
			`7: cnp.dscp 24 is also a roce.dscp value: CNPs must have their own DSCP and strict priority`,
		}},
		{"cnp-priority.hcl", []string{
			`5: cnp.priority 6 equals roce.priority: CNPs must have their own strict priority`,
			`7: cnp.dscp 24 is also a roce.dscp value: CNPs must have their own DSCP and strict priority`,
		}},
		{"min-bandwidth.yaml", []string{`4: roce.min_bandwidth 0 out of range 1..100`}},
		{"min-bandwidth.hcl", []string{`4: roce.min_bandwidth 101 out of range 1..100`}},
		{"unknown-key.yaml", []string{
			`4: unknown key "dscpp" in policy.roce`,
			`7: unknown key "adress" in switches[0]`,
			`8: unknown top-level key "hots"`,
		}},
		{"unknown-key.hcl", []string{
			`4: Unsupported argument: An argument named "dscpp" is not expected here. Did you mean "dscp"?`,
			`8: Unsupported argument: An argument named "adress" is not expected here. Did you mean "address"?`,
			`10: Unsupported block type: Blocks of type "hots" are not expected here. Did you mean "host"?`,
		}},
		{"types.yaml", []string{
			`4: roce.dscp: want an integer or a list of integers, got string "27"`,
			`4: roce.dscp: want an integer or a list of integers, got string "x"`,
			`5: policy.roce.priority: want an integer, got string "high"`,
			`7: policy.ecmp.adaptive_routing: want true or false, got string "maybe"`,
			`8: switches: want a list of switches, got mapping`,
			`10: hosts[0].nics: want a list of strings, got string "ens1f0np0"`,
		}},
		{"types.hcl", []string{
			`4: roce.dscp: want a list of integers, got string "x"`,
			`4: roce.dscp: want a list of integers, got bool`,
			`5: roce.priority: want an integer, got string "high"`,
			`8: ecmp.adaptive_routing: want a boolean, got string "yes"`,
			`12: switch "leaf01": ports: want a list of strings, got string "swp1"`,
			`15: host "gpu01": nics: want a list of strings, got tuple`,
		}},
		// yaml.v3 puts a flow error at the line of the enclosing node.
		{"syntax.yaml", []string{`2: did not find expected ',' or ']'`}},
		{"syntax.hcl", []string{`5: Missing item separator: Expected a comma to mark the beginning of the next item.`}},
		{"structure.yaml", []string{
			`2: mapping key "fabric" already defined at line 1`,
			`4: empty entry in switches`,
			`6: only one YAML document allowed (found another)`,
		}},
		{"structure.hcl", []string{
			`1: Variables not allowed: Variables may not be used here.`,
			`3: duplicate policy block (first at line 2)`,
			`4: Missing name for switch: All switch blocks must have 1 labels (name).`,
			`5: Extraneous label for switch: Only 1 labels (name) are expected for switch blocks.`,
		}},
	} {
		t.Run(tc.file, func(t *testing.T) { wantErrors(t, "testdata/bad/"+tc.file, tc.want) })
	}
}

// wantErrors loads path and checks it fails with exactly want, each
// "line: message" (the file name is prepended), and returns the error text.
func wantErrors(t *testing.T, path string, want []string) string {
	t.Helper()
	inv, err := LoadFile(path)
	if inv != nil {
		t.Errorf("inventory returned along with errors: %+v", inv)
	}
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("err = %v (%T), want Errors", err, err)
	}
	full := make([]string, len(want))
	for i, w := range want {
		full[i] = path + ":" + w
	}
	if got := strings.Split(err.Error(), "\n"); !slices.Equal(got, full) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(full, "\n"))
	}
	if len(errs) != len(want) {
		t.Errorf("len(Errors) = %d, want %d", len(errs), len(want))
	}
	return err.Error()
}

// TestErrorsDeterministic guards against HCL's map-order diagnostics
// (hashicorp/hcl v2.25.0 hclsyntax/structure.go ranges over the attribute
// map): the same file must give the same text every time.
func TestErrorsDeterministic(t *testing.T) {
	for _, path := range []string{"testdata/bad/unknown-key.hcl", "testdata/bad/semantic.hcl", "testdata/bad/semantic.yaml"} {
		_, first := LoadFile(path)
		for range 20 {
			if _, err := LoadFile(path); err.Error() != first.Error() {
				t.Fatalf("%s: run differs:\n%v\nvs\n%v", path, err, first)
			}
		}
	}
}

func TestParseUnknownFormat(t *testing.T) {
	_, err := Parse("inventory.json", []byte(`{}`))
	want := `inventory.json:1: unknown inventory format ".json": want .yaml, .yml or .hcl`
	if _, ok := err.(Errors); !ok || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	if _, err := Parse("INVENTORY.YAML", []byte("fabric: a\n")); err != nil {
		t.Errorf("upper-case suffix: %v", err)
	}
}
