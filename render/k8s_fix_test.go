package render_test

import (
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/render"
)

// The k8s-broken example's fixes are kubectl JSON patches, planned once
// per object whichever hosts the findings land on, each with its rollback
// patch.
func TestK8sPlansGolden(t *testing.T) {
	r, err := app.BuildReport("../examples/k8s-broken", judge.Error)
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
	}
	golden(t, "k8s-broken.fix.golden", []byte(b.String()))
	// One plan per patched object, however many hosts its findings name.
	if len(plans) != 3 {
		t.Errorf("%d plans, want the template, the MPIJob and the Deployment", len(plans))
	}
}

// A kubectl patch whose object name could reach the shell as an option or
// a command is refused.
func TestKubectlPatchRefusesUnsafe(t *testing.T) {
	for _, c := range []checks.Change{
		{Kind: checks.KubectlPatch, Target: "configmap", Path: []string{"-n", "x"}, Value: "[]", Old: "[]"},
		{Kind: checks.KubectlPatch, Target: "configmap;reboot", Path: []string{"a", "x"}, Value: "[]", Old: "[]"},
		{Kind: checks.KubectlPatch, Target: "configmap", Path: []string{"a", "x"}, Value: "[", Old: "[]"},
	} {
		rep := &render.Report{Devices: []render.Device{{Name: "gpu01", Kind: "host"}},
			Findings: []checks.Finding{{Check: "k8s-workload-tos", Device: "gpu01", Severity: judge.Error, Changes: []checks.Change{c}}}}
		if _, err := render.Plans(rep); err == nil {
			t.Errorf("%+v: rendered", c)
		}
	}
}
