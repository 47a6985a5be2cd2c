package checks

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"unsafe"

	fabricbuild "github.com/qoslint/qoslint/collectors/fabric"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

// emptyFabric is the clean pod's inventory with no device file at all:
// nothing any check reads was collected.
func emptyFabric(t *testing.T) *model.Fabric {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, f := range loadBase(t) {
		if dev, _, ok := strings.Cut(strings.TrimPrefix(name, "devices/"), "/"); ok && strings.HasPrefix(name, "devices/") {
			fsys["devices/"+dev] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
		} else if name != "topology.dot" {
			fsys[name] = f
		}
	}
	inv, err := inventory.Parse("inventory.hcl", fsys["inventory.hcl"].Data)
	if err != nil {
		t.Fatal(err)
	}
	return fabricbuild.Build(inv, offline.CollectFS(fsys, inv))
}

// Every check can say why it did not run: on a fabric where nothing was
// collected, no check ran on any device, and each skip has its kind and a
// reason.
func TestEveryCheckSaysWhyItDidNotRun(t *testing.T) {
	f := emptyFabric(t)
	_, sts := RunStatus(f, nil)
	if len(f.Switches) == 0 || len(f.Hosts) == 0 {
		t.Fatalf("%d switches, %d hosts modelled: the test needs both", len(f.Switches), len(f.Hosts))
	}
	if want := len(All()) * (len(f.Switches) + len(f.Hosts)); len(sts) != want {
		t.Fatalf("%d statuses, want %d (every device × check)", len(sts), want)
	}
	for _, s := range sts {
		if s.Ran() || s.Reason() == "" {
			t.Errorf("%s on %s: %q %q: a check with nothing to read must say why it did not run", s.Check(), s.Device, s.Skip(), s.Reason())
		}
	}
}

// exampleFabric models one of the shipped examples as lint reads it.
func exampleFabric(t *testing.T, dir string) *model.Fabric {
	t.Helper()
	inv, err := inventory.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return fabricbuild.Build(inv, offline.Collect(dir, inv))
}

func statusOf(t *testing.T, sts []Status, device, check string) Status {
	t.Helper()
	for _, s := range sts {
		if s.Device == device && s.Check() == check {
			return s
		}
	}
	t.Fatalf("no status of %s on %s", check, device)
	return Status{}
}

// What ran, and why the rest did not, on the shipped examples: the clean
// Ethernet pod has no counters, no InfiniBand, no Kubernetes manifests
// and no trimming switch; the other examples have what it lacks.
func TestRunStatus(t *testing.T) {
	disabled, err := Select(nil, []Selector{{Name: "evidence", Where: "--disable"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir           string
		set           *Set
		device, check string
		skip          SkipKind
		reason        string // part of the reason
	}{
		{"clean-pod", nil, "gpu01", "host-trust", "", ""},
		{"clean-pod", nil, "gpu01", "wire-dscp", "", ""},
		{"clean-pod", nil, "leaf01", "switch-pfc", "", ""},
		{"clean-pod", nil, "gpu01", "evidence-pause-priority", SkipNotCollected, "ethtool-S-<netdev>.txt (ethtool -S) of no NIC collected"},
		{"clean-pod", nil, "gpu01", "evidence-dcqcn", SkipNotCollected, "hw_counters"},
		{"clean-pod", nil, "leaf01", "evidence-lossless-drops", SkipNotCollected, "gnmi-counters.json not collected"},
		{"clean-pod", nil, "gpu03", "wire-dscp", SkipNotCollected, "no packet capture holds this device's traffic"},
		{"clean-pod", nil, "gpu01", "ib-sl2vl", SkipNotApplicable, "the fabric is Ethernet"},
		{"clean-pod", nil, "gpu01", "k8s-workload-tos", SkipNotCollected, "no Kubernetes manifests"},
		{"clean-pod", nil, "leaf01", "packet-trim-remark", SkipNotApplicable, "does not trim packets"},
		{"clean-pod", nil, "leaf01", "host-trust", SkipNotApplicable, "host-trust judges hosts only"},
		{"clean-pod", nil, "gpu01", "switch-pfc", SkipNotApplicable, "switch-pfc judges switches only"},
		{"clean-pod", disabled, "gpu01", "evidence-roce-loss", SkipDisabled, "--disable"},
		{"clean-pod", disabled, "gpu01", "host-trust", "", ""},
		{"ib-pod", nil, "gpu01", "ib-sl2vl", "", ""},
		{"ib-pod", nil, "gpu01", "host-trust", SkipNotApplicable, "no RoCE netdev"},
		{"ib-pod", nil, "gpu01", "ib-adaptive-routing", SkipNotApplicable, ""},
		{"k8s-pod", nil, "gpu01", "k8s-nic-template", "", ""},
		{"k8s-pod", nil, "gpu01", "k8s-workload-tos", "", ""},
		{"spectrumx-pod", nil, "leaf01", "packet-trim-remark", "", ""},
	} {
		t.Run(tc.dir+"/"+tc.device+"/"+tc.check, func(t *testing.T) {
			_, sts := RunStatus(exampleFabric(t, "../examples/"+tc.dir), tc.set)
			s := statusOf(t, sts, tc.device, tc.check)
			if s.Skip() != tc.skip || !strings.Contains(s.Reason(), tc.reason) || (s.Skip() != "") != (s.Reason() != "") {
				t.Errorf("%s on %s: %q %q, want %q containing %q", tc.check, tc.device, s.Skip(), s.Reason(), tc.skip, tc.reason)
			}
		})
	}
}

// A check that found something ran, whatever it declares: its finding is
// never hidden in a skipped cell.
func TestFindingsMeanRan(t *testing.T) {
	f := fabric(t, replace(dev("gpu01", "mlnx_qos-ens1f0np0.txt"), "Priority trust state: dscp", "Priority trust state: pcp"))
	fs, sts := RunStatus(f, nil)
	for _, fd := range fs {
		if fd.Check == NotCollected.ID {
			continue
		}
		if s := statusOf(t, sts, fd.Device, fd.Check); !s.Ran() {
			t.Errorf("%s has a finding on %s but is %s", fd.Check, fd.Device, s.SkipText())
		}
	}
	if len(fs) == 0 {
		t.Fatal("the edit planted no finding")
	}
}

// With two counter samples (--counters --interval, or the .before files
// and counters-interval.txt) an evidence check that saw no traffic grow
// says so: its silence is no evidence of a sound fabric.
func TestIdleIntervalNote(t *testing.T) {
	idle := []edit{write(gpu01E0, cleanStats), write(gpu01E0Before, cleanStats), write(gpu01Interval, "30s\n")}
	busy := []edit{write(gpu01E0, cleanStats), write(gpu01E0Before, pause4Before), write(gpu01Interval, "30s\n")}
	cumulative := []edit{write(gpu01E0, cleanStats)}
	swIdle := []edit{write(spine01Counters, healthyGNMI), write(spine01Before, healthyGNMI), write(spine01Iv, "10s")}
	swBusy := []edit{write(spine01Counters, healthyGNMI), write(spine01Before, strings.ReplaceAll(healthyGNMI, `"uintVal":"1000"`, `"uintVal":"400"`)), write(spine01Iv, "10s")}
	for _, tc := range []struct {
		name          string
		edits         []edit
		device, check string
		note          string
	}{
		{"host idle", idle, "gpu01", "evidence-pause-priority", "no traffic counter grew on ens1f0np0 between the two counter samples 30s apart"},
		{"host idle, other check", idle, "gpu01", "evidence-roce-priority", "no traffic counter grew on ens1f0np0"},
		{"host traffic grew", busy, "gpu01", "evidence-pause-priority", ""},
		{"one sample: cumulative", cumulative, "gpu01", "evidence-pause-priority", ""},
		{"not an evidence check", idle, "gpu01", "host-pfc", ""},
		{"switch idle", swIdle, "spine01", "evidence-lossless-drops", "no traffic counter grew on any port between the two counter samples 10s apart"},
		{"switch traffic grew", swBusy, "spine01", "evidence-ecn-queue", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, sts := RunStatus(fabric(t, tc.edits...), nil)
			s := statusOf(t, sts, tc.device, tc.check)
			if !s.Ran() {
				t.Fatalf("%s did not run on %s: %s", tc.check, tc.device, s.SkipText())
			}
			if tc.note == "" && s.Note() != "" || !strings.Contains(s.Note(), tc.note) {
				t.Errorf("note %q, want %q", s.Note(), tc.note)
			}
		})
	}
}

// A status is 24 bytes and statuses alike share their check and detail:
// a large fabric's report holds one per device and check.
func TestStatusCompact(t *testing.T) {
	if n := unsafe.Sizeof(Status{}); n != 24 {
		t.Errorf("Status is %d bytes, want 24", n)
	}
	ds := newDetails([]*Check{switchPFC})
	a := ds.status("gpu01", "switch-pfc", SkipNotApplicable, "switch-pfc judges switches only", "")
	b := ds.status("gpu02", "switch-pfc", SkipNotApplicable, "switch-pfc judges switches only", "")
	ran := ds.status("leaf01", "switch-pfc", "", "", "")
	ran2 := ds.status("leaf02", "switch-pfc", "", "", "")
	if a.k != b.k || ran.k != ran2.k || ran.k != ds.ran["switch-pfc"] || a.k == ran.k || len(ds.m) != 1 || ran.Check() != "switch-pfc" || a.Check() != "switch-pfc" {
		t.Errorf("keys not shared: %p %p %p %p, %d kept", a.k, b.k, ran.k, ran2.k, len(ds.m))
	}
	// A check outside the catalog given to newDetails still gets its key.
	if o := ds.status("leaf01", "other", "", "", ""); o.Check() != "other" || !o.Ran() {
		t.Errorf("other check: %q ran %v", o.Check(), o.Ran())
	}
	for _, tc := range []struct {
		st                 Status
		skip               SkipKind
		reason, note, text string
	}{
		{a, SkipNotApplicable, "switch-pfc judges switches only", "", "not applicable: switch-pfc judges switches only"},
		{ran, "", "", "", ""},
		{NewStatus("gpu01", "evidence-pause", "", "", "counters did not grow"), "", "", "counters did not grow", ""},
	} {
		if tc.st.Skip() != tc.skip || tc.st.Reason() != tc.reason || tc.st.Note() != tc.note || tc.st.SkipText() != tc.text || tc.st.Ran() != (tc.skip == "") {
			t.Errorf("%s/%s: skip %q reason %q note %q text %q", tc.st.Device, tc.st.Check(), tc.st.Skip(), tc.st.Reason(), tc.st.Note(), tc.st.SkipText())
		}
	}
}
