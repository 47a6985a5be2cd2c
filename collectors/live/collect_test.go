package live

import (
	"bytes"
	"context"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/collectors/sim"
	"github.com/qoslint/qoslint/internal/layout"
)

// TestByteIdentical collects both example pods from the simulator and
// wants every file the devices serve back byte for byte: YAML, show output,
// mlnx_qos with its trailing blanks, ibdev2netdev, ip-link.json, nccl.conf
// and every sysfs file.
func TestByteIdentical(t *testing.T) {
	for _, src := range []string{cleanPod, brokenPod} {
		t.Run(src[strings.LastIndex(src, "/")+1:], func(t *testing.T) {
			t.Parallel()
			p := startPod(t, src, sim.Options{})
			var evs events
			opt := p.options()
			opt.OnEvent = evs.add
			start := time.Now()
			r := Collect(context.Background(), p.inv, opt)
			t.Logf("%s: %d devices, %d files in %s", src, len(r.Status), len(r.Files), time.Since(start).Round(time.Millisecond))
			want := servedFiles(t, src)
			for name, data := range want {
				got, ok := r.Files[name]
				switch {
				case !ok:
					t.Errorf("%s not collected", name)
				case !bytes.Equal(got, data):
					t.Errorf("%s differs:\n got %q\nwant %q", name, got, data)
				}
			}
			for name := range r.Files {
				if _, ok := want[name]; !ok {
					t.Errorf("%s collected but the device has no such file", name)
				}
			}
			for _, s := range r.Status {
				if s.Err != "" {
					t.Errorf("%s: %s", s.Name, s.Err)
				}
				if s.Commands == 0 {
					t.Errorf("%s: no command counted", s.Name)
				}
			}
			if !sort.SliceIsSorted(r.Status, func(a, b int) bool { return r.Status[a].Name < r.Status[b].Name }) {
				t.Error("status not sorted by name")
			}
			checkEvents(t, evs.list(), r)
			assertNoSecret(t, r, evs.list())
		})
	}
}

// checkEvents wants Started then exactly one Done or Failed per device,
// matching its status.
func checkEvents(t *testing.T, evs []Event, r *Result) {
	t.Helper()
	kinds := map[string][]EventKind{}
	for _, ev := range evs {
		kinds[ev.Device] = append(kinds[ev.Device], ev.Kind)
	}
	for _, s := range r.Status {
		want := []EventKind{Started, Done}
		if s.Err != "" {
			want = []EventKind{Started, Failed}
		}
		if !slices.Equal(kinds[s.Name], want) {
			t.Errorf("%s: events %v, want %v", s.Name, kinds[s.Name], want)
		}
	}
}

// TestGaps: what a device does not have is a note, not a failure, and the
// rest of the device is still collected.
func TestGaps(t *testing.T) {
	p := startPod(t, brokenPod, sim.Options{})
	r := Collect(context.Background(), p.inv, p.options())
	for _, tc := range []struct{ dev, note string }{
		{"spine02", layout.RoceShowFile + " not collected: `nv show qos roce` said \"Error:"},
		{"gpu02", layout.NCCLConfFile + " not collected: `cat /etc/nccl.conf` said \"cat: /etc/nccl.conf: No such file or directory\""},
	} {
		s := status(t, r, tc.dev)
		s.Notes = withoutStatusNote(s.Notes)
		if s.Err != "" || len(s.Notes) != 1 || !strings.HasPrefix(s.Notes[0], tc.note) {
			t.Errorf("%s: err %q notes %q, want one note starting %q", tc.dev, s.Err, s.Notes, tc.note)
		}
	}
	if _, ok := r.Files["devices/gpu02/"+layout.IPLinkFile]; !ok {
		t.Error("gpu02 lost its other files")
	}
	if _, ok := r.Files["devices/leaf02/"+layout.NVUECommandsFile]; !ok || len(withoutStatusNote(status(t, r, "leaf02").Notes)) != 0 {
		t.Error("leaf02 prints no YAML: its command form must be collected, without a note")
	}
	if r.Incomplete() {
		t.Error("Incomplete() = true: an optional output a device does not have is a note, not a failure")
	}
}

// TestOfflineAgrees: the offline linter reads a live capture exactly as it
// reads the fabric directory it came from.
func TestOfflineAgrees(t *testing.T) {
	p := startPod(t, brokenPod, sim.Options{})
	r := Collect(context.Background(), p.inv, p.options())
	live := offline.CollectFS(resultFS(r), p.inv)
	disk := offline.Collect(brokenPod, p.inv)
	if len(live.Hosts) != len(disk.Hosts) {
		t.Fatalf("%d hosts live, %d from disk", len(live.Hosts), len(disk.Hosts))
	}
	for i := range disk.Hosts {
		if !equalJSON(t, live.Hosts[i], disk.Hosts[i]) {
			t.Errorf("host %s reads differently live", disk.Hosts[i].Name)
		}
	}
	for i, s := range disk.Switches {
		if s.Name == "leaf02" {
			continue // its configuration is in command form, which is not collected
		}
		if !equalJSON(t, live.Switches[i], s) {
			t.Errorf("switch %s reads differently live", s.Name)
		}
	}
}
