package render_test

import (
	"bytes"
	"testing"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/checks/waivers"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/render"
)

// Formatter tests build their reports by hand, as tflint's formatter tests
// do (terraform-linters/tflint formatter/*_test.go): what a formatter
// prints then depends on the formatter alone, not on what the collectors,
// the model or the checks make of a fabric. TestGolden keeps one
// end-to-end golden per format over the example fabrics.

// handReport has a little of everything a formatter prints: a switch, a
// host and a device the inventory does not list; findings of every
// severity, with fix commands of every kind, one waived, one not-collected
// and the waiver file's own; input errors of a device, of an unlisted
// folder and of no device; notes; a waiver file; and a marking chain.
func handReport() *render.Report {
	nccl := source.Pos{File: "devices/gpu01/nccl.conf", Line: 4}
	return &render.Report{
		Fabric: "hand-pod", FailOn: judge.Warning, Waivers: waivers.FileName,
		// leaf01's primary file carries its not-collected finding in SARIF.
		Devices: []render.Device{{Name: "leaf01", Kind: "switch", Primary: source.Pos{File: "devices/leaf01/nv-config.yaml"}}, {Name: "gpu01", Kind: "host"}},
		Findings: []checks.Finding{
			{Check: "switch-pfc", Severity: judge.Error, Device: "leaf01", Message: "PFC is off for switch priority 3",
				Expected: "on", Actual: "off", Source: source.Pos{File: "devices/leaf01/nv-config.yaml", Line: 12},
				Changes: []checks.Change{{Kind: checks.NVUE, Path: []string{"qos", "pfc", "default-global", "switch-priority", "3"}}}},
			{Check: "host-trust", Severity: judge.Error, Device: "gpu01", Interface: "ens1f0np0", Message: "the NIC trusts pcp",
				Expected: "dscp", Actual: "pcp", Source: source.Pos{File: "devices/gpu01/mlnx_qos-ens1f0np0.txt", Line: 2},
				Changes: []checks.Change{{Kind: checks.MlnxQos, Target: "ens1f0np0", Flag: "--trust", Value: "dscp", Old: "pcp", HasOld: true}}},
			{Check: "host-ecn", Severity: judge.Warning, Device: "gpu01", Interface: "ens1f0np0", Message: "reaction point is off for priority 3",
				Expected: "1", Actual: "0", Source: source.Pos{File: "devices/gpu01/sysfs/class/net/ens1f0np0/ecn/roce_rp/enable/3", Line: 1},
				Changes: []checks.Change{{Kind: checks.Sysfs, Target: "/sys/class/net/ens1f0np0/ecn/roce_rp/enable/3", Value: "1", Old: "0", HasOld: true}}},
			{Check: "host-tos", Severity: judge.Error, Device: "gpu01", Message: "NCCL_IB_TC=26 is the DSCP, not the ToS",
				Expected: "104", Actual: "26", Source: nccl, Waived: true, WaiverReason: "NET-42: set per job by the scheduler",
				Changes: []checks.Change{{Kind: checks.NCCLConf, Target: "/etc/nccl.conf", Path: []string{"NCCL_IB_TC"}, Value: "104", Old: "26", HasOld: true}}},
			{Check: "not-collected", Severity: judge.Info, Device: "leaf01", Message: "nv-show-qos-roce.txt not collected: the running configuration is not compared"},
			{Check: "waiver", Severity: judge.Warning, Device: waivers.Device, Message: "waiver mtu on leaf09 matches no finding",
				Source: source.Pos{File: waivers.FileName, Line: 9}},
		},
		Errors: []*source.Error{
			{Device: "gpu01", Pos: source.Pos{File: "devices/gpu01/ip-link.json", Line: 3}, Msg: "not JSON: unexpected end"},
			{Device: "stray", Pos: source.Pos{File: "devices/stray"}, Msg: "device folder is not in the inventory (inventory.yaml)"},
			// As offline.CollectFS reports an unreadable devices folder.
			{Pos: source.Pos{File: "devices"}, Msg: "cannot read the devices folder: permission denied"},
		},
		Notes: []string{"gpu01: devices/gpu01/ibdev2netdev.txt: not checked as RoCE NICs: eth0 (down)", "host keys were NOT verified"},
		Chain: &render.MarkingChain{DSCP: 26, ToS: 104, Priority: 3, TrafficClass: 3, Lossless: true,
			NICs: []render.NICChain{{Host: "gpu01", Netdev: "ens1f0np0", ToS: 104, DSCP: 26, Priority: 0, Via: "NCCL_IB_TC", Hops: []render.Hop{
				{Name: render.HopToS, Status: render.HopOK, Label: "ToS 104 → DSCP 26"},
				{Name: render.HopNICPriority, Status: render.HopBroken, Label: "priority 0", Short: "trust pcp", Reason: "the NIC trusts pcp", Check: "host-trust"},
				{Name: render.HopNICPFC, Status: render.HopOK, Label: "PFC on 3"},
				{Name: render.HopNICECN, Status: render.HopUnknown, Label: "?", Short: "not collected", Reason: "sysfs not collected"},
			}}},
			Switches: []render.SwitchChain{{Switch: "leaf01", Ports: "swp1-32", Hops: []render.Hop{
				{Name: render.HopSwitchPriority, Status: render.HopOK, Label: "DSCP 26 → 3"},
				{Name: render.HopSwitchPFC, Status: render.HopBroken, Label: "PFC off", Short: "no PFC", Reason: "PFC is off for switch priority 3", Check: "switch-pfc"},
				{Name: render.HopSwitchTC, Status: render.HopOK, Label: "TC 3"},
				{Name: render.HopSwitchECN, Status: render.HopOK, Label: "ECN on 3"},
			}}},
		},
	}
}

// cleanReport is a pass: devices and nothing to say about them.
func cleanReport() *render.Report {
	return &render.Report{
		Fabric: "clean", FailOn: judge.Error,
		Devices: []render.Device{{Name: "spine01", Kind: "switch"}, {Name: "gpu02", Kind: "host"}},
	}
}

// handReports are the reports the formatter property tests run over.
var handReports = []struct {
	name   string
	report func() *render.Report
}{
	{"hand", handReport},
	{"clean", cleanReport},
	{"waived", func() *render.Report { return waivedReport(judge.Error) }},
}

func TestHandGolden(t *testing.T) {
	for format, f := range render.Formatters() {
		t.Run(format, func(t *testing.T) {
			var b, again bytes.Buffer
			r := handReport()
			plans, err := render.Plans(r)
			if err != nil {
				t.Fatal(err)
			}
			r.Plans = plans
			if err := f(&b, r); err != nil {
				t.Fatal(err)
			}
			golden(t, "hand."+format+".golden", b.Bytes())
			r2 := handReport()
			r2.Plans = plans
			if err := f(&again, r2); err != nil || !bytes.Equal(b.Bytes(), again.Bytes()) {
				t.Errorf("output is not deterministic (%v)", err)
			}
		})
	}
}
