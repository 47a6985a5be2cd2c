package checks

import (
	"fmt"
	"strings"
	"testing"

	fabricbuild "github.com/qoslint/qoslint/collectors/fabric"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

var _ = register(pfcWatchdog, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean: the watchdog on every lossless port"},
		{name: "turned off on two ports (commands)", edits: []edit{appendTo(spine02C, "nv set interface swp3-4 qos pfc-watchdog state disable\n")},
			want: []string{"warning spine02 swp3-4"}, msg: "PFC is on but the PFC watchdog is off"},
		{name: "missing on 5.14 (YAML)", edits: []edit{replace(leaf01Y, "        qos:\n          pfc-watchdog:\n            state: enable\n", "")},
			want: []string{"warning leaf01 swp1-32"}},
		{name: "a lossless bond is judged on its members", edits: []edit{appendTo(spine02C,
			"nv set interface bond1 bond member swp33-34\nnv set interface swp33 qos pfc-watchdog\n")},
			want: []string{"warning spine02 swp34"}},
		{name: "before 5.6 there is no watchdog to turn on", edits: []edit{replace(leaf01Y, "version: Cumulus Linux 5.14.0", "version: Cumulus Linux 5.5.0"),
			replace(leaf01Y, "        qos:\n          pfc-watchdog:\n            state: enable\n", "")},
			want: []string{"warning leaf01 swp1-32"}, msg: "needs Cumulus Linux 5.6 or later and this switch runs Cumulus Linux 5.5.0"},
		{name: "lossy ports under a lossy policy need none", edits: []edit{replace(spine01Y, "mode: lossless", "mode: lossy"),
			replace(spine01Y, "        qos:\n          pfc-watchdog:\n            state: enable\n", ""),
			replace("inventory.hcl", "preset = \"cumulus-default\"", "preset = \"cumulus-default\"\n  roce {\n    mode = \"lossy\"\n  }")}},
		{name: "a lossy switch the lossless policy will make lossless", edits: []edit{replace(spine01Y, "mode: lossless", "mode: lossy"),
			replace(spine01Y, "        qos:\n          pfc-watchdog:\n            state: enable\n", "")},
			want: []string{"warning spine01 swp1-32"}, msg: "the policy's lossless RoCE mode turns PFC on here, and the PFC watchdog is off: a pause storm"},
	}
})

// TestWatchdogFix: a port without the watchdog gets it bare, one that
// turns it off gets `state` in its release's spelling: "state disable" up
// to 5.14 (CumulusNetworks/docs content/cumulus-linux-514/.../Quality-of-
// Service/_index.md), "state disabled" later (content/cumulus-linux-518/,
// the same page). spine02's commands name no release and spell 5.15+, so
// the newest release's words apply; leaf01 runs 5.14.0.
func TestWatchdogFix(t *testing.T) {
	f := fabric(t, appendTo(spine02C, "nv set interface swp3 qos pfc-watchdog state disable\nnv set interface bond1 bond member swp33\n"),
		replace(leaf01Y, "          pfc-watchdog:\n            state: enable\n", "          pfc-watchdog:\n            state: disable\n"))
	got := map[string]string{}
	for _, fd := range pfcWatchdog.Run(f) {
		got[fd.Device+" "+fd.Interface] = fmt.Sprint(nvueOnly(t, fd.Changes, PFCWatchdog))
	}
	want := map[string]string{
		"leaf01 swp1-32": fmt.Sprint([]Change{{Kind: NVUE, Path: []string{"interface", "swp1-32", "qos", "pfc-watchdog", "state"}, Value: "enable", Old: "disable", HasOld: true}}),
		"spine02 swp3":   fmt.Sprint([]Change{{Kind: NVUE, Path: []string{"interface", "swp3", "qos", "pfc-watchdog", "state"}, Value: "enabled", Old: "disabled", HasOld: true}}),
		"spine02 swp33":  fmt.Sprint([]Change{{Kind: NVUE, Path: []string{"interface", "swp33", "qos", "pfc-watchdog"}}}),
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("changes %v\nwant %v", got, want)
	}
}

// TestWatchdogBondedBreakout runs pfc-watchdog on an NVIDIA-generated core
// switch (testdata/nvidia-bonded-breakout, SOURCE.md): bonds of one split
// port each, RoCE lossless, the watchdog only on the unbonded split ports.
// The finding must name the bonds' members, where the watchdog goes, never
// a bond, and leave out the ports that have it.
func TestWatchdogBondedBreakout(t *testing.T) {
	const dir = "testdata/nvidia-bonded-breakout"
	inv, err := inventory.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	c := offline.Collect(dir, inv)
	if len(c.Errors) > 0 {
		t.Fatalf("%v", c.Errors)
	}
	f := fabricbuild.Build(inv, c)
	sw := f.SwitchByName("core-01")
	var bonded []string
	for _, ms := range sw.Bonds {
		bonded = append(bonded, ms...)
	}
	fs := pfcWatchdog.Run(f)
	if len(fs) != 1 {
		t.Fatalf("findings %+v, want one", fs)
	}
	fd := fs[0]
	named, err := model.ExpandNames(fd.Interface)
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]bool{}
	for _, p := range named {
		if !model.IsFrontPanel(p) {
			t.Errorf("%s is not a physical port: the watchdog goes on bond members", p)
		}
		in[p] = true
	}
	for _, m := range bonded {
		if !in[m] {
			t.Errorf("bond member %s (lossless, no watchdog) is not named", m)
		}
	}
	// The file's own watchdog line: swp6s0-1 .. swp25s0-1.
	for k := 6; k <= 25; k++ {
		for _, p := range []string{fmt.Sprintf("swp%ds0", k), fmt.Sprintf("swp%ds1", k), fmt.Sprintf("swp%d", k)} {
			if in[p] {
				t.Errorf("%s is named, but it has the watchdog (or is a split parent)", p)
			}
		}
	}
	if !strings.HasPrefix(fd.Message, "PFC is on but the PFC watchdog is off") {
		t.Errorf("message %q: the switch is lossless itself", fd.Message)
	}
	want := Change{Kind: NVUE, Path: []string{"interface", fd.Interface, "qos", "pfc-watchdog"}}
	if cs := nvueOnly(t, fd.Changes, PFCWatchdog); len(cs) != 1 || fmt.Sprint(cs[0]) != fmt.Sprint(want) {
		t.Errorf("changes %v, want %v", fd.Changes, want)
	}
}

// nvueOnly is changes without their OS-neutral settings, after checking
// each has one of aspect, on, for the ports its NVUE path names.
func nvueOnly(t *testing.T, changes []Change, aspect Aspect) []Change {
	t.Helper()
	out := make([]Change, len(changes))
	for i, c := range changes {
		if c.Set == nil || c.Set.Aspect != aspect || !c.Set.On || len(c.Path) < 2 || model.CompressNames(c.Set.Ports) != c.Path[1] {
			t.Errorf("change %v: setting %v, want %v on for %v", c.Path, c.Set, aspect, c.Path)
		}
		c.Set = nil
		out[i] = c
	}
	return out
}
