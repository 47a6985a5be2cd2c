package nvuemodel

import (
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/model"
)

func yamlSwitch(t *testing.T, src string, ports ...string) (*model.Switch, string) {
	t.Helper()
	cfg, err := nvue.ParseYAML("nv-config.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sw, problems := Switch("leaf01", "leaf", cfg, nil, ports)
	var ps []string
	for _, p := range problems {
		ps = append(ps, p.Error())
	}
	return sw, strings.Join(ps, "\n")
}

func cmdSwitch(t *testing.T, src string) (*model.Switch, string) {
	t.Helper()
	cfg, errs, _ := nvue.ParseCommands("nv-config-commands.txt", []byte(src))
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	sw, problems := Switch("leaf01", "leaf", cfg, nil, nil)
	var ps []string
	for _, p := range problems {
		ps = append(ps, p.Error())
	}
	return sw, strings.Join(ps, "\n")
}

// A ≤5.14 startup.yaml with RoCE on (ytti/oxidized spec/model/data/cumulus#MSN2010_5.9.2_nvue#custom_simulation.yaml
// shape; qos keys of stackhpc/ansible-nvidia-nvue plugins/modules/qos.py).
const roce514 = `- header:
    model: MSN4700
    nvue-api-version: nvue_v1
    rev-id: 1.0
    version: Cumulus Linux 5.14.0
- set:
    interface:
      swp1-32:
        type: swp
    qos:
      roce:
        enable: on
        mode: lossless
`

// The same configuration, 5.15+ commands (CumulusNetworks/docs content/cumulus-linux-514/System-Configuration/NVIDIA-User-Experience-NVUE/NVUE-CLI.md), without a header.
const roce515 = `nv set interface swp1-32 type swp
nv set qos roce mode lossless
nv set qos roce state enabled
`

func TestRoCEDefaults(t *testing.T) {
	for name, sw := range map[string]func() (*model.Switch, string){
		"yaml 5.14":     func() (*model.Switch, string) { return yamlSwitch(t, roce514) },
		"commands 5.15": func() (*model.Switch, string) { return cmdSwitch(t, roce515) },
	} {
		t.Run(name, func(t *testing.T) {
			s, problems := sw()
			if problems != "" {
				t.Fatalf("problems: %s", problems)
			}
			if !s.RoCE.Enabled.V || !s.RoCE.Lossless() {
				t.Fatalf("RoCE = %+v, want lossless on", s.RoCE)
			}
			if len(s.Ports) != 32 || s.Ports[0] != "swp1" || s.Ports[31] != "swp32" {
				t.Fatalf("ports = %v", s.Ports)
			}
			q := s.PortQoS.At("swp7")
			if q != s.Global {
				t.Fatal("an unbound port must share the global QoS")
			}
			// RoCE default (CumulusNetworks/docs content/cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md): trust pcp,dscp; 26→3, 48→6; PFC on 3; 3→TC3,
			// 6→TC6, others TC0; ECN on TC 0,3; TC6 strict.
			if q.Trust.V != "both" || q.DSCP.At(26).V != 3 || q.DSCP.At(48).V != 6 || q.DSCP.At(0).V != 0 {
				t.Errorf("classification: trust %v, 26→%d, 48→%d", q.Trust.V, q.DSCP.At(26).V, q.DSCP.At(48).V)
			}
			for sp, want := range []bool{false, false, false, true, false, false, false, false} {
				if q.PFC[sp].V != want {
					t.Errorf("PFC[%d] = %v", sp, q.PFC[sp].V)
				}
			}
			for sp, want := range []int{0, 0, 0, 3, 0, 0, 6, 0} {
				if q.TC[sp].V != want {
					t.Errorf("TC[%d] = %d, want %d", sp, q.TC[sp].V, want)
				}
			}
			if !q.ECN[0].V || !q.ECN[3].V || q.ECN[6].V || q.ECNMin[3].V != 150000 || q.ECNMax[3].V != 1500000 {
				t.Errorf("ECN wrong: %+v", q.ECN)
			}
			if q.Sched[6].V != "strict" || q.Sched[3].V != "dwrr" {
				t.Errorf("scheduler: %v %v", q.Sched[6].V, q.Sched[3].V)
			}
			if !q.DSCP.At(26).Origin.IsDefault() {
				t.Error("DSCP 26 must come from the RoCE default")
			}
			if s.MTU.At("swp1").V != 9216 || !s.ECMP["source-port"].V || s.AR.V {
				t.Errorf("MTU %d, source-port %v, AR %v", s.MTU.At("swp1").V, s.ECMP["source-port"].V, s.AR.V)
			}
		})
	}
	s514, _ := yamlSwitch(t, roce514)
	s515, _ := cmdSwitch(t, roce515)
	if s514.Syntax != model.Syntax514 || s515.Syntax != model.Syntax515 {
		t.Errorf("syntax: %v %v", s514.Syntax, s515.Syntax)
	}
}

func TestNoRoCE(t *testing.T) {
	s, problems := cmdSwitch(t, "nv set interface swp1-4 type swp\nnv set system hostname leaf01\n")
	if problems != "" {
		t.Fatal(problems)
	}
	q := s.Global
	if s.RoCE.Enabled.V || q.Trust.V != "l2" || q.PFC[3].V || q.TC[5].V != 5 || !q.ECN[0].V || q.ECN[3].V {
		t.Errorf("defaults without RoCE: enabled %v trust %s PFC3 %v TC5 %d ECN0 %v ECN3 %v",
			s.RoCE.Enabled.V, q.Trust.V, q.PFC[3].V, q.TC[5].V, q.ECN[0].V, q.ECN[3].V)
	}
}

// The "change RoCE" recipe of CumulusNetworks/docs content/cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md moves RoCE to switch priority 2.
func TestChangeRoCERecipe(t *testing.T) {
	s, problems := cmdSwitch(t, `nv set qos roce
nv set qos pfc default-global switch-priority 2
nv set qos egress-queue-mapping default-global switch-priority 2 traffic-class 3
nv set qos egress-queue-mapping default-global switch-priority 3 traffic-class 0
nv set qos mapping default-global trust both
nv set qos mapping default-global dscp 26 switch-priority 2
`)
	if problems != "" {
		t.Fatal(problems)
	}
	q := s.Global
	if !s.RoCE.Lossless() {
		t.Fatal("`nv set qos roce` alone means lossless RoCE")
	}
	if q.PFC[3].V || !q.PFC[2].V || q.DSCP.At(26).V != 2 || q.TC[2].V != 3 || q.TC[3].V != 0 {
		t.Errorf("PFC3 %v PFC2 %v 26→%d TC2 %d TC3 %d", q.PFC[3].V, q.PFC[2].V, q.DSCP.At(26).V, q.TC[2].V, q.TC[3].V)
	}
	if q.DSCP.At(26).Origin.Pos().Line != 6 || q.PFC[2].Origin.Pos().Line != 2 {
		t.Errorf("origins: %v %v", q.DSCP.At(26).Origin, q.PFC[2].Origin)
	}
}

// The real-world custom profile of CumulusNetworks/docs content/cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md, bound to one port.
func TestProfileBinding(t *testing.T) {
	s, problems := cmdSwitch(t, `nv set interface swp10-12 type swp
nv set qos roce enable on
nv set qos roce mode lossless
nv set qos mapping ROCE_MAP trust both
nv set qos mapping ROCE_MAP dscp 24 switch-priority 3
nv set qos mapping ROCE_MAP dscp 26 switch-priority 5
nv set qos pfc ROCE_PFC_PROF switch-priority 5
nv set qos pfc ROCE_PFC_PROF tx enable
nv set qos pfc ROCE_PFC_PROF rx disable
nv set qos congestion-control ROCE_ECN_PROF traffic-class 3 ecn disable
nv set interface swp12 qos mapping profile ROCE_MAP
nv set interface swp12 qos pfc profile ROCE_PFC_PROF
nv set interface swp12 qos congestion-control profile ROCE_ECN_PROF
`)
	if problems != "" {
		t.Fatal(problems)
	}
	if s.Syntax != model.Syntax514 {
		t.Error("`enable on` is 5.14 syntax")
	}
	g, p := s.PortQoS.At("swp10"), s.PortQoS.At("swp12")
	if g != s.Global || p == s.Global || s.PortQoS.At("swp11") != g {
		t.Fatal("only swp12 is bound")
	}
	if p.DSCP.At(26).V != 5 || p.PFC[3].V || !p.PFC[5].V || p.PFCRx.V || p.ECN[3].V || p.MappingProfile.V != "ROCE_MAP" {
		t.Errorf("swp12: 26→%d PFC3 %v PFC5 %v rx %v ECN3 %v", p.DSCP.At(26).V, p.PFC[3].V, p.PFC[5].V, p.PFCRx.V, p.ECN[3].V)
	}
	if g.DSCP.At(26).V != 3 || !g.PFC[3].V || !g.ECN[3].V {
		t.Error("unbound ports keep the RoCE defaults")
	}
	if p.MappingProfile.Origin.Pos().Line != 11 {
		t.Errorf("binding origin %v", p.MappingProfile.Origin)
	}
}

func TestInventoryPortsAndMTU(t *testing.T) {
	s, _ := yamlSwitch(t, `- set:
    interface:
      swp1-4:
        type: swp
        link:
          mtu: 9216
      swp3:
        link:
          mtu: 1500
`, "swp2-3")
	if len(s.Ports) != 2 || s.MTU.At("swp3").V != 1500 || s.MTU.At("swp2").V != 9216 {
		t.Errorf("ports %v, MTU %v", s.Ports, s.MTU)
	}
	if s.MTU.At("swp3").Origin.Pos().Line != 9 {
		t.Errorf("MTU origin %v", s.MTU.At("swp3").Origin)
	}
}

func TestSwitchProblems(t *testing.T) {
	_, problems := cmdSwitch(t, `nv set interface swp1 type swp
nv set qos roce state maybe
nv set qos roce mode turbo
nv set qos mapping default-global trust l4
nv set qos mapping default-global dscp 99 switch-priority 3
nv set qos mapping default-global dscp 10 switch-priority 9
nv set interface swp1 qos pfc profile NOPE
`)
	for _, want := range []string{
		`nv-config-commands.txt:2: state: "maybe" is not an NVUE boolean`,
		`nv-config-commands.txt:3: qos roce mode "turbo" is not an NVUE RoCE mode`,
		`nv-config-commands.txt:4: trust "l4"`,
		`nv-config-commands.txt:5: 99: "99" is outside 0-63`,
		`nv-config-commands.txt:6: switch-priority: "9" is not a number in 0-7`,
		`nv-config-commands.txt:7: qos pfc profile "NOPE" is bound but not defined`,
	} {
		if !strings.Contains(problems, want) {
			t.Errorf("problems lack %q:\n%s", want, problems)
		}
	}
}

func TestAdaptiveRoutingAndECMP(t *testing.T) {
	s, problems := cmdSwitch(t, `nv set router adaptive-routing state enabled
nv set interface swp51 router adaptive-routing state enabled
nv set system forwarding ecmp-hash source-port disabled
nv set system forwarding ecmp-hash inner-source-ip enabled
`)
	if problems != "" {
		t.Fatal(problems)
	}
	if !s.AR.V || s.ECMP["source-port"].V || !s.ECMP["inner-source-ip"].V || !s.ECMP["destination-port"].V {
		t.Errorf("AR %v ECMP %v", s.AR.V, s.ECMP)
	}
}

func TestOperational(t *testing.T) {
	show, err := nvue.ParseRoceShow("nv-show-qos-roce.txt", []byte(`                    operational            applied
------------------  ---------------------  ---------------------
enable                                     on
mode                lossy                  lossless
trust
  trust-mode        pcp,dscp
`))
	if err != nil {
		t.Fatal(err)
	}
	cfg, _, _ := nvue.ParseCommands("c.txt", []byte(roce515))
	s, _ := Switch("leaf01", "leaf", cfg, show, nil)
	if s.Oper == nil || s.Oper.Mode.V != "lossy" || !s.Oper.Enabled.V || s.Oper.Trust.V != "pcp,dscp" {
		t.Fatalf("operational: %+v", s.Oper)
	}
}
