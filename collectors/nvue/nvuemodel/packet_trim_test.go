package nvuemodel

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/model"
)

func trimOf(t *testing.T, src string) *model.PacketTrim {
	t.Helper()
	sw, problems := cmdSwitch(t, src)
	if problems != "" {
		t.Fatalf("problems: %s", problems)
	}
	return sw.Trim
}

func ints(v model.Value[[]int]) []int { return v.V }

// The examples of CumulusNetworks/docs content/cumulus-linux-515/
// Layer-1-and-Switch-Ports/Quality-of-Service/Packet-Trimming.md, each the
// expected model of its commands.
func TestPacketTrimDocExamples(t *testing.T) {
	t.Run("global level", func(t *testing.T) {
		tr := trimOf(t, `nv set system forwarding packet-trim state enabled
nv set interface swp1-3 packet-trim egress-eligibility traffic-class 1
nv set system forwarding packet-trim remark dscp 10
nv set system forwarding packet-trim size 528
nv set system forwarding packet-trim switch-priority 2
`)
		if !tr.Enabled.V || tr.DSCP.V != 10 || tr.PortLevel.V || tr.Size.V != 528 || tr.SwitchPriority.V != 2 || tr.Profile.V != "" {
			t.Errorf("%+v", tr)
		}
		for _, p := range []string{"swp1", "swp2", "swp3"} {
			if got := ints(tr.EligibleTCs(p)); !reflect.DeepEqual(got, []int{1}) {
				t.Errorf("%s eligible %v", p, got)
			}
		}
		if got := tr.EligibleTCs("swp4"); len(got.V) != 0 || !strings.Contains(got.Origin.Default(), "disabled by default") {
			t.Errorf("swp4 eligible %+v", got)
		}
		if tr.ServicePort.Known || !strings.Contains(tr.ServicePort.Origin.Default(), "last service port") {
			t.Errorf("service port %+v", tr.ServicePort)
		}
	})
	t.Run("default profile", func(t *testing.T) {
		tr := trimOf(t, "nv set system forwarding packet-trim profile packet-trim-default\n")
		if !tr.Enabled.V || tr.Profile.V != model.TrimDefaultProfile || tr.DSCP.V != 11 || tr.Size.V != 256 || tr.SwitchPriority.V != 4 {
			t.Errorf("%+v", tr)
		}
		if got := ints(tr.EligibleTCs("swp9")); !reflect.DeepEqual(got, []int{1, 2, 3}) {
			t.Errorf("swp9 eligible %v", got)
		}
		if tr.Remark[model.RemarkHostGroup].DSCP[4].V != 21 || tr.Remark[model.RemarkNetworkGroup].DSCP[4].V != 11 {
			t.Errorf("remark profiles %+v", tr.Remark)
		}
		if tr.Size.Origin.Pos().Line != 1 || !strings.Contains(tr.Size.Origin.Default(), "truncation size 256") {
			t.Errorf("size origin %+v", tr.Size.Origin)
		}
	})
	t.Run("port level (leaf01)", func(t *testing.T) {
		tr := trimOf(t, `nv set system forwarding packet-trim state enabled
nv set interface swp1-32 packet-trim egress-eligibility traffic-class 1
nv set system forwarding packet-trim remark dscp port-level
nv set interface swp1-16 qos remark profile network-port-group
nv set qos remark network-port-group switch-priority 4 dscp 10
nv set interface swp17-32 qos remark profile host-port-group 
nv set qos remark host-port-group switch-priority 4 dscp 20
nv set system forwarding packet-trim switch-priority 4 
`)
		if !tr.PortLevel.V || tr.SwitchPriority.V != 4 {
			t.Errorf("%+v", tr)
		}
		for port, want := range map[string]int{"swp1": 10, "swp16": 10, "swp17": 20, "swp32": 20} {
			prof, ok := tr.RemarkOf(port)
			if !ok || tr.Remark[prof.V].DSCP[4].V != want {
				t.Errorf("%s: profile %+v", port, prof)
			}
		}
		if _, ok := tr.RemarkOf("swp33"); ok {
			t.Error("swp33 has no remark profile")
		}
	})
	t.Run("lossy-multi-tc", func(t *testing.T) {
		tr := trimOf(t, "nv set qos roce mode lossy-multi-tc\nnv set system forwarding packet-trim remark dscp port-level\nnv set interface swp1-16 qos remark profile lossy-multi-tc-host-group\n")
		if !tr.Enabled.V || tr.Profile.V != model.TrimDefaultProfile || !strings.Contains(tr.Enabled.Origin.Default(), "lossy-multi-tc") || !tr.PortLevel.V {
			t.Errorf("%+v", tr)
		}
		prof, _ := tr.RemarkOf("swp5")
		if d := tr.Remark[prof.V].DSCP[4]; d.V != 21 || d.Origin.Pos().Line != 1 {
			t.Errorf("swp5 remark %+v", d)
		}
	})
	t.Run("state disabled beats the profile", func(t *testing.T) {
		tr := trimOf(t, "nv set system forwarding packet-trim profile packet-trim-default\nnv set system forwarding packet-trim state disabled\n")
		if tr.Enabled.V || tr.Enabled.Origin.Pos().Line != 2 {
			t.Errorf("%+v", tr.Enabled)
		}
	})
	t.Run("off by default", func(t *testing.T) {
		tr := trimOf(t, "nv set qos roce mode lossless\n")
		if tr.Enabled.V || !tr.Enabled.Origin.IsDefault() || len(tr.Remark) != 0 {
			t.Errorf("%+v", tr)
		}
	})
}

func TestPacketTrimProblems(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"nv set system forwarding packet-trim size 253\n", `packet-trim size "253": NVUE accepts 256-1024 bytes, a multiple of 4`},
		{"nv set system forwarding packet-trim size 1028\n", "NVUE accepts 256-1024"},
		{"nv set system forwarding packet-trim size 258\n", "a multiple of 4"},
		{"nv set system forwarding packet-trim remark dscp 64\n", `dscp: "64" is not a number in 0-63`},
		{"nv set system forwarding packet-trim switch-priority 8\n", `switch-priority: "8" is not a number in 0-7`},
		{"nv set system forwarding packet-trim packet-trim-default\n", "is not an NVUE setting: the default profile is `nv set system forwarding packet-trim profile packet-trim-default`"},
		{"nv set system forwarding packet-trim profile custom\n", `profile "custom": NVUE documents only packet-trim-default`},
		{"nv set qos remark g rewrite l4\n", `rewrite "l4": NVUE accepts l2, l3 or both`},
		{"nv set interface swp1 packet-trim egress-eligibility traffic-class 8\n", "8"},
	} {
		_, problems := cmdSwitch(t, c.src)
		if !strings.Contains(problems, c.want) {
			t.Errorf("%q: problems %q, want %q", c.src, problems, c.want)
		}
	}
	if _, problems := cmdSwitch(t, "nv set system forwarding packet-trim size 1024\nnv set system forwarding packet-trim size 256\n"); problems != "" {
		t.Errorf("256 and 1024 are sizes: %s", problems)
	}
}

func TestPacketTrimPorts(t *testing.T) {
	tr := trimOf(t, `nv set interface bond1 bond member swp1-2
nv set interface bond1 packet-trim egress-eligibility traffic-class 3
nv set interface swp1-2 packet-trim egress-eligibility traffic-class 3
nv set interface swp1 packet-trim egress-eligibility traffic-class 1
nv set interface bond1 qos remark profile g
nv set system forwarding packet-trim state enabled
nv set system wjh channel buffer trigger buffer
nv set system wjh channel forwarding trigger l3
`)
	if len(tr.NotPhysical) != 1 || tr.NotPhysical[0].Port != "bond1" || tr.NotPhysical[0].What != "a bond" {
		t.Errorf("not physical %+v", tr.NotPhysical)
	}
	if got := ints(tr.EligibleTCs("swp1")); !reflect.DeepEqual(got, []int{1, 3}) {
		t.Errorf("swp1 eligible %v (two keys name it)", got)
	}
	if p, ok := tr.RemarkOf("swp2"); !ok || p.V != "g" {
		t.Errorf("swp2 is remarked by its bond's profile: %+v", p)
	}
	if len(tr.WJHBuffer) != 1 || tr.WJHBuffer[0].V != "buffer" || tr.WJHBuffer[0].Origin.Pos().Line != 7 {
		t.Errorf("wjh %+v", tr.WJHBuffer)
	}
}

func TestPacketTrimServicePort(t *testing.T) {
	tr := trimOf(t, `nv set interface bond9 bond member swp65-66
nv set interface bond9 qos pfc profile p
nv set qos pfc p switch-priority 3
nv set interface swp66 telemetry histogram ingress-buffer priority-group 0 bin-min-boundary 960
nv set interface swp66 ptp enable on
nv set interface swp1 acl a inbound
nv set system forwarding packet-trim state enabled
nv set system forwarding packet-trim service-port bond9
`)
	var got []string
	for _, s := range tr.ServiceSettings {
		var leaves []string
		for _, l := range s.Leaves {
			leaves = append(leaves, strings.Join(l.Path, " ")+"="+l.Value)
		}
		got = append(got, s.Iface+" "+s.What+": "+strings.Join(leaves, ", "))
	}
	want := []string{
		"bond9 QoS: qos pfc profile=p",
		"swp66 PTP: ptp enable=on",
		"swp66 histograms: telemetry histogram ingress-buffer priority-group 0 bin-min-boundary=960",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("service settings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The show examples, attached to a switch whose configuration matches
// the port-level one.
func TestTrimOper(t *testing.T) {
	sw, problems := cmdSwitch(t, "nv set system forwarding packet-trim profile packet-trim-default\nnv set system forwarding packet-trim remark dscp port-level\n")
	if problems != "" {
		t.Fatal(problems)
	}
	read := func(name string) []byte {
		b, err := os.ReadFile("../testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	show, err := nvue.ParsePacketTrimShow("s.txt", read("packet_trim_show_port_level.txt"))
	if err != nil {
		t.Fatal(err)
	}
	AttachTrimShows(sw, show, nil)
	o := sw.Trim.Oper
	if !o.State.V || o.Profile.V != model.TrimDefaultProfile || o.ServicePort.V != "swp65" || o.Size.V != 256 || o.TC.V != 4 || o.SwitchPriority.V != 4 || !o.PortLevel.V {
		t.Errorf("%+v", o)
	}
	if e := o.Eligible[1]; len(e.V) != 1+29+15+15+8 || e.V[0] != "swp1s0" || e.Origin.Pos().Line != 20 {
		t.Errorf("TC 1: %d interfaces %v at %v", len(e.V), e.V[:3], e.Origin.Pos())
	}
	if len(o.Remarks) != 2 || o.Remarks[0] != (model.TrimOperRemark{Profile: model.RemarkHostGroup, Interface: "swp1s0", SP: 4, DSCP: 21, Pos: o.Remarks[0].Pos}) {
		t.Errorf("remarks %+v", o.Remarks)
	}
	// The configuration uses remark profiles and no `nv show qos remark`
	// was collected.
	if !reflect.DeepEqual(sw.NotCollected, []string{"nv-show-qos-remark.txt"}) {
		t.Errorf("not collected %v", sw.NotCollected)
	}
	down, err := nvue.ParsePacketTrimShow("d.txt", read("packet_trim_show_session_down.txt"))
	if err != nil {
		t.Fatal(err)
	}
	AttachTrimShows(sw, down, nil)
	if o := sw.Trim.Oper; o.State.V || !o.AppliedState.V || o.DownReason.V != "Failed to create/update span session" || o.Size.V != 253 || o.DSCP.V != 11 {
		t.Errorf("%+v", o)
	}
}

// The guides' `nv set system forwarding packet-trim packet-trim-default`
// followed by a remark setting is an object without a state: trimming is
// off, and a note says so.
func TestPacketTrimNeverEnabled(t *testing.T) {
	sw, problems := cmdSwitch(t, "nv set system forwarding packet-trim packet-trim-default\nnv set system forwarding packet-trim remark dscp port-level\n")
	if problems != "" || sw.Trim.Enabled.V {
		t.Fatalf("problems %q, enabled %+v", problems, sw.Trim.Enabled)
	}
	var notes []string
	for _, n := range sw.Notes {
		notes = append(notes, n.Error())
	}
	if !strings.Contains(strings.Join(notes, "\n"), "nv-config-commands.txt:2: system forwarding packet-trim is configured but never enabled") {
		t.Errorf("notes %q", notes)
	}
}
