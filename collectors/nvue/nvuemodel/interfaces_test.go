package nvuemodel

import (
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/model"
)

func notes(s *model.Switch) string {
	var out []string
	for _, n := range s.Notes {
		out = append(out, n.Error())
	}
	return strings.Join(out, "\n")
}

// An MLAG leaf in the startup.yaml shape of CumulusNetworks/docs
// content/cumulus-linux-515/Layer-2/Multi-Chassis-Link-Aggregation-MLAG.md
// (bond1-3 with `bond: member: swpN: {}`, `type: bond`, a `peerlink` bond
// of `type: peerlink`, `peerlink.4094` of `type: sub`, SVIs of `type: svi`),
// with uplinks as BGP unnumbered neighbors; values are ours.
const mlagLeaf = `- set:
    interface:
      bond1:
        bond:
          member:
            swp1: {}
          mlag:
            enable: on
            id: 1
        bridge:
          domain:
            br_default: {}
        link:
          mtu: 9000
        qos:
          mapping:
            profile: HOSTS
        type: bond
      bond2:
        bond:
          member:
            swp2: {}
          mlag:
            enable: on
            id: 2
        bridge:
          domain:
            br_default: {}
        type: bond
      eth0:
        ip:
          vrf: mgmt
        type: eth
      lo:
        ip:
          address:
            10.10.10.1/32: {}
        type: loopback
      peerlink:
        bond:
          member:
            swp49: {}
            swp50: {}
        type: peerlink
      peerlink.4094:
        base-interface: peerlink
        type: sub
        vlan: 4094
      swp1:
        link:
          mtu: 1500
        type: swp
      swp2:
        qos:
          pfc:
            profile: HOSTS_PFC
        type: swp
      swp49-52:
        type: swp
      vlan10:
        type: svi
        vlan: 10
    qos:
      mapping:
        HOSTS:
          trust: both
    vrf:
      default:
        router:
          bgp:
            neighbor:
              swp51:
                remote-as: external
                type: unnumbered
              swp52:
                remote-as: external
                type: unnumbered
`

func TestBondsAreThePorts(t *testing.T) {
	s, problems := yamlSwitch(t, mlagLeaf)
	if problems != "" {
		t.Fatal(problems)
	}
	if want := []string{"bond1", "bond2", "peerlink", "swp51", "swp52"}; !reflect.DeepEqual(s.Ports, want) {
		t.Errorf("ports %v, want %v", s.Ports, want)
	}
	if want := map[string][]string{"bond1": {"swp1"}, "bond2": {"swp2"}, "peerlink": {"swp49", "swp50"}}; !reflect.DeepEqual(s.Bonds, want) {
		t.Errorf("bonds %v", s.Bonds)
	}
	if got := s.PortQoS.At("bond1").MappingProfile; got.V != "HOSTS" || got.Origin.Pos().Line != 17 {
		t.Errorf("bond1 mapping %+v", got)
	}
	if s.PortQoS.At("bond2") != s.Global {
		t.Error("bond2, unbound, shares the global QoS")
	}
	if s.MTU.At("bond1").V != 9000 || s.MTU.At("bond2").V != 9216 {
		t.Errorf("bond MTU %v", s.MTU)
	}
	if len(s.MemberQoS) != 1 || s.MemberQoS[0].Member != "swp2" || s.MemberQoS[0].Bond != "bond2" ||
		s.MemberQoS[0].Feature != "pfc" || s.MemberQoS[0].Profile.V != "HOSTS_PFC" {
		t.Errorf("member bindings %+v", s.MemberQoS)
	}
	if want := []string{"swp51", "swp52"}; !reflect.DeepEqual(s.ARPorts, want) {
		t.Errorf("routed ports %v", s.ARPorts)
	}
	for _, want := range []string{
		"nv-config.yaml: interfaces not checked (not RoCE ports): eth0, lo, peerlink.4094, vlan10",
		"nv-config.yaml:51: link mtu 1500 on swp1 is not what counts: swp1 is a member of bond1",
	} {
		if !strings.Contains(notes(s), want) {
			t.Errorf("notes lack %q:\n%s", want, notes(s))
		}
	}
}

// `nv set interface bond1 bond member swp1-4` and, for a bond not named
// bond*, `type bond` (CumulusNetworks/docs content/cumulus-linux-515/
// Layer-2/Bonding-Link-Aggregation.md); `nv set interface bond1 qos
// mapping profile`, the only place NVUE accepts QoS for a bond.
func TestBondCommands(t *testing.T) {
	s, problems := cmdSwitch(t, `nv set interface bond1 bond member swp1-4
nv set interface bond1 qos mapping profile default-global
nv set interface hostbond bond member swp5
nv set interface hostbond type bond
nv set interface swp6 type swp
`)
	if problems != "" {
		t.Fatal(problems)
	}
	if want := []string{"bond1", "hostbond", "swp6"}; !reflect.DeepEqual(s.Ports, want) {
		t.Errorf("ports %v", s.Ports)
	}
	if want := []string{"swp1", "swp2", "swp3", "swp4"}; !reflect.DeepEqual(s.Bonds["bond1"], want) {
		t.Errorf("bond1 %v", s.Bonds["bond1"])
	}
	if notes(s) != "" {
		t.Errorf("notes %q", notes(s))
	}
}

func TestBondProblems(t *testing.T) {
	_, problems := cmdSwitch(t, `nv set interface bond1 bond member swp1-2
nv set interface bond2 bond member swp2
`)
	if !strings.Contains(problems, "nv-config-commands.txt:2: swp2 is a member of both bond1 and bond2") {
		t.Errorf("problems %q", problems)
	}
}

// `nv set interface swp1 link breakout 4x` then `nv set interface swp1s0-3
// link state up` (CumulusNetworks/docs content/cumulus-linux-515/
// Layer-1-and-Switch-Ports/Interface-Configuration-and-Management/
// Switch-Port-Attributes.md, "Breakout Ports"): swp1 is no longer a port,
// swp1s0-3 are.
func TestBreakout(t *testing.T) {
	for _, c := range []struct {
		name, src string
		yaml      bool
		ports     []string
		notes     []string
	}{
		{name: "docs example, commands", src: "nv set interface swp1 link breakout 4x\nnv set interface swp1s0-3 link state up\nnv set interface swp2 type swp\n",
			ports: []string{"swp1s0", "swp1s1", "swp1s2", "swp1s3", "swp2"},
			notes: []string{"interfaces not checked (not RoCE ports): swp1 (breakout 4x)"}},
		{name: "2x lanes-per-port 2, children implied", src: "nv set interface swp1 link breakout 2x lanes-per-port 2\n",
			ports: []string{"swp1s0", "swp1s1"},
			notes: []string{"swp1 (breakout 2x)", "split ports implied by a breakout and checked with defaults: swp1s0-1"}},
		{name: "YAML collection", yaml: true, src: "- set:\n    interface:\n      swp3:\n        link:\n          breakout:\n            2x: {}\n      swp4:\n        link:\n          breakout:\n            disabled: {}\n      swp5:\n        link:\n          breakout:\n            1x: {}\n",
			ports: []string{"swp3s0", "swp3s1", "swp5"},
			notes: []string{"interfaces not checked (not RoCE ports): swp3 (breakout 2x), swp4 (breakout disabled)"}},
		{name: "8x", src: "nv set interface swp63 link breakout 8x lanes-per-port 1\nnv set interface swp63s0-3 link speed 100G\n",
			ports: []string{"swp63s0", "swp63s1", "swp63s2", "swp63s3", "swp63s4", "swp63s5", "swp63s6", "swp63s7"},
			notes: []string{"implied by a breakout and checked with defaults: swp63s4-7"}},
		// NVIDIA's generated core-switch file (checks/testdata/
		// nvidia-bonded-breakout) types swp10s0-1 and downs swp10 without a
		// breakout line for it: a split port exists only on a split parent.
		{name: "split ports named without the parent's breakout", src: "nv set interface swp10,swp10s0-1 type swp\nnv set interface swp10 link state down\n",
			ports: []string{"swp10s0", "swp10s1"},
			notes: []string{"interfaces not checked (not RoCE ports): swp10 (split ports configured)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s *model.Switch
			var problems string
			if c.yaml {
				s, problems = yamlSwitch(t, c.src)
			} else {
				s, problems = cmdSwitch(t, c.src)
			}
			if problems != "" {
				t.Fatal(problems)
			}
			if !reflect.DeepEqual(s.Ports, c.ports) {
				t.Errorf("ports %v, want %v", s.Ports, c.ports)
			}
			for _, want := range c.notes {
				if !strings.Contains(notes(s), want) {
					t.Errorf("notes lack %q:\n%s", want, notes(s))
				}
			}
		})
	}
	_, problems := cmdSwitch(t, "nv set interface swp1 link breakout 3x\n")
	if !strings.Contains(problems, `nv-config-commands.txt:1: interface swp1 link breakout "3x": NVUE accepts 1x, 2x, 4x, 8x, disabled or loopback`) {
		t.Errorf("problems %q", problems)
	}
}

func TestInventoryNamesMembersAndParents(t *testing.T) {
	src := strings.Replace(mlagLeaf, "      vlan10:\n", "      swp53:\n        link:\n          breakout:\n            2x: {}\n      vlan10:\n", 1)
	s, problems := yamlSwitch(t, src, "swp1", "swp51,swp53", "bond1")
	if problems != "" {
		t.Fatal(problems)
	}
	if want := []string{"bond1", "swp51", "swp53s0", "swp53s1"}; !reflect.DeepEqual(s.Ports, want) {
		t.Errorf("ports %v, want %v", s.Ports, want)
	}
	for _, want := range []string{"inventory port swp1 is a member of bond1: checked as bond1", "inventory port swp53 is split (link breakout 2x): checked as swp53s0-1"} {
		if !strings.Contains(notes(s), want) {
			t.Errorf("notes lack %q:\n%s", want, notes(s))
		}
	}
}

// Global and per-port adaptive routing (CumulusNetworks/docs content/
// cumulus-linux-5NN/Layer-3/Routing/Equal-Cost-Multipath-Load-Sharing.md):
// up to 5.12 "NVUE sets adaptive routing on the ports and enables the
// adaptive routing feature"; from 5.13 the global setting is its own step.
func TestAdaptiveRoutingGlobal(t *testing.T) {
	for _, c := range []struct {
		name, version, global string
		want                  bool
	}{
		{"5.12: the port turns it on", "5.12.0", "", true},
		{"5.9: the port turns it on", "5.9.2", "", true},
		{"5.12: an explicit global off wins", "5.12.0", "      adaptive-routing:\n        enable: off\n", false},
		{"5.13: the port alone does not", "5.13.1", "", false},
		{"5.14: global on", "5.14.0", "      adaptive-routing:\n        enable: on\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "- header:\n    version: Cumulus Linux " + c.version + "\n- set:\n    interface:\n      swp51:\n        router:\n          adaptive-routing:\n            enable: on\n"
			if c.global != "" {
				src += "    router:\n" + c.global
			}
			s, problems := yamlSwitch(t, src)
			if problems != "" {
				t.Fatal(problems)
			}
			if s.AR.V != c.want || !s.PortAR["swp51"].V {
				t.Errorf("AR %+v, port %+v", s.AR, s.PortAR["swp51"])
			}
		})
	}
}

// "Cumulus Linux does not support adaptive routing on layer 3
// subinterfaces, SVIs, bonds or bond members" (same page): set there, it is
// noted, and such interfaces never join the ECMP group.
func TestAdaptiveRoutingUnsupported(t *testing.T) {
	s, problems := cmdSwitch(t, `nv set interface bond1 bond member swp1-2
nv set interface bond1 ip address 10.0.0.0/31
nv set interface bond1 router adaptive-routing state enabled
nv set interface swp3.100 ip address 10.0.1.0/31
nv set interface swp4 ip address 10.0.2.0/31
nv set interface swp5 ip address 10.0.3.0/31
nv set interface swp5 ip vrf RED
nv set interface swp6 bridge domain br_default
nv set interface swp7 router ospf area 0
`)
	if problems != "" {
		t.Fatal(problems)
	}
	if want := []string{"swp4", "swp7"}; !reflect.DeepEqual(s.ARPorts, want) {
		t.Errorf("routed ports %v, want %v", s.ARPorts, want)
	}
	// The adaptive-routing check reports it (checks/adaptive_routing.go).
	if ar := s.Flow.ARUnsupported; len(ar) != 1 || ar[0].Port != "bond1" || ar[0].What != "bonds" || ar[0].V.Origin.Pos().Line != 3 {
		t.Errorf("unsupported adaptive routing %+v, want bond1 (bonds) at line 3", ar)
	}
	if want := "interfaces not checked (not RoCE ports): swp3.100"; !strings.Contains(notes(s), want) {
		t.Errorf("notes lack %q:\n%s", want, notes(s))
	}
}
