package render_test

import (
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/internal/nvueline"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/render"
)

func cl(minor int) render.Release { return render.Release{CL: model.CLRelease{Major: 5, Minor: minor}} }

func embedded(t *testing.T) *render.Renderer {
	t.Helper()
	r, err := render.NewRenderer(nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func set(value string, path ...string) checks.Change {
	return checks.Change{Kind: checks.NVUE, Path: path, Value: value}
}

// TestGate: each change is printed when its release has the command and
// the value, else a comment line says why and nothing is printed.
func TestGate(t *testing.T) {
	for _, tc := range []struct {
		name string
		rel  render.Release
		c    checks.Change
		fix  string // the first fix line
	}{
		{"the issue: the watchdog before 5.6", cl(3), set("", "interface", "swp1-32", "qos", "pfc-watchdog"),
			"# not printed: Cumulus Linux 5.3 has no `nv set interface <if> qos pfc-watchdog` (introduced in 5.6.0): nv set interface swp1-32 qos pfc-watchdog"},
		{"the watchdog from 5.6", cl(6), set("", "interface", "swp1-32", "qos", "pfc-watchdog"), "nv set interface swp1-32 qos pfc-watchdog"},
		{"the issue: mapping before 5.3", cl(0), set("both", "qos", "mapping", "default-global", "trust"),
			"# not printed: Cumulus Linux 5.0 has no `nv set qos mapping <profile> trust` (introduced in 5.3.0): nv set qos mapping default-global trust both"},
		{"a mode before its release", cl(12), set("lossy-multi-tc", "qos", "roce", "mode"),
			"# not printed: Cumulus Linux 5.12 cannot express `nv set qos roce mode lossy-multi-tc` (introduced in 5.14.0): nv set qos roce mode lossy-multi-tc"},
		{"a mode in its release", cl(14), set("lossy-multi-tc", "qos", "roce", "mode"), "nv set qos roce mode lossy-multi-tc"},
		{"the 5.14 spelling in 5.15", cl(15), set("on", "qos", "roce", "enable"),
			"# not printed: Cumulus Linux 5.15 has no `nv set qos roce enable` (5.0.0 to 5.14; later releases say `qos roce state`): nv set qos roce enable on"},
		{"the 5.15 spelling in 5.14", cl(14), set("enabled", "system", "forwarding", "ecmp-hash", "source-port"),
			"# not printed: Cumulus Linux 5.14 does not spell `nv set system forwarding ecmp-hash source-port enabled` (introduced in 5.15.0; it takes on, off): nv set system forwarding ecmp-hash source-port enabled"},
		{"a word no release takes", cl(19), set("maybe", "qos", "pfc", "default-global", "tx"),
			"# not printed: Cumulus Linux 5.19 does not accept `maybe` for `nv set qos pfc <profile> tx` (it takes enable, disable): nv set qos pfc default-global tx maybe"},
		{"renamed in 5.11", cl(11), set("", "qos", "advance-buffer-config", "default-global", "ingress-pool", "3"),
			"# not printed: Cumulus Linux 5.11 has no `nv set qos advance-buffer-config <profile> ingress-pool <pool>` (5.4.0 to 5.10; later releases say `qos advance-buffer-config <profile> ingress-service-pool <pool>`): nv set qos advance-buffer-config default-global ingress-pool 3"},
		{"resilient hashing before 5.19", cl(18), checks.Change{Kind: checks.NVUE, Path: []string{"system", "forwarding", "resilient-hash", "state"}, Value: "disabled", Old: "enabled", HasOld: true},
			"# not printed: Cumulus Linux 5.18 has no `nv set system forwarding resilient-hash state` (introduced in 5.19.0): nv set system forwarding resilient-hash state disabled"},
		{"an unset", cl(2), checks.Change{Kind: checks.NVUEUnset, Path: []string{"system", "forwarding", "hash-seed"}, Old: "42", HasOld: true}, "nv unset system forwarding hash-seed"},
		{"an unset before its release", cl(1), checks.Change{Kind: checks.NVUEUnset, Path: []string{"system", "forwarding", "hash-seed"}, Old: "42", HasOld: true},
			"# not printed: Cumulus Linux 5.1 has no `nv unset system forwarding hash-seed` (introduced in 5.2.0): nv unset system forwarding hash-seed"},
		{"a command the table lacks is printed, unverified", cl(19), set("1", "qos", "no-such", "leaf"),
			"# not verified: `nv set qos no-such leaf 1` is not in qoslint's table of NVUE commands by release"},
		{"a host's change passes", cl(0), checks.Change{Kind: checks.MlnxQos, Target: "eth2", Flag: "--trust", Value: "dscp"}, "mlnx_qos -i eth2 --trust dscp"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kept, fix, rollback, notes, _ := embedded(t).CommandsFor(tc.rel, []checks.Change{tc.c})
			if len(fix) == 0 || fix[0] != tc.fix {
				t.Fatalf("fix %q\nwant %q", fix, tc.fix)
			}
			dropped := strings.HasPrefix(tc.fix, "# not printed")
			if dropped != (len(kept) == 0) || dropped && (len(rollback) != 0 || len(fix) != 1) {
				t.Errorf("kept %v, fix %q, rollback %q", kept, fix, rollback)
			}
			if strings.HasPrefix(tc.fix, "# ") != (len(notes) == 1 && "# "+notes[0] == tc.fix) {
				t.Errorf("notes %q", notes)
			}
		})
	}
}

// TestGateReleaseNotes: what a release leaves unverified is said once,
// for changes that hold an NVUE command.
func TestGateReleaseNotes(t *testing.T) {
	nv := []checks.Change{set("lossless", "qos", "roce", "mode")}
	host := []checks.Change{{Kind: checks.Sysfs, Target: "/sys/class/net/eth2/ecn/roce_np/enable/3", Value: "1"}}
	for _, tc := range []struct {
		rel  render.Release
		cs   []checks.Change
		want string
	}{
		{render.Release{}, nv, "the Cumulus Linux release is not known: NVUE commands are checked as for 5.19, the newest release qoslint knows"},
		{render.Release{CL: model.CLRelease{Major: 5, Minor: 14}, Assumed: "assumed 5.14"}, nv, "assumed 5.14"},
		{cl(21), nv, "not verified: Cumulus Linux 5.21 is newer than the releases qoslint's NVUE command table covers (5.0 to 5.19): commands are checked as for 5.19"},
		{cl(18), nv, ""},
		{render.Release{}, host, ""},
	} {
		_, _, _, _, release := embedded(t).CommandsFor(tc.rel, tc.cs)
		if strings.Join(release, "; ") != tc.want {
			t.Errorf("%+v: %q, want %q", tc.rel, release, tc.want)
		}
	}
}

// TestGateKeepsTheOrder: a comment stands where its command would, the
// apply line closes the NVUE commands printed.
func TestGateKeepsTheOrder(t *testing.T) {
	cs := []checks.Change{
		set("lossless", "qos", "roce", "mode"),
		set("", "interface", "swp1", "qos", "pfc-watchdog"),
		set("9216", "interface", "swp1", "link", "mtu"),
	}
	kept, fix, rollback, _, _ := embedded(t).CommandsFor(cl(5), cs)
	want := []string{
		"nv set qos roce mode lossless",
		"# not printed: Cumulus Linux 5.5 has no `nv set interface <if> qos pfc-watchdog` (introduced in 5.6.0): nv set interface swp1 qos pfc-watchdog",
		"nv set interface swp1 link mtu 9216",
		"nv config apply",
	}
	if strings.Join(fix, "\n") != strings.Join(want, "\n") || len(kept) != 2 ||
		strings.Join(rollback, "\n") != "nv unset interface swp1 link mtu\nnv unset qos roce mode\nnv config apply" {
		t.Errorf("fix %q\nrollback %q\nkept %v", fix, rollback, kept)
	}
}

// TestSwitchChangesPerRelease: every preset, and each RoCE mode, renders
// for every release 5.0 to 5.19 with the uplinks' adaptive routing; each
// change is either a command the release has or a comment saying why it
// is not, never lost.
func TestSwitchChangesPerRelease(t *testing.T) {
	for _, preset := range policy.PresetNames() {
		for _, mode := range []string{"", "lossy", "lossless-single-ipool", "lossy-multi-tc", "dci-1"} {
			p, _ := policy.Preset(preset)
			if mode != "" {
				p.RoCE.Mode = mode
			}
			p.ECMP.AdaptiveRouting = true
			for _, rel := range model.CLReleases() {
				cs := append(render.SwitchChanges(p, rel, "swp1-32"), render.UplinkARChanges(p, rel, []string{"swp31", "swp32"})...)
				_, fix, _, _, _ := embedded(t).CommandsFor(render.Release{CL: rel}, cs)
				n := 0
				for _, l := range fix {
					switch {
					case strings.HasPrefix(l, "# not printed: "):
						n++
						cmd := l[strings.LastIndex(l, ": nv ")+2:]
						if nvueline.Check(rel, cmd) == nil {
							t.Errorf("%s %s %s: %q is valid, yet not printed", preset, mode, rel, cmd)
						}
					case nvueline.Command(l):
						n++
						if err := nvueline.Check(rel, l); err != nil {
							t.Errorf("%s %s: %v", preset, mode, err)
						}
					}
				}
				if n != len(cs) {
					t.Errorf("%s %s %s: %d of %d changes printed or said\n%s", preset, mode, rel, n, len(cs), strings.Join(fix, "\n"))
				}
			}
		}
	}
}
