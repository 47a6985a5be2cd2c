package checks

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	fabricbuild "github.com/qoslint/qoslint/collectors/fabric"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

// countersFabric is the clean pod grown to nSwitches switches and nHosts
// hosts (copies of its devices), every device with counters that the
// evidence checks report on: each switch ECN-marks queue 0 and drops on
// the RoCE queue of swp1 (gnmi-counters.json), each NIC carries RoCE on
// priority 0 (ethtool -S) and has PSN gaps (hw_counters). Every evidence
// finding then asks which configuration findings it corroborates.
func countersFabric(tb testing.TB, nSwitches, nHosts int) *model.Fabric {
	tb.Helper()
	base := loadBase(tb)
	inv := string(base["inventory.hcl"].Data)
	inv = inv[:strings.Index(inv, "switch \"")]
	// The rail rule names the pod's leaves, which this fabric renames.
	inv = strings.Replace(inv, `groups = [["leaf01"], ["leaf02"]]`, `groups = [["leaf0000"]]`, 1)
	fsys := fstest.MapFS{}
	copyDevice := func(from, to string) {
		prefix := "devices/" + from + "/"
		for p, f := range base {
			if rest, ok := strings.CutPrefix(p, prefix); ok {
				fsys["devices/"+to+"/"+rest] = &fstest.MapFile{Data: f.Data}
			}
		}
	}
	var b strings.Builder
	b.WriteString(inv)
	gnmi := gnmiFile(gnmiQueue("swp1", 0, 900, 0), gnmiQueue("swp1", 3, 0, 17), gnmiQueue("swp2", 3, 40, 0))
	for i := range nSwitches {
		name := fmt.Sprintf("leaf%04d", i)
		fmt.Fprintf(&b, "switch %q {\n  role    = \"leaf\"\n  address = \"192.0.2.%d\"\n}\n", name, i%250+1)
		copyDevice([]string{"leaf01", "leaf02", "spine01", "spine02"}[i%4], name)
		fsys["devices/"+name+"/gnmi-counters.json"] = &fstest.MapFile{Data: []byte(gnmi)}
	}
	loss := map[string]string{"out_of_sequence": "1700\n", "packet_seq_err": "420\n", "np_ecn_marked_roce_packets": "52118\n", "np_cnp_sent": "0\n"}
	for i := range nHosts {
		name := fmt.Sprintf("gpu%04d", i)
		fmt.Fprintf(&b, "host %q { address = \"198.51.100.%d\" }\n", name, i%250+1)
		copyDevice(fmt.Sprintf("gpu%02d", i%4+1), name)
		for j, nd := range []string{"ens1f0np0", "ens1f1np1"} {
			fsys["devices/"+name+"/ethtool-S-"+nd+".txt"] = &fstest.MapFile{Data: []byte(prio0Stats)}
			for c, v := range loss {
				p := fmt.Sprintf("devices/%s/sysfs/class/infiniband/mlx5_%d/ports/1/hw_counters/%s", name, j, c)
				fsys[p] = &fstest.MapFile{Data: []byte(v)}
			}
		}
	}
	fsys["inventory.hcl"] = &fstest.MapFile{Data: []byte(b.String())}
	parsed, err := inventory.Parse("inventory.hcl", fsys["inventory.hcl"].Data)
	if err != nil {
		tb.Fatal(err)
	}
	c := offline.CollectFS(fsys, parsed)
	if len(c.Errors) > 0 {
		tb.Fatal(c.Errors[0])
	}
	return fabricbuild.Build(parsed, c)
}

// BenchmarkRunEvidence runs every check (checks.Run) on a fabric of 200
// switches and 800 hosts, all with counters: the configuration findings
// the evidence checks corroborate must be computed once per run, not once
// per switch or NIC.
func BenchmarkRunEvidence(b *testing.B) {
	for _, size := range []struct{ switches, hosts int }{{50, 200}, {200, 800}} {
		f := countersFabric(b, size.switches, size.hosts)
		b.Run(fmt.Sprintf("devices=%d", size.switches+size.hosts), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if fs := Run(f); len(fs) < size.switches+size.hosts {
					b.Fatalf("only %d findings", len(fs))
				}
			}
		})
	}
}

// TestRunComputesEachCheckOnce: in one checks.Run every check runs once,
// however many switches and NICs have evidence that asks for the
// configuration findings it corroborates.
func TestRunComputesEachCheckOnce(t *testing.T) {
	f := countersFabric(t, 8, 8)
	calls := map[string]int{}
	// The run computes checks side by side.
	var mu sync.Mutex
	count := func(id string) { mu.Lock(); calls[id]++; mu.Unlock() }
	for _, c := range All() {
		if c.runIn != nil {
			in := c.runIn
			c.runIn = func(r *run) []Finding { count(c.ID); return in(r) }
			t.Cleanup(func() { c.runIn = in })
			continue
		}
		orig := c.Run
		c.Run = func(f *model.Fabric) []Finding { count(c.ID); return orig(f) }
		t.Cleanup(func() { c.Run = orig })
	}
	evidence := 0
	for _, fd := range Run(f) {
		if strings.HasPrefix(fd.Check, "evidence-") {
			evidence++
		}
	}
	if evidence < 8*2+8*2*3 {
		t.Fatalf("only %d evidence findings", evidence)
	}
	for _, c := range All() {
		if calls[c.ID] != 1 {
			t.Errorf("%s ran %d times", c.ID, calls[c.ID])
		}
	}
}
