package checks_test

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	fabricbuild "github.com/qoslint/qoslint/collectors/fabric"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/drift"
	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/model/snapshot"
	"github.com/qoslint/qoslint/render"
)

// The RoCE rules are written once, as the checks' judgements; the marking
// chain (render) and the drift rules (checks/drift) call them. These tests
// prove that the three say the same on every example and, through the hook,
// on every check test case: a hop is broken exactly where an error finding
// of its check covers it, and a drift from the clean pod breaks exactly the
// (device, check) pairs the checks newly flag.

func init() {
	checks.SetAgreementHook(func(t *testing.T, f *model.Fabric) {
		t.Helper()
		chainAgrees(t, f)
		driftAgrees(t, cleanFabric(t), f)
	})
}

var (
	cleanOnce sync.Once
	clean     *model.Fabric
)

func cleanFabric(t *testing.T) *model.Fabric {
	t.Helper()
	cleanOnce.Do(func() { clean = build(t, "../examples/clean-pod") })
	return clean
}

func build(t *testing.T, dir string) *model.Fabric {
	t.Helper()
	dir = fixture.Dir(t, dir) // render/testdata's fabrics are overlays
	inv, err := inventory.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return fabricbuild.Build(inv, offline.Collect(dir, inv))
}

// hopChecks are the checks whose findings cover each hop of the chain.
var hopChecks = map[string][]string{
	render.HopToS:            {"host-tos"},
	render.HopNICPriority:    {"host-trust", "host-dscp-map"},
	render.HopNICPFC:         {"host-pfc"},
	render.HopNICECN:         {"host-ecn"},
	render.HopSwitchPriority: {"switch-trust", "switch-dscp-map"},
	render.HopSwitchPFC:      {"switch-pfc"},
	render.HopSwitchTC:       {"switch-queue-map"},
	render.HopSwitchECN:      {"switch-ecn"},
}

// names expands an interface list ("ens1f0np0,ens1f1np1", "swp1-16"); ""
// (device-wide) is nil.
func names(t *testing.T, s string) []string {
	t.Helper()
	if s == "" {
		return nil
	}
	out, err := model.ExpandNames(s)
	if err != nil {
		t.Fatalf("interface %q: %v", s, err)
	}
	return out
}

// covers: an error finding of one of the hop's checks on the device, either
// device-wide or on one of the hop's interfaces. Warnings (PFC also on
// another priority, ECN thresholds, the operational view) leave the mark
// intact and break no hop.
func covers(t *testing.T, fs []checks.Finding, device, iface, hop string) bool {
	t.Helper()
	want := map[string]bool{}
	for _, n := range names(t, iface) {
		want[n] = true
	}
	for _, f := range fs {
		if f.Device != device || f.Severity != judge.Error || !slices.Contains(hopChecks[hop], f.Check) {
			continue
		}
		in := names(t, f.Interface)
		if len(in) == 0 || len(want) == 0 {
			return true
		}
		for _, n := range in {
			if want[n] {
				return true
			}
		}
	}
	return false
}

// chainAgrees: every hop is broken iff a finding of its check covers it.
func chainAgrees(t *testing.T, f *model.Fabric) {
	t.Helper()
	c := render.BuildChain(f)
	if c == nil {
		return
	}
	fs := checks.Run(f)
	check := func(device, iface string, hops []render.Hop) {
		for _, h := range hops {
			broken := h.Status == render.HopBroken
			if got := covers(t, fs, device, iface, h.Name); got != broken {
				t.Errorf("chain: %s %s %s is %s (%s), but a finding of %v covers it: %v", device, iface, h.Name, h.Status, h.Reason, hopChecks[h.Name], got)
			}
		}
	}
	for _, n := range c.NICs {
		check(n.Host, n.Netdev, n.Hops)
	}
	for _, s := range c.Switches {
		check(s.Switch, s.Ports, s.Hops)
	}
}

// outsideSnapshot are the findings a snapshot cannot reproduce, because it
// does not record their input: runtime counters (evidence-*), packet
// captures (wire-*), the
// operational view of `nv show qos roce`, QoS bound on bond members,
// routed ports (adaptive-routing), dynamic ECN percentages, PCI ACS
// (host-acs: a snapshot records no lspci), and the topology checks but
// link-mtu: a snapshot records the links
// and the MTU of each end, which is all link-mtu reads (judge.LinkMTU),
// but not the plan, the rails or the QoS across a cable.
func outsideSnapshot(f checks.Finding) bool {
	switch {
	case f.Check == "link-mtu":
		return false
	case checks.Lookup(f.Check) != nil && checks.Lookup(f.Check).Kind == checks.KindTopology:
		return true
	case strings.HasPrefix(f.Check, "evidence-"), strings.HasPrefix(f.Check, "wire-"), f.Check == "switch-bond-qos", f.Check == "adaptive-routing",
		f.Check == checks.NotCollected.ID, f.Check == "host-acs":
		return true
	case filepath.Base(f.Source.File) == "nv-show-qos-roce.txt", filepath.Base(filepath.Dir(f.Source.File)) == "roce-status":
		// Snapshots record the configuration, not what a switch reports.
		return true
	case strings.HasPrefix(f.Check, "ib-"):
		// Snapshots do not record InfiniBand tables yet (issue 17).
		return true
	case (f.Check == "host-nccl-qps" || f.Check == "host-nccl-fifo-tc") && strings.HasPrefix(filepath.ToSlash(f.Source.File), offline.K8sDir+"/"):
		// A Kubernetes workload's NCCL_IB_QPS_PER_CONNECTION or
		// NCCL_IB_FIFO_TC: snapshots do not record manifests.
		return true
	case strings.HasPrefix(f.Check, "k8s-"):
		// Snapshots do not record Kubernetes manifests.
		return true
	case strings.HasPrefix(f.Check, "packet-trim"):
		// Snapshots do not record packet trimming.
		return true
	case strings.Contains(f.Expected, "threshold-percent"):
		return true
	}
	return false
}

// flagged is "device check" for every finding that counts (error or
// warning) and that a snapshot can reproduce.
func flagged(f *model.Fabric) map[string]bool {
	out := map[string]bool{}
	for _, fd := range checks.Run(f) {
		if fd.Severity >= judge.Warning && !outsideSnapshot(fd) {
			out[fd.Device+" "+fd.Check] = true
		}
	}
	return out
}

func byEffect(d *drift.Drift, effect string) map[string]bool {
	out := map[string]bool{}
	for _, dev := range d.Devices {
		for _, c := range dev.Changes {
			if c.Effect == effect {
				for _, id := range c.Checks {
					// The drift compares the switch's adaptive-routing
					// setting alone; the check's verdict depends on the
					// routed ports, which a snapshot does not record.
					if id != "adaptive-routing" {
						out[dev.Name+" "+id] = true
					}
				}
			}
		}
	}
	return out
}

func take(f *model.Fabric) *snapshot.Snapshot { return snapshot.Take(f) }

// driftAgrees: from old to new, a change breaks check X on a device iff X
// flags the device on the new side and not on the old; it repairs X iff X
// flagged it on the old side only and the device is still there.
func driftAgrees(t *testing.T, old, new *model.Fabric) {
	t.Helper()
	// A switch whose OS changed between the snapshots has other port names
	// (swp1, Ethernet0): drift reports the OS and the ports added and
	// removed, and no verdict moves from one port to another.
	for _, o := range old.Switches {
		if n := new.SwitchByName(o.Name); n != nil && n.OS != o.OS {
			return
		}
	}
	d := drift.Diff(take(old), take(new), new.Policy)
	// Drift judges both sides by the newer policy, and so does this.
	judgedOld := *old
	judgedOld.Policy = new.Policy
	fo, fn := flagged(&judgedOld), flagged(new)
	present := map[string]bool{}
	for _, sw := range new.Switches {
		present[sw.Name] = true
	}
	for _, h := range new.Hosts {
		present[h.Name] = true
	}
	compare := func(what string, got map[string]bool, want func(k string) bool, all []string) {
		for _, k := range all {
			if got[k] != want(k) {
				t.Errorf("drift %s %s: %v, the findings say %v", what, k, got[k], want(k))
			}
		}
	}
	keys := union(fo, fn, byEffect(d, drift.EffectBreaks), byEffect(d, drift.EffectRepairs))
	still := byEffect(d, drift.EffectStillBreaks)
	compare("breaks", byEffect(d, drift.EffectBreaks), func(k string) bool { return fn[k] && !fo[k] }, keys)
	compare("repairs", byEffect(d, drift.EffectRepairs), func(k string) bool {
		dev, _, _ := strings.Cut(k, " ")
		if fo[k] && fn[k] && still[k] {
			// The check flags the device on both sides, through another
			// of its items (one NIC repaired, the other still broken):
			// drift says the one change repairs, rightly.
			return byEffect(d, drift.EffectRepairs)[k]
		}
		return fo[k] && !fn[k] && present[dev]
	}, keys)
}

func union(ms ...map[string]bool) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range ms {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// examples are the shipped examples and the render test fabrics (a waived
// pod, and one with input errors).
func examples(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, glob := range []string{"../examples/*/inventory.*", "../render/testdata/*/inventory.*"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, inv := range m {
			// The InfiniBand examples have no RoCE marking chain, and
			// drift does not compare IB tables yet.
			if strings.HasPrefix(filepath.Base(filepath.Dir(inv)), "ib-") {
				continue
			}
			out = append(out, filepath.Dir(inv))
		}
	}
	if len(out) < 4 {
		t.Fatalf("found only %v", out)
	}
	return out
}

func TestChainAgreesWithChecksOnExamples(t *testing.T) {
	for _, dir := range examples(t) {
		t.Run(dir, func(t *testing.T) { chainAgrees(t, build(t, dir)) })
	}
}

// TestDriftAgreesWithChecksOnExamples: every pair of examples, both ways.
func TestDriftAgreesWithChecksOnExamples(t *testing.T) {
	dirs := examples(t)
	fabs := map[string]*model.Fabric{}
	for _, dir := range dirs {
		fabs[dir] = build(t, dir)
	}
	for _, a := range dirs {
		for _, b := range dirs {
			t.Run(a+"→"+b, func(t *testing.T) { driftAgrees(t, fabs[a], fabs[b]) })
		}
	}
}
