package snapshot_test

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/drift"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model/snapshot"
	"github.com/qoslint/qoslint/render/driftfmt"
)

// FuzzRead: Read never panics; every error is a *source.Error naming the
// file and a line > 0; a snapshot it accepts writes back to bytes it reads
// the same, and compared with its copy it does not drift.
func FuzzRead(f *testing.F) {
	// A whole pod is 60 KB, which stalls the coverage-guided fuzzer; one
	// switch and one NIC keep every kind of field.
	s := take(f, "../../examples/clean-pod")
	s.Switches, s.Hosts = s.Switches[1:2], s.Hosts[:1]
	s.Hosts[0].NICs = s.Hosts[0].NICs[:1]
	s.Topology.Links = s.Topology.Links[:1]
	clean := write(f, s)
	f.Add(clean)
	// The optional sections with values the clean pod leaves empty.
	sw, nic := &s.Switches[0], &s.Hosts[0].NICs[0]
	sw.Flow.Bonds = []snapshot.Bond{{Bond: "bond1", Members: "swp31-32"}}
	sw.Flow.LinkPause = []snapshot.PortValue[string]{{Ports: "swp5", Value: "p1", Origin: "x:1"}}
	sw.TrafficPools = []snapshot.TrafficPool{{Name: "default-lossy", MemoryPercent: snapshot.Fact[int]{Value: 50, Known: true}}}
	nic.Firmware = &snapshot.Firmware{Device: "mlx5_0", Params: []snapshot.FirmwareParam{{Name: "CNP_DSCP_P1", Next: "48", Origin: "x:2"}}}
	f.Add(write(f, s))
	// A snapshot written before the optional sections and links were
	// recorded.
	s.Sections, sw.Flow, sw.HashSeed, sw.TrafficPools, nic.Firmware, nic.RoCEVersion = nil, nil, nil, nil, nil, nil
	s.Hosts[0].NCCLGIDIndex, s.Hosts[0].NCCLRoCEVersion, s.Policy.PFC = nil, nil, nil
	for i := range sw.PortGroups {
		sw.PortGroups[i].CableLength, sw.PortGroups[i].PCP = nil, nil
	}
	s.Topology = nil
	f.Add(write(f, s))
	f.Add(bytes.Replace(clean, []byte("qoslint.snapshot/v1"), []byte("qoslint.snapshot/v2"), 1))
	f.Add([]byte(`{"schema": "qoslint.snapshot/v1", "fabric": "x", "policy": {"preset": "", "roce": {"dscp": [26], "priority": 3, "traffic_class": 3, "mode": "lossless"}, "cnp": {"dscp": 48, "priority": 6}, "trust": "dscp", "mtu": {"host": 4200, "switch": 9216}, "ecmp": {"hash_fields": [], "adaptive_routing": false}}, "switches": [], "hosts": [], "input_errors": []}`))
	f.Add([]byte(`{"schema": 1}`))
	f.Add([]byte("{\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := snapshot.Read("fuzz.json", data)
		if err != nil {
			var se *source.Error
			if !errors.As(err, &se) || se.File != "fuzz.json" || se.Line < 1 {
				t.Fatalf("error without file and line: %#v", err)
			}
			return
		}
		var b bytes.Buffer
		if err := snapshot.Write(&b, s); err != nil {
			t.Fatal(err)
		}
		back, err := snapshot.Read("fuzz.json", b.Bytes())
		if err != nil {
			t.Fatalf("Read refuses what Write wrote: %v\n%s", err, b.Bytes())
		}
		var b2 bytes.Buffer
		_ = snapshot.Write(&b2, back)
		if !bytes.Equal(b.Bytes(), b2.Bytes()) {
			t.Fatal("Write(Read(Write(s))) != Write(s)")
		}
		d := drift.Diff(s, back, s.Policy.Inventory())
		if d.HasDrift() {
			t.Fatalf("a snapshot drifts from its own copy: %+v", d.Devices)
		}
		if !reflect.DeepEqual(d.Summary, drift.Summary{}) {
			t.Fatalf("summary of no drift: %+v", d.Summary)
		}
		var out strings.Builder
		if err := driftfmt.WriteText(&out, d); err != nil || !strings.Contains(out.String(), "NO DRIFT") {
			t.Fatalf("text of no drift: %v\n%s", err, out.String())
		}
	})
}
