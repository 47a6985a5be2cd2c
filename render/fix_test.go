package render_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/render"
)

func TestPlansGolden(t *testing.T) {
	r, err := app.BuildReport("../examples/broken-pod", judge.Error)
	if err != nil {
		t.Fatal(err)
	}
	plans, err := render.Plans(r)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	rr, _ := render.NewRenderer(nil)
	for _, p := range plans {
		b.WriteString("==> " + p.Device + ".sh <==\n" + rr.Script(r.Fabric, p, false))
		b.WriteString("==> " + p.Device + ".rollback.sh <==\n" + rr.Script(r.Fabric, p, true))
		if p.NVUE() {
			b.WriteString("==> " + p.Device + ".nv <==\n" + p.NVUECommands())
		}
	}
	golden(t, "broken-pod.fix.golden", []byte(b.String()))
	if len(plans) != 9 { // every device: spine01 for its uplink MTU (defect 21) and its missing PFC watchdog (defect 22)
		t.Errorf("%d plans", len(plans))
	}
}

func TestPlanDedupesAndOrders(t *testing.T) {
	c := checks.Change{Kind: checks.NVUE, Path: []string{"qos", "roce", "mode"}, Value: "lossless", Old: "lossy", HasOld: true}
	rep := &render.Report{
		Devices: []render.Device{{Name: "leaf02", Kind: "switch"}, {Name: "leaf01", Kind: "switch"}},
		Findings: []checks.Finding{
			{Check: "switch-roce-mode", Device: "leaf02", Changes: []checks.Change{c}},
			{Check: "switch-pfc", Device: "leaf02", Changes: []checks.Change{c}},
			{Check: "switch-roce-mode", Device: "leaf01", Changes: []checks.Change{c}},
		},
	}
	plans, err := render.Plans(rep)
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) != 2 || plans[0].Device != "leaf01" || len(plans[1].Changes) != 1 || len(plans[1].Checks) != 2 {
		t.Fatalf("plans %+v", plans)
	}
	// The devices name no release: the plan says which one it assumed.
	want := "# note: the Cumulus Linux release is not known: NVUE commands are checked as for 5.19, the newest release qoslint knows\n" +
		"nv set qos roce mode lossless\nnv config apply"
	if strings.Join(plans[1].Fix, "\n") != want {
		t.Errorf("fix %q", plans[1].Fix)
	}
}

func TestPlanRejectsHostileNames(t *testing.T) {
	for _, c := range []checks.Change{
		{Kind: checks.MlnxQos, Target: "eth0;reboot", Flag: "--trust", Value: "dscp"},
		{Kind: checks.MlnxQos, Target: "-f", Flag: "--trust", Value: "dscp"},
		{Kind: checks.LinkMTU, Target: "eth0$(id)", Value: "9000"},
		{Kind: checks.Sysfs, Target: "/sys/class/net/x/../../etc/passwd", Value: "1"},
		{Kind: checks.Sysfs, Target: "/etc/passwd", Value: "1"},
		{Kind: checks.NVUE, Path: []string{"qos", "mapping", "p\nnv config apply", "trust"}, Value: "both"},
		{Kind: checks.NVUE, Path: []string{"qos", "mapping", "--help", "trust"}, Value: "both"},
		// Names the offline reader and the live audit refuse
		// (internal/names), though quoting would make them harmless.
		{Kind: checks.NVUE, Path: []string{"interface", "swp40;reboot", "qos", "pfc", "profile"}, Value: "default-global"},
		{Kind: checks.NVUEUnset, Path: []string{"interface", "swp`id`", "qos", "pfc"}},
		{Kind: checks.MlnxQos, Target: "eth0:1", Flag: "--trust", Value: "dscp"},
	} {
		rep := &render.Report{Devices: []render.Device{{Name: "d", Kind: "host"}},
			Findings: []checks.Finding{{Check: "host-trust", Device: "d", Changes: []checks.Change{c}}}}
		if _, err := render.Plans(rep); err == nil {
			t.Errorf("rendered %+v", c)
		}
	}
}

func TestTemplateOverride(t *testing.T) {
	r, err := render.NewRenderer(fstest.MapFS{"mine.tmpl": {Data: []byte(`{{define "nvue-apply"}}nv config apply -y{{end}}`)}})
	if err != nil {
		t.Fatal(err)
	}
	fix, _ := r.Commands([]checks.Change{{Kind: checks.NVUE, Path: []string{"qos", "roce", "mode"}, Value: "lossless"}})
	if fix[len(fix)-1] != "nv config apply -y" || fix[0] != "nv set qos roce mode lossless" {
		t.Errorf("override not applied: %q", fix)
	}
	if _, err := render.NewRenderer(fstest.MapFS{"bad.tmpl": {Data: []byte(`{{define "x"}}{{.Nope`)}}); err == nil {
		t.Error("a broken template was accepted")
	}
	if _, err := render.NewRenderer(fstest.MapFS{}); err == nil {
		t.Error("an empty templates folder was accepted")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.tmpl"), []byte(`{{define "script"}}custom {{.Device}}{{end}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err = render.NewRenderer(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Script("f", render.Plan{Device: "leaf01"}, false); got != "custom leaf01" {
		t.Errorf("script override: %q", got)
	}
}

// Lifetime names, in a fixed order, each tool whose changes a reboot
// undoes, and says when mlxconfig's wait for a firmware reset; a switch's
// NVUE and a host's nccl.conf are kept on disk and are neither.
func TestPlanLifetime(t *testing.T) {
	for _, tc := range []struct {
		kinds    []checks.ChangeKind
		volatile []string
		firmware bool
	}{
		{[]checks.ChangeKind{checks.NVUE, checks.NVUEUnset}, nil, false},
		{[]checks.ChangeKind{checks.NCCLConf, checks.OpenSMConf, checks.KubectlPatch}, nil, false},
		{[]checks.ChangeKind{checks.LinkMTU, checks.Sysfs, checks.MlnxQos, checks.MlnxQos}, []string{"mlnx_qos", "sysfs", "ip link"}, false},
		{[]checks.ChangeKind{checks.SetPCI}, []string{"setpci"}, false},
		{[]checks.ChangeKind{checks.Mlxconfig, checks.NCCLConf}, nil, true},
	} {
		var p render.Plan
		for _, k := range tc.kinds {
			p.Changes = append(p.Changes, checks.Change{Kind: k})
		}
		v, fw := p.Lifetime()
		if !slices.Equal(v, tc.volatile) || fw != tc.firmware {
			t.Errorf("%v: %v %t, want %v %t", tc.kinds, v, fw, tc.volatile, tc.firmware)
		}
	}
}
