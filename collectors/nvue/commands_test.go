package nvue

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitShell(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		err  bool
	}{
		{in: "nv set system aaa user cumulus hashed-password '*'", want: []string{"nv", "set", "system", "aaa", "user", "cumulus", "hashed-password", "*"}},
		{in: `nv set interface swp1 description "uplink to \"spine\" 1"`, want: []string{"nv", "set", "interface", "swp1", "description", `uplink to "spine" 1`}},
		{in: `nv set system message pre-login 'a  b'`, want: []string{"nv", "set", "system", "message", "pre-login", "a  b"}},
		{in: `nv set a b ''`, want: []string{"nv", "set", "a", "b", ""}},
		{in: `nv set a b c\ d`, want: []string{"nv", "set", "a", "b", "c d"}},
		{in: "nv\tset  a   b # trailing comment", want: []string{"nv", "set", "a", "b"}},
		{in: "nv set a b#c", want: []string{"nv", "set", "a", "b#c"}},
		{in: "nv set a 'b", err: true},
		{in: `nv set a "b`, err: true},
		{in: `nv set a b\`, err: true},
	} {
		got, err := splitShell(c.in)
		if (err != nil) != c.err {
			t.Errorf("%q: err = %v, want error %v", c.in, err, c.err)
			continue
		}
		if !c.err && !slices.Equal(got, c.want) {
			t.Errorf("%q = %q, want %q", c.in, got, c.want)
		}
	}
}

// The real `nv config show -o commands` excerpt of nvue.md §3.3, without the
// prompt line and the `...` elision the docs add.
const docsCommands = `nv set bridge domain br_default type vlan-aware
nv set bridge domain br_default vlan 20 vni 20
nv set evpn state enabled
nv set interface eth0 ipv4 dhcp-client state enabled
nv set interface lo ipv4 address 172.16.255.3/32
nv set interface swp1-2,32 type swp
nv set interface swp32 bridge domain br_default access 20
nv set router bgp state enabled
nv set system aaa user cumulus hashed-password '*'
nv set system ntp
`

func TestParseCommandsDocsExample(t *testing.T) {
	cfg, err := ParseCommands("leaf3/nv-config-commands.txt", []byte(docsCommands))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Format != "commands" || cfg.Version != "" || cfg.File != "leaf3/nv-config-commands.txt" {
		t.Errorf("config = %q %q %q", cfg.File, cfg.Format, cfg.Version)
	}
	want := []string{
		" > bridge : {}",
		" > bridge > domain : {}",
		" > bridge > domain > br_default : {}",
		" > bridge > domain > br_default > type = vlan-aware",
		" > bridge > domain > br_default > vlan : {}",
		" > bridge > domain > br_default > vlan > 20 : {}",
		" > bridge > domain > br_default > vlan > 20 > vni : {}",
		" > bridge > domain > br_default > vlan > 20 > vni > 20 : {}",
		" > evpn : {}",
		" > evpn > state = enabled",
		" > interface : {}",
		" > interface > eth0 : {}",
		" > interface > eth0 > ipv4 : {}",
		" > interface > eth0 > ipv4 > dhcp-client : {}",
		" > interface > eth0 > ipv4 > dhcp-client > state = enabled",
		" > interface > lo : {}",
		" > interface > lo > ipv4 : {}",
		" > interface > lo > ipv4 > address : {}",
		" > interface > lo > ipv4 > address > 172.16.255.3/32 : {}",
		" > interface > swp1-2,32 : {}",
		" > interface > swp1-2,32 > type = swp",
		" > interface > swp32 : {}",
		" > interface > swp32 > bridge : {}",
		" > interface > swp32 > bridge > domain : {}",
		" > interface > swp32 > bridge > domain > br_default : {}",
		" > interface > swp32 > bridge > domain > br_default > access = 20",
		" > router : {}",
		" > router > bgp : {}",
		" > router > bgp > state = enabled",
		" > system : {}",
		" > system > aaa : {}",
		" > system > aaa > user : {}",
		" > system > aaa > user > cumulus : {}",
		" > system > aaa > user > cumulus > hashed-password = *",
		" > system > ntp : {}",
	}
	if got, w := strings.Join(flatten(cfg.Root), "\n"), strings.Join(want, "\n"); got != w {
		t.Errorf("tree:\n%s\nwant:\n%s", got, w)
	}
	if n := object(t, cfg.Root, "system", "ntp"); n.Line != 10 || len(n.Children) != 0 {
		t.Errorf("system ntp = %+v, want an empty object at line 10", n)
	}
}

func TestParseCommandsSemantics(t *testing.T) {
	in := strings.Join([]string{
		"# saved by the collector",        // 1
		"",                                // 2
		"nv set qos roce mode lossy   ",   // 3
		"nv set qos roce mode lossless\r", // 4
		"nv set qos mapping default-global dscp 10,21,36 switch-priority 0",                    // 5
		"nv set qos pfc p switch-priority 3",                                                   // 6
		"nv set qos pfc p switch-priority 5",                                                   // 7
		"nv set qos pfc p switch-priority 3,5",                                                 // 8
		"nv set qos traffic-pool default-lossy switch-priority 0-3,5-7",                        // 9
		"nv set interface swp1 link state up",                                                  // 10
		"nv set interface swp1 qos pfc-watchdog",                                               // 11
		"nv set qos remark default-global",                                                     // 12
		"nv set interface swp2 router adaptive-routing",                                        // 13
		"nv set interface vlan10 ip igmp",                                                      // 14
		"nv set qos congestion-control default-global traffic-class 4,5,7 min-threshold 40000", // 15
		"nv set qos egress-queue-mapping default-global switch-priority 2 traffic-class 7",     // 16
		"nv set qos roce",   // 17
		"nv set evpn",       // 18
		"nv set router bgp", // 19
	}, "\n")
	cfg, err := ParseCommands("c.txt", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path  []string
		value string
		line  int
	}{
		{[]string{"qos", "roce", "mode"}, "lossless", 4},
		{[]string{"qos", "mapping", "default-global", "dscp", "10,21,36", "switch-priority"}, "0", 5},
		{[]string{"qos", "congestion-control", "default-global", "traffic-class", "4,5,7", "min-threshold"}, "40000", 15},
		{[]string{"qos", "egress-queue-mapping", "default-global", "switch-priority", "2", "traffic-class"}, "7", 16},
	} {
		n := leaf(t, cfg.Root, c.path...)
		if n.Value != c.value || n.Line != c.line {
			t.Errorf("%v = %q at %d, want %q at %d", c.path, n.Value, n.Line, c.value, c.line)
		}
	}
	sp := object(t, cfg.Root, "qos", "pfc", "p", "switch-priority")
	var keys []string
	for _, c := range sp.Children {
		keys = append(keys, c.Key)
		if c.IsLeaf || len(c.Children) != 0 {
			t.Errorf("member %q is not an empty object", c.Key)
		}
	}
	if got := strings.Join(keys, " "); got != "3 5 3,5" {
		t.Errorf("pfc switch-priority members = %q, want the raw words", got)
	}
	for _, p := range [][]string{
		{"qos", "traffic-pool", "default-lossy", "switch-priority", "0-3,5-7"},
		{"interface", "swp1", "link", "state", "up"},
		{"interface", "swp1", "qos", "pfc-watchdog"},
		{"qos", "remark", "default-global"},
		{"interface", "swp2", "router", "adaptive-routing"},
		{"interface", "vlan10", "ip", "igmp"},
		{"evpn"},
		{"router", "bgp"},
	} {
		if n := object(t, cfg.Root, p...); len(n.Children) != 0 {
			t.Errorf("%v has members", p)
		}
	}
	// A bare `nv set qos roce` keeps what was set below it.
	if n := object(t, cfg.Root, "qos", "roce"); len(n.Children) != 1 || n.Line != 17 {
		t.Errorf("qos roce = %+v, want mode kept and line 17", n)
	}
	var check func(n *Node)
	check = func(n *Node) {
		if n.Line < 1 {
			t.Errorf("%q has line %d", n.Key, n.Line)
		}
		for _, c := range n.Children {
			check(c)
		}
	}
	check(cfg.Root)
}

func TestParseCommandsUnset(t *testing.T) {
	in := `nv set qos roce mode lossy
nv set qos roce enable on
nv set qos pfc p switch-priority 3
nv set qos pfc p switch-priority 5
nv set system ntp
nv set system hostname leaf01
nv set interface swp1 type swp
nv set interface swp1 link mtu 9216
nv set interface swp2 type swp
nv unset qos roce mode lossy
nv unset qos roce enable off
nv unset qos pfc p switch-priority 5
nv unset system ntp
nv unset interface swp1
nv unset router bgp
nv unset interface swp9 type swp
`
	cfg, err := ParseCommands("c.txt", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		" > interface : {}",
		" > interface > swp2 : {}",
		" > interface > swp2 > type = swp",
		" > qos : {}",
		" > qos > pfc : {}",
		" > qos > pfc > p : {}",
		" > qos > pfc > p > switch-priority : {}",
		" > qos > pfc > p > switch-priority > 3 : {}",
		" > qos > roce : {}",
		" > qos > roce > enable = on", // `unset ... enable off` names another value
		" > system : {}",
		" > system > hostname = leaf01",
	}
	if got, w := strings.Join(flatten(cfg.Root), "\n"), strings.Join(want, "\n"); got != w {
		t.Errorf("tree:\n%s\nwant:\n%s", got, w)
	}
}

func TestParseCommandsErrors(t *testing.T) {
	for _, c := range []struct {
		name, in string
		line     int
		msg      string
	}{
		{"empty", "", 1, "empty configuration"},
		{"comments only", "# a\n\n   \n", 1, "empty configuration"},
		{"prompt line (bad capture)", "cumulus@leaf3:mgmt:~$ nv config show -o commands\nnv set evpn state enabled\n", 1, "not an `nv set`/`nv unset` command"},
		{"other nv command", "nv set evpn state enabled\nnv config save\n", 2, "not an `nv set`"},
		{"error text", "nv set evpn state enabled\r\nError: Config revision is not applied\r\n", 2, "not an `nv set`"},
		{"no path", "nv set\n", 1, "without a path"},
		{"unset without path", "nv set a b c\nnv unset   \n", 2, "without a path"},
		{"unterminated quote", "nv set evpn state enabled\nnv set system aaa user cumulus hashed-password '*\n", 2, "unterminated single quote"},
		{"empty key", "nv set interface '' type swp\n", 1, "empty key"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseCommands("sw/nv-config-commands.txt", []byte(c.in))
			if err == nil {
				t.Fatal("no error")
			}
			wantSourceError(t, err, "sw/nv-config-commands.txt", c.line, c.msg)
		})
	}
}
