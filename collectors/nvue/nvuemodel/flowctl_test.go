package nvuemodel

import (
	"strings"
	"testing"

	"github.com/qoslint/qoslint/model"
)

// The commands are the QoS guide's (CumulusNetworks/docs content/
// cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md:
// "nv set qos pfc default-global cable-length 50", "nv set qos link-pause
// my_pause_ports tx enable", "nv set interface swp1-swp4,swp6 qos
// link-pause profile my_pause_ports", "nv set interface swp1 qos
// pfc-watchdog") and the ECMP page's (content/cumulus-linux-519/Layer-3/
// Routing/Equal-Cost-Multipath-Load-Sharing.md: "nv set system forwarding
// hash-seed 50", "nv set system forwarding resilient-hash state enabled");
// qos roce cable-length is the NVUE reference's example (1000).
func TestFlowControl(t *testing.T) {
	cases := []struct {
		name, cfg string
		check     func(t *testing.T, s *model.Switch)
	}{
		{"roce default cable length", "nv set qos roce mode lossless\nnv set interface swp1-2 type swp\n", func(t *testing.T, s *model.Switch) {
			if q := s.PortQoS.At("swp1"); q.CableLength.V != 100 || !q.CableLength.Origin.IsDefault() || q.CableFrom != "roce" {
				t.Errorf("cable length %+v from %q", q.CableLength, q.CableFrom)
			}
		}},
		{"roce cable length", "nv set qos roce mode lossless\nnv set qos roce cable-length 1000\nnv set interface swp1 type swp\n", func(t *testing.T, s *model.Switch) {
			if q := s.PortQoS.At("swp1"); q.CableLength.V != 1000 || q.CableLength.Origin.Pos().Line != 2 || q.CableFrom != "roce" {
				t.Errorf("cable length %+v from %q", q.CableLength, q.CableFrom)
			}
		}},
		{"default-global overrides roce", "nv set qos roce mode lossless\nnv set qos pfc default-global cable-length 50\nnv set interface swp1 type swp\n", func(t *testing.T, s *model.Switch) {
			if q := s.PortQoS.At("swp1"); q.CableLength.V != 50 || q.CableFrom != model.DefaultProfile {
				t.Errorf("cable length %+v from %q", q.CableLength, q.CableFrom)
			}
		}},
		{"a profile without cable-length has the PFC default", "nv set qos roce mode lossless\nnv set qos pfc my_pfc_ports switch-priority 3\nnv set interface swp1 qos pfc profile my_pfc_ports\nnv set interface swp2 type swp\n", func(t *testing.T, s *model.Switch) {
			if q := s.PortQoS.At("swp1"); q.CableLength.V != 10 || q.CableFrom != "my_pfc_ports" {
				t.Errorf("swp1 cable length %+v from %q", q.CableLength, q.CableFrom)
			}
			if q := s.PortQoS.At("swp2"); q.CableLength.V != 100 {
				t.Errorf("swp2 cable length %+v", q.CableLength)
			}
		}},
		{"link pause, watchdog", "nv set qos link-pause my_pause_ports tx enable\nnv set interface swp1-swp4,swp6 qos link-pause profile my_pause_ports\nnv set interface swp1 qos pfc-watchdog\nnv set interface swp3 qos pfc-watchdog state disable\n", func(t *testing.T, s *model.Switch) {
			if v := s.Flow.LinkPause["swp6"]; v.V != "my_pause_ports" || v.Origin.Pos().Line != 2 {
				t.Errorf("link pause %+v", s.Flow.LinkPause)
			}
			if _, ok := s.Flow.LinkPause["swp5"]; ok {
				t.Errorf("swp5 has link pause")
			}
			if !s.Flow.Watchdog.At("swp1").V || s.Flow.Watchdog.At("swp3").V || s.Flow.Watchdog.At("swp3").Origin.Pos().Line != 4 {
				t.Errorf("watchdog %+v", s.Flow.Watchdog)
			}
		}},
		{"hash seed, resilient hash", "nv set system forwarding hash-seed 50\nnv set system forwarding resilient-hash state enabled\n", func(t *testing.T, s *model.Switch) {
			if f := s.Forwarding; !f.HashSeed.Known || f.HashSeed.V != 50 || !f.ResilientHash.V || f.ResilientHash.Origin.Pos().Line != 2 {
				t.Errorf("forwarding %+v", f)
			}
		}},
		{"no hash seed", "nv set system forwarding ecmp-hash source-port enabled\n", func(t *testing.T, s *model.Switch) {
			if f := s.Forwarding; f.HashSeed.Known || f.ResilientHash.V {
				t.Errorf("forwarding %+v", f)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, problems := cmdSwitch(t, c.cfg)
			if problems != "" {
				t.Fatal(problems)
			}
			c.check(t, s)
		})
	}
}

func TestFlowControlBadInput(t *testing.T) {
	for _, cfg := range []string{"nv set system forwarding hash-seed 4294967296\n", "nv set system forwarding hash-seed x\n",
		"nv set qos roce cable-length 0\n", "nv set interface swp1 qos pfc-watchdog state maybe\n"} {
		if _, problems := cmdSwitch(t, cfg); problems == "" || !strings.Contains(problems, "nv-config-commands.txt:1:") {
			t.Errorf("%q: problems %q", cfg, problems)
		}
	}
}
