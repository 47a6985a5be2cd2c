package nvue

import (
	"strings"
	"testing"
)

// The same configuration as NVUE YAML and as `nv config show -o commands`
// must give the same tree: the collector may have saved either.
func TestYAMLAndCommandsAgree(t *testing.T) {
	for _, c := range []struct {
		name, yaml, commands string
		version              string
	}{
		{"RoCE switch, CL 5.14 syntax (enable on)", "roce_514.yaml", "roce_514.commands", "Cumulus Linux 5.14.0"},
		{"RoCE switch, CL 5.15 syntax (state enabled)", "roce_515.yaml", "roce_515.commands", "Cumulus Linux 5.15.0"},
		{"CL 5.9.2 oxidized capture", "oxidized_5.9.2.yaml", "oxidized_5.9.2.commands", "Cumulus Linux 5.9.2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			y, err := ParseYAML(c.yaml, readTestdata(t, c.yaml))
			if err != nil {
				t.Fatal(err)
			}
			cmdData := readTestdata(t, c.commands)
			cm, err := parseCommands(c.commands, cmdData)
			if err != nil {
				t.Fatal(err)
			}
			if y.Version != c.version {
				t.Errorf("yaml version = %q, want %q", y.Version, c.version)
			}
			if d := treeDiff(y.Root, cm.Root); d != "" {
				t.Errorf("yaml (-) and commands (+) differ:\n%s", d)
			}
			if len(flatten(y.Root)) < 10 {
				t.Errorf("suspiciously small tree: %v", flatten(y.Root))
			}
			// A CRLF capture with trailing blanks parses the same.
			crlf := strings.ReplaceAll(string(cmdData), "\n", "  \r\n")
			cm2, err := parseCommands(c.commands, []byte(crlf))
			if err != nil {
				t.Fatal(err)
			}
			if d := treeDiff(cm.Root, cm2.Root); d != "" {
				t.Errorf("CRLF capture differs:\n%s", d)
			}
		})
	}
}

// docsCommands (an unattributed public capture, not verified) as NVUE would write it in YAML; the shapes of
// vlan/vni and ipv4 address members follow the CL-DOCS startup.yaml examples.
const docsYAML = `- set:
    bridge:
      domain:
        br_default:
          type: vlan-aware
          vlan:
            '20':
              vni:
                '20': {}
    evpn:
      state: enabled
    interface:
      eth0:
        ipv4:
          dhcp-client:
            state: enabled
      lo:
        ipv4:
          address:
            172.16.255.3/32: {}
      swp1-2,32:
        type: swp
      swp32:
        bridge:
          domain:
            br_default:
              access: 20
    router:
      bgp:
        state: enabled
    system:
      aaa:
        user:
          cumulus:
            hashed-password: '*'
      ntp: {}
`

func TestYAMLAndCommandsAgreeDocsExample(t *testing.T) {
	y, err := ParseYAML("y", []byte(docsYAML))
	if err != nil {
		t.Fatal(err)
	}
	c, err := parseCommands("c", []byte(docsCommands))
	if err != nil {
		t.Fatal(err)
	}
	if d := treeDiff(y.Root, c.Root); d != "" {
		t.Errorf("yaml (-) and commands (+) differ:\n%s", d)
	}
}

func TestYAMLAndCommandsAgreeOnUnset(t *testing.T) {
	y := `- set:
    interface:
      swp1:
        link:
          state:
            up: {}
        qos:
          pfc-watchdog: {}
    qos:
      roce:
        mode: lossy
        state: enabled
      pfc:
        p:
          switch-priority:
            '3': {}
            '5': {}
    system:
      ntp: {}
- unset:
    interface:
      swp1:
        qos:
          pfc-watchdog:
    qos:
      roce:
        mode:
      pfc:
        p:
          switch-priority:
            '5': {}
    system:
      ntp:
`
	c := `nv set interface swp1 link state up
nv set interface swp1 qos pfc-watchdog
nv set qos roce mode lossy
nv set qos roce state enabled
nv set qos pfc p switch-priority 3
nv set qos pfc p switch-priority 5
nv set system ntp
nv unset interface swp1 qos pfc-watchdog
nv unset qos roce mode
nv unset qos pfc p switch-priority 5
nv unset system ntp
`
	yc, err := ParseYAML("y", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	cc, err := parseCommands("c", []byte(c))
	if err != nil {
		t.Fatal(err)
	}
	if d := treeDiff(yc.Root, cc.Root); d != "" {
		t.Errorf("yaml (-) and commands (+) differ:\n%s", d)
	}
	if yc.Root.Get("qos", "pfc", "p", "switch-priority", "3") == nil || yc.Root.Get("qos", "roce", "mode") != nil {
		t.Errorf("unset applied wrongly: %v", flatten(yc.Root))
	}
}

// Spot checks of the RoCE config itself, so that agreement is not two equal
// wrong trees.
func TestRoceConfigContent(t *testing.T) {
	for _, name := range []string{"roce_514.yaml", "roce_514.commands", "roce_515.yaml", "roce_515.commands"} {
		t.Run(name, func(t *testing.T) {
			parse := ParseYAML
			if strings.HasSuffix(name, ".commands") {
				parse = parseCommands
			}
			cfg, err := parse(name, readTestdata(t, name))
			if err != nil {
				t.Fatal(err)
			}
			r := cfg.Root
			checks := map[string][]string{
				"lossless":      {"qos", "roce", "mode"},
				"both":          {"qos", "mapping", "default-global", "trust"},
				"3":             {"qos", "mapping", "default-global", "dscp", "26", "switch-priority"},
				"ROCE_MAP":      {"interface", "swp12", "qos", "mapping", "profile"},
				"9216":          {"interface", "swp1-32", "link", "mtu"},
				"swp":           {"interface", "swp1-32", "type"},
				"1500000":       {"qos", "congestion-control", "default-global", "traffic-class", "3", "max-threshold"},
				"150000":        {"qos", "congestion-control", "default-global", "traffic-class", "3", "min-threshold"},
				"100":           {"qos", "congestion-control", "default-global", "traffic-class", "3", "probability"},
				"enable":        {"qos", "pfc", "default-global", "tx"},
				"*":             {"system", "aaa", "user", "cumulus", "hashed-password"},
				"ROCE_PFC_PROF": {"interface", "swp12", "qos", "pfc", "profile"},
			}
			if strings.Contains(name, "514") {
				checks["on"] = []string{"qos", "roce", "enable"}
			} else {
				checks["enabled"] = []string{"qos", "roce", "state"}
			}
			for v, p := range checks {
				if n := leaf(t, r, p...); n.Value != v {
					t.Errorf("%v = %q, want %q", p, n.Value, v)
				}
			}
			object(t, r, "qos", "pfc", "default-global", "switch-priority", "3")
			object(t, r, "qos", "traffic-pool", "roce-lossless", "switch-priority", "3")
			object(t, r, "qos", "egress-queue-mapping", "default-global", "switch-priority", "3")
			object(t, r, "interface", "swp1", "qos", "pfc-watchdog")
			object(t, r, "system", "ntp")
		})
	}
}
