package live

import (
	"context"
	"github.com/qoslint/qoslint/collectors/fabric"
	"path"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/layout"
)

// TestCollectInterval: --counters --interval takes two samples, keeps the
// first as the .before files beside the second with counters-interval.txt,
// and the capture lints with deltas. The simulator's counters move on
// (Advance) once every device finished the first sample, so the deltas
// are exactly one Advance of growth.
func TestCollectInterval(t *testing.T) {
	p := startPod(t, cleanPod, sim.Options{GNMI: true})
	opt := p.options()
	opt.Counters, opt.Interval = true, 300*time.Millisecond
	devs := int64(len(p.inv.Switches) + len(p.inv.Hosts))
	var finished atomic.Int64
	opt.OnEvent = func(e Event) {
		if e.Kind != Started && finished.Add(1) == devs {
			p.fab.Advance()
		}
	}
	start := time.Now()
	r := Collect(context.Background(), p.inv, opt)
	if el := time.Since(start); el < opt.Interval {
		t.Errorf("collected in %s, less than the interval", el)
	}
	if n := finished.Load(); n != 2*devs {
		t.Errorf("%d device collections, want %d (two samples)", n, 2*devs)
	}
	for _, s := range r.Status {
		if s.Err != "" || len(withoutStatusNote(s.Notes)) != 0 {
			t.Errorf("%s: %q %q", s.Name, s.Err, s.Notes)
		}
	}
	for _, name := range counterFiles(t, p) {
		before, _ := beforeName(name)
		if _, ok := r.Files[before]; !ok {
			t.Errorf("%s: no earlier sample %s", name, before)
		}
		ivFile := path.Join(path.Dir(name), layout.IntervalFile)
		iv, err := time.ParseDuration(strings.TrimSpace(string(r.Files[ivFile])))
		if err != nil || iv < opt.Interval {
			t.Errorf("%s: %q (%v), want at least %s", ivFile, r.Files[ivFile], err, opt.Interval)
		}
	}

	fsys := fstest.MapFS{}
	for k, v := range r.Files {
		fsys[k] = &fstest.MapFile{Data: v}
	}
	c := offline.CollectFS(fsys, p.inv)
	if len(c.Errors) != 0 {
		t.Fatalf("the capture does not lint: %v", c.Errors)
	}
	f := fabric.Build(p.inv, c)
	for _, h := range f.Hosts {
		for _, n := range h.NICs {
			nc := n.Counters
			// One Advance: a million packets of 4 KiB on priority 3, the
			// other priorities idle (sim syntheticEthtoolAt).
			if nc == nil || !nc.Delta || nc.Interval < opt.Interval || nc.Prio[3].TxBytes.V != 1_000_000*4096 || nc.Prio[0].TxBytes.V != 0 {
				t.Errorf("%s %s: counters %+v", h.Name, n.Netdev, nc)
				continue
			}
			// And of the RDMA hw_counters, paired in sysfs.before/: 20000
			// marks, 2000 CNPs, no loss (sim syntheticHWCounter).
			if loss, ok := nc.Transport.Losses(); nc.ECNMarkedRoCE.V != 20_000 || nc.CNPSent.V != 2_000 || !ok || loss != 0 ||
				!strings.Contains(nc.CNPSent.Origin.Pos().File, "/sysfs/class/infiniband/") {
				t.Errorf("%s %s: hw_counters marks %+v cnp %+v loss %d %t", h.Name, n.Netdev, nc.ECNMarkedRoCE, nc.CNPSent, loss, ok)
			}
		}
	}
	for _, sw := range f.Switches {
		sc := sw.Counters
		if sc == nil || !sc.Delta || len(sc.Ports) == 0 {
			t.Fatalf("%s: counters %+v", sw.Name, sc)
		}
		for port, pc := range sc.Ports {
			// One Advance: 10 pause frames in on every priority the
			// baseline has (sim gnmi_data growth).
			for prio, v := range pc.Prio {
				if v.RxPause.Known && v.RxPause.V != 10 {
					t.Errorf("%s %s prio %d: in-pause grew %d, want 10", sw.Name, port, prio, v.RxPause.V)
				}
			}
		}
	}
}

// TestCollectIntervalCancelled: cancelled while waiting for the second
// sample, the collection is the first sample alone, without .before files.
func TestCollectIntervalCancelled(t *testing.T) {
	p := startPod(t, cleanPod, sim.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := p.options()
	opt.Counters, opt.Interval = true, time.Minute
	devs := int64(len(p.inv.Switches) + len(p.inv.Hosts))
	var finished atomic.Int64
	opt.OnEvent = func(e Event) {
		if e.Kind != Started && finished.Add(1) == devs {
			cancel()
		}
	}
	start := time.Now()
	r := Collect(ctx, p.inv, opt)
	if el := time.Since(start); el > 30*time.Second {
		t.Errorf("the wait was not cancelled: %s", el)
	}
	for name := range r.Files {
		if strings.Contains(name, ".before.") || strings.HasSuffix(name, layout.IntervalFile) {
			t.Errorf("%s written without a second sample", name)
		}
	}
	if len(r.Files) == 0 {
		t.Error("the first sample was dropped")
	}
}

// TestBeforeName: counter files get an earlier-sample name beside them;
// the RDMA hw_counters theirs below sysfs.before/; configuration files
// (the QoS sysfs files among them) none.
func TestBeforeName(t *testing.T) {
	for in, want := range map[string]string{
		"devices/gpu01/ethtool-S-ens1f0np0.txt":                                       "devices/gpu01/ethtool-S-ens1f0np0.before.txt",
		"devices/leaf01/gnmi-counters.json":                                           "devices/leaf01/gnmi-counters.before.json",
		"devices/gpu01/sysfs/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent": "devices/gpu01/sysfs.before/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent",
		"devices/gpu01/sysfs/class/infiniband/mlx5_0/tc/1/traffic_class":              "",
		"devices/gpu01/sysfs/class/net/ens1f0np0/ecn/roce_np/enable/3":                "",
		"devices/gpu01/ethtool-S-ens1f0np0.before.txt":                                "",
		"devices/gpu01/mlnx_qos-ens1f0np0.txt":                                        "",
	} {
		got, ok := beforeName(in)
		if got != want || ok != (want != "") {
			t.Errorf("beforeName(%q) = %q %t, want %q", in, got, ok, want)
		}
		if d := deviceDir(in); d != path.Join("devices", strings.Split(in, "/")[1]) {
			t.Errorf("deviceDir(%q) = %q", in, d)
		}
	}
}
