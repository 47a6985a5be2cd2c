package checks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

// Edits of the clean pod in each switch's own syntax. The commands and
// their YAML keys are CumulusNetworks/docs content/cumulus-linux-518/
// Layer-1-and-Switch-Ports/Quality-of-Service/_index.md ("nv set qos pfc
// default-global cable-length 50", "nv set qos link-pause my_pause_ports tx
// enable", "nv set interface swp1-swp4,swp6 qos link-pause profile
// my_pause_ports", "nv set interface <interface> qos pfc-watchdog state
// disable"), the NVUE reference's "nv set qos roce cable-length 1000", and
// the ECMP page of content/cumulus-linux-519/Layer-3/Routing/
// Equal-Cost-Multipath-Load-Sharing.md ("nv set system forwarding
// hash-seed 50").

// cable300 is the inventory edit that asks for 300 m of cable.
var cable300 = replace("inventory.hcl", "preset = \"cumulus-default\"", "preset = \"cumulus-default\"\n  pfc {\n    cable_length = 300\n  }")

var _ = register(pfcCableLength, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean: qos roce's 100 m and leaf02's ROCE_PFC 100 m"},
		{name: "qos roce cable-length raised on every switch", edits: []edit{
			appendTo(spine02C, "nv set qos roce cable-length 1000\n"),
			replace(spine01Y, "        mode: lossless\n", "        cable-length: 1000\n        mode: lossless\n"),
			replace(leaf01Y, "        mode: lossless\n", "        cable-length: 1000\n        mode: lossless\n"),
			replace(leaf02Y, "          cable-length: 100\n", "          cable-length: 1000\n")}},
		{name: "the policy asks for 300 m", edits: []edit{cable300},
			want: []string{"error leaf01 swp1-32", "error leaf02 swp1-32", "error spine01 swp1-32", "error spine02 swp1-32"},
			msg:  "sized for 100 m of cable, shorter than the policy's 300 m"},
		{name: "a PFC profile without cable-length gets 10 m (5.18 YAML)", edits: []edit{replace(leaf02Y, "          cable-length: 100\n", "")},
			want: []string{"error leaf02 swp1-32"}, msg: "sized for 10 m"},
		{name: "one switch differs from the fabric", edits: []edit{appendTo(spine02C, "nv set qos pfc default-global cable-length 150\n")},
			want: []string{"warning spine02 swp1-32"}, msg: "differs from the 100 m of leaf01, leaf02, spine01"},
		{name: "a lossy switch has no PFC to size", edits: []edit{replace(spine01Y, "mode: lossless", "mode: lossy"),
			appendTo(spine02C, "nv set qos roce mode lossy\n")}},
	}
})

func TestCableLengthFix(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edits []edit
		want  Change
	}{
		{"qos roce", []edit{cable300}, Change{Kind: NVUE, Path: []string{"qos", "roce", "cable-length"}, Value: "300"}},
		{"explicit profile", []edit{cable300}, Change{Kind: NVUE, Path: []string{"qos", "pfc", "ROCE_PFC", "cable-length"}, Value: "300", Old: "100", HasOld: true}},
	} {
		f := fabric(t, tc.edits...)
		found := false
		for _, fd := range pfcCableLength.Run(f) {
			for _, c := range fd.Changes {
				found = found || fmt.Sprint(c) == fmt.Sprint(tc.want)
			}
		}
		if !found {
			t.Errorf("%s: no change %+v", tc.name, tc.want)
		}
	}
}

var _ = register(linkPause, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean: no link pause"},
		{name: "link pause on lossless ports (commands)", edits: []edit{appendTo(spine02C,
			"nv set qos link-pause my_pause_ports tx enable\nnv set interface swp1-4,swp6 qos link-pause profile my_pause_ports\n")},
			want: []string{"error spine02 swp1-4,swp6"}, msg: "link pause (qos link-pause profile my_pause_ports) and PFC on switch-priority 3"},
		{name: "link pause on lossless ports (5.14 YAML)", edits: []edit{replace(leaf01Y, "        qos:\n          pfc-watchdog:\n",
			"        qos:\n          link-pause:\n            profile: my_pause_ports\n          pfc-watchdog:\n")},
			want: []string{"error leaf01 swp1-32"}},
		{name: "link pause where RoCE is lossy", edits: []edit{appendTo(spine02C,
			"nv set qos roce mode lossy\nnv set qos link-pause my_pause_ports tx enable\nnv set interface swp5 qos link-pause profile my_pause_ports\n")}},
	}
})

func TestLinkPauseFix(t *testing.T) {
	f := fabric(t, appendTo(spine02C, "nv set qos link-pause P tx enable\nnv set interface swp5 qos link-pause profile P\n"))
	fs := linkPause.Run(f)
	want := []Change{{Kind: NVUEUnset, Path: []string{"interface", "swp5", "qos", "link-pause", "profile"}, Old: "P", HasOld: true}}
	if len(fs) != 1 || fmt.Sprint(fs[0].Changes) != fmt.Sprint(want) {
		t.Fatalf("findings %+v", fs)
	}
}

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
		got[fd.Device+" "+fd.Interface] = fmt.Sprint(fd.Changes)
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

var _ = register(ecmpHashSeed, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean: switchd picks random seeds"},
		{name: "a unique seed per switch", edits: []edit{appendTo(spine02C, "nv set system forwarding hash-seed 50\n"),
			replace(spine01Y, "      forwarding:\n", "      forwarding:\n        hash-seed: 51\n")}},
		{name: "two switches share a seed", edits: []edit{appendTo(spine02C, "nv set system forwarding hash-seed 50\n"),
			replace(spine01Y, "      forwarding:\n", "      forwarding:\n        hash-seed: 50\n")},
			want: []string{"warning spine01", "warning spine02"}, msg: "hash-seed 50 is also the seed of spine02"},
		{name: "source and destination port unpaired (5.15)", edits: []edit{replace(spine02C, "ecmp-hash destination-port enabled", "ecmp-hash destination-port disabled")},
			want: []string{"warning spine02"}, msg: "destination-port are set unlike: Cumulus Linux then turns symmetric hashing off"},
		{name: "source and destination IP unpaired (5.14)", edits: []edit{replace(leaf01Y, "source-ip: on", "source-ip: off")},
			want: []string{"warning leaf01"}},
		{name: "both ports off stay symmetric", edits: []edit{replace(spine02C, "ecmp-hash destination-port enabled", "ecmp-hash destination-port disabled"),
			replace(spine02C, "ecmp-hash source-port enabled", "ecmp-hash source-port disabled")}},
	}
})

func TestUnpairedHashFix(t *testing.T) {
	f := fabric(t, replace(leaf01Y, "destination-ip: on", "destination-ip: off"))
	fs := ecmpHashSeed.Run(f)
	want := []Change{{Kind: NVUE, Path: []string{"system", "forwarding", "ecmp-hash", "destination-ip"}, Value: "on", Old: "off", HasOld: true}}
	if len(fs) != 1 || fmt.Sprint(fs[0].Changes) != fmt.Sprint(want) {
		t.Fatalf("findings %+v", fs)
	}
}

// The limits of adaptive routing on the ECMP page of CumulusNetworks/docs
// content/cumulus-linux-519/Layer-3/Routing/Equal-Cost-Multipath-Load-
// Sharing.md (commands `nv set router adaptive-routing state enabled`, `nv
// set interface swp51 router adaptive-routing state enabled`, `nv set system
// forwarding resilient-hash state enabled`). spine02 has no header, so its
// platform is unknown; leaf01 is an MSN4700, a Spectrum-3.
var arOnSpine02 = appendTo(spine02C, "nv set router adaptive-routing state enabled\nnv set interface swp1-2 router adaptive-routing state enabled\n")

// arOnSpine01 makes spine01 a platform of a release with adaptive routing
// on globally and on swp1-32 at a link speed (the 5.15+ YAML keys of
// `nv set router adaptive-routing state enabled` and `nv set interface
// swp51 router adaptive-routing state enabled`).
func arOnSpine01(platform, release, speed string) []edit {
	return []edit{
		replace(spine01Y, "model: MSN4700", "model: "+platform),
		replace(spine01Y, "version: Cumulus Linux 5.15.0", "version: Cumulus Linux "+release),
		replace(spine01Y, "        link:\n          mtu: 9216\n", "        link:\n          mtu: 9216\n          speed: "+speed+"\n"),
		replace(spine01Y, "        type: swp\n", "        router:\n          adaptive-routing:\n            state: enabled\n        type: swp\n"),
		replace(spine01Y, "    router:\n      bgp:\n", "    router:\n      adaptive-routing:\n        state: enabled\n      bgp:\n"),
	}
}

var _ = register(adaptiveRouting, func(testing.TB) []checkCase {
	with := func(es []edit, more ...edit) []edit { return append(es, more...) }
	// The policy hashes (cumulus-default): adaptive routing on spine01 is
	// always the policy's warning; the limits add errors beside it.
	return []checkCase{
		// No page ties adaptive routing to a RoCE mode; lossy-multi-tc is the
		// RoCE pages' Spectrum-X profile with packet trimming.
		{name: "lossy RoCE is no limit", edits: []edit{arOnSpine02, appendTo(spine02C, "nv set qos roce mode lossy\n")},
			want: []string{"warning spine02"}},
		{name: "lossy-multi-tc on a Spectrum-4 is no limit", edits: with(arOnSpine01("SN5600", "5.19.0", "400G"),
			replace(spine01Y, "mode: lossless", "mode: lossy-multi-tc")),
			want: []string{"warning spine01"}},
		{name: "limits: AR on a Spectrum-3", edits: []edit{
			replace(leaf01Y, "    router:\n      bgp:\n", "    router:\n      adaptive-routing:\n        enable: on\n      bgp:\n")},
			want: []string{"error leaf01", "info leaf01"}, msg: "MSN4700 is a Spectrum-3 switch: Cumulus Linux supports adaptive routing on switches with the Spectrum-4 and later ASIC"},
		// 5.12 "restarts the switchd service, which causes all network
		// ports to reset"; 5.13 on "reloads the switchd service".
		{name: "limits: a 5.12 switch restarts switchd for the fix", edits: arOnSpine01("MSN4700", "5.12.1", "400G"),
			want: []string{"error spine01", "warning spine01"}, msg: "on Cumulus Linux 5.12 changing adaptive routing restarts switchd, resetting every port"},
		{name: "limits: AR on a bond", edits: []edit{appendTo(spine02C,
			"nv set interface bond1 bond member swp5-6\nnv set interface bond1 router adaptive-routing state enabled\n")},
			want: []string{"error spine02 bond1"}, msg: "does not support adaptive routing on bonds"},
		// "The Spectrum-4 switch does not support adaptive routing on 800G
		// links" (5.12 to 5.19): Spectrum-4's limit alone.
		{name: "limits: a Spectrum-4 at 800G", edits: arOnSpine01("SN5600", "5.19.0", "800G"),
			want: []string{"error spine01 swp1-32", "warning spine01"}, msg: "the Spectrum-4 switch does not support adaptive routing on 800G links"},
		{name: "a Spectrum-6 at 800G is no limit", edits: arOnSpine01("SN6600", "5.19.0", "800G"),
			want: []string{"warning spine01"}},
		{name: "an unknown platform at 800G is not judged", edits: []edit{arOnSpine02, appendTo(spine02C, "nv set interface swp1 link speed 800G\n")},
			want: []string{"warning spine02"}},
		// spine02's commands form has no header: the inventory names it.
		{name: "limits: the inventory's platform names a commands-form Spectrum-4", edits: []edit{arOnSpine02, appendTo(spine02C, "nv set interface swp1 link speed 800G\n"),
			replace("inventory.hcl", "switch \"spine02\" {\n  role    = \"spine\"", "switch \"spine02\" {\n  platform = \"SN5600\"\n  role    = \"spine\"")},
			want: []string{"error spine02 swp1", "warning spine02"}, msg: "adaptive routing is on at link speed 800G on SN5600 (Spectrum-4)"},
		// 5.12 to 5.18: "Switches with the Spectrum-4 ASIC at 400G and 200G
		// speeds"; 5.19: "Switches with the Spectrum-4 and later ASIC".
		{name: "limits: a Spectrum-4 at 100G up to 5.18", edits: arOnSpine01("SN5600", "5.18.1", "100G"),
			want: []string{"error spine01 swp1-32", "warning spine01"}, msg: "Cumulus Linux 5.18 supports adaptive routing on Spectrum-4 at 400G and 200G speeds"},
		{name: "a Spectrum-4 at 100G on 5.19", edits: arOnSpine01("SN5600", "5.19.0", "100G"),
			want: []string{"warning spine01"}},
		{name: "limits: AR at 400G passes", edits: arOnSpine01("SN5600", "5.15.0", "400G"),
			want: []string{"warning spine01"}},
		{name: "limits: AR with resilient hashing", edits: []edit{arOnSpine02, appendTo(spine02C, "nv set system forwarding resilient-hash state enabled\n")},
			want: []string{"error spine02", "warning spine02"}, msg: "adaptive routing does not make use of resilient hashing"},
	}
})

// The header names the model; an inventory that says otherwise is noted,
// and the header is used.
func TestInventoryPlatformDiffers(t *testing.T) {
	f := fabric(t, replace("inventory.hcl", "switch \"spine01\" {\n  role    = \"spine\"", "switch \"spine01\" {\n  platform = \"SN5600\"\n  role    = \"spine\""))
	if sw := f.SwitchByName("spine01"); sw.Flow.Platform != "MSN4700" || sw.Flow.ASIC != "Spectrum-3" {
		t.Errorf("spine01 platform %q (%s), want the header's MSN4700", sw.Flow.Platform, sw.Flow.ASIC)
	}
	want := "inventory.hcl:20: switch spine01: the inventory's platform SN5600 differs from the configuration header's MSN4700, which is used"
	for _, n := range f.Notes {
		if strings.HasSuffix(n.Error(), want) {
			return
		}
	}
	t.Errorf("no note %q in %v", want, f.Notes)
}

func TestARUnknownPlatformNote(t *testing.T) {
	f := fabric(t, arOnSpine02)
	want := "spine02: devices/spine02/nv-config-commands.txt:23: adaptive routing is on, but the configuration names no platform (an inventory switch's platform names it where the configuration has no header): whether the switch is a Spectrum-4 or later (which adaptive routing needs) is not checked"
	for _, n := range f.Notes {
		if n.Error() == want {
			return
		}
	}
	t.Errorf("no note %q in %v", want, f.Notes)
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
	f := model.Build(inv, c)
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
		if !model.IsSwp(p) {
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
	if len(fd.Changes) != 1 || fmt.Sprint(fd.Changes[0]) != fmt.Sprint(want) {
		t.Errorf("changes %v, want %v", fd.Changes, want)
	}
}

// A documented limit's fix turns adaptive routing off only where the
// policy hashes: under a policy that wants it, turning it off would be the
// next run's arWanted error, so the finding says what to change instead.
func TestARLimitFixFollowsPolicy(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edits []edit
		fix   bool
	}{
		{"the policy hashes: adaptive routing off on the 800G ports", arOnSpine01("SN5600", "5.19.0", "800G"), true},
		{"the policy wants it: no command", append(arOnSpine01("SN5600", "5.19.0", "800G"), wantAR), false},
		{"a Spectrum-3 under a policy that wants it: no command", append(arOnSpine01("MSN4700", "5.15.0", "400G"), wantAR), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var limit []Finding
			for _, fd := range adaptiveRouting.Run(fabric(t, tc.edits...)) {
				if fd.Device == "spine01" && (strings.Contains(fd.Message, "800G links") || strings.Contains(fd.Message, "Spectrum-3 switch")) {
					limit = append(limit, fd)
				}
			}
			if len(limit) != 1 {
				t.Fatalf("limit findings %+v, want one", limit)
			}
			if got := len(limit[0].Changes) > 0; got != tc.fix {
				t.Errorf("changes %v, want a fix: %v", limit[0].Changes, tc.fix)
			}
			if !tc.fix && !strings.Contains(limit[0].Message, "qoslint prints no command: the policy wants adaptive routing") {
				t.Errorf("message %q says no why", limit[0].Message)
			}
		})
	}
}
