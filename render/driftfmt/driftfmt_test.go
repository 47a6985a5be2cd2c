package driftfmt_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/drift"
	"github.com/qoslint/qoslint/internal/fixture"
	goldenpkg "github.com/qoslint/qoslint/internal/golden"
	"github.com/qoslint/qoslint/internal/snaptest"
	"github.com/qoslint/qoslint/model/snapshot"
	"github.com/qoslint/qoslint/render/driftfmt"
)

// golden compares got with testdata/name (see package golden).
func golden(t *testing.T, name string, got []byte) { t.Helper(); goldenpkg.Check(t, name, got) }

func diff(t testing.TB, oldDir, newDir string) *drift.Drift {
	t.Helper()
	o, n := snaptest.Take(t, oldDir), snaptest.Take(t, newDir)
	d := drift.Diff(o, n, n.Policy.Inventory())
	d.Old.Source, d.New.Source = strings.TrimPrefix(oldDir, "../../"), strings.TrimPrefix(newDir, "../../")
	return d
}

var drifts = []struct{ name, old, new string }{
	{"clean-to-broken", "../../examples/clean-pod", "../../examples/broken-pod"},
	{"broken-to-clean", "../../examples/broken-pod", "../../examples/clean-pod"},
	{"clean-to-clean", "../../examples/clean-pod", "../../examples/clean-pod"},
}

func TestDriftGolden(t *testing.T) {
	for _, dr := range drifts {
		for name, format := range driftfmt.Formatters() {
			t.Run(dr.name+"/"+name, func(t *testing.T) {
				render := func() []byte {
					var b bytes.Buffer
					if err := format(&b, diff(t, dr.old, dr.new)); err != nil {
						t.Fatal(err)
					}
					return b.Bytes()
				}
				got := render()
				golden(t, "drift-"+dr.name+"."+name+".golden", got)
				if !bytes.Equal(got, render()) {
					t.Error("output is not deterministic")
				}
				if name == "json" {
					snaptest.Validate(t, snapshot.DriftSchemaFile, got)
				}
			})
		}
	}
}

func TestNoDrift(t *testing.T) {
	d := diff(t, "../../examples/broken-pod", "../../examples/broken-pod")
	if d.HasDrift() || d.Summary.Drift || len(d.Devices) != 0 || len(d.Fabric) != 0 || d.Summary.Changes != 0 {
		t.Errorf("identical input drifts: %+v", d.Summary)
	}
	var b bytes.Buffer
	_ = driftfmt.WriteText(&b, d)
	if !strings.Contains(b.String(), "NO DRIFT: both sides are the same in QoS terms") {
		t.Errorf("text:\n%s", b.String())
	}
}

// mutate takes the clean pod and changes it.
func mutate(t *testing.T, f func(s *snapshot.Snapshot)) (*snapshot.Snapshot, *snapshot.Snapshot) {
	t.Helper()
	old := snaptest.Take(t, "../../examples/clean-pod")
	// A deep copy; Read would validate it too, which TestRoundTrip covers.
	cur := &snapshot.Snapshot{}
	if err := json.Unmarshal(snaptest.Write(t, old), cur); err != nil {
		t.Fatal(err)
	}
	f(cur)
	return old, cur
}

func TestDriftInputErrors(t *testing.T) {
	d := diff(t, "../../examples/clean-pod", fixture.Dir(t, "../../render/testdata/input-errors"))
	var sides []string
	for _, e := range d.InputErrors {
		sides = append(sides, e.Side)
		if e.File == "" || e.Message == "" {
			t.Errorf("input error without evidence: %+v", e)
		}
	}
	if len(sides) == 0 || sides[0] != "new" {
		t.Errorf("input errors: %+v", d.InputErrors)
	}
	var b bytes.Buffer
	_ = driftfmt.WriteJSON(&b, d)
	snaptest.Validate(t, snapshot.DriftSchemaFile, b.Bytes())
	b.Reset()
	_ = driftfmt.WriteText(&b, d)
	if !strings.Contains(b.String(), "incomplete: 3 input errors") {
		t.Errorf("text does not say the drift is incomplete:\n%s", b.String())
	}
}

// TestHTMLSelfContained: the page fetches nothing and runs nothing, and
// what the inputs say is escaped.
func TestHTMLSelfContained(t *testing.T) {
	d := diff(t, "../../examples/clean-pod", "../../examples/broken-pod")
	var b bytes.Buffer
	if err := driftfmt.WriteHTML(&b, d); err != nil {
		t.Fatal(err)
	}
	page := strings.ToLower(b.String())
	for _, bad := range []string{"<script", "<link", "<img", "<iframe", "src=", "href=", "url(", "@import", "http://", "https://"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page contains %q", bad)
		}
	}
	if !strings.Contains(page, "<style>") {
		t.Error("no inline style")
	}
	d.Devices[0].Changes[0].Message = `<script src="https://evil.example/x.js"></script>`
	b.Reset()
	_ = driftfmt.WriteHTML(&b, d)
	if strings.Contains(b.String(), "<script") || !strings.Contains(b.String(), "&lt;script") {
		t.Error("a message is not escaped")
	}
}

// TestMarkdownFitsAComment: a fabric-wide drift is cut at a whole change
// under GitHub's comment limit, and says how much was left out.
func TestMarkdownFitsAComment(t *testing.T) {
	old, cur := mutate(t, func(s *snapshot.Snapshot) {
		base := s.Hosts[0]
		s.Hosts = nil
		for i := 0; i < 300; i++ {
			h := base
			h.Name = fmt.Sprintf("gpu%03d", i)
			h.NICs = append([]snapshot.NIC(nil), base.NICs...)
			h.NICs[0].MTU.Value, h.NICs[1].MTU.Value = 1500, 1500
			s.Hosts = append(s.Hosts, h)
		}
	})
	var b bytes.Buffer
	if err := driftfmt.WriteMarkdown(&b, drift.Diff(old, cur, cur.Policy.Inventory())); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if len(out) > driftfmt.MarkdownMaxBytes {
		t.Errorf("%d bytes, over %d", len(out), driftfmt.MarkdownMaxBytes)
	}
	if !strings.Contains(out, "more changes (see the full report)") || !strings.HasSuffix(strings.TrimSpace(strings.Split(out, "\n…")[0]), "|") {
		t.Errorf("not cut at a whole row:\n%s", out[len(out)-400:])
	}
}

// TestDriftNotesGolden: from a snapshot taken before links were recorded
// (model/snapshot/testdata/clean-pod.nolinks.snapshot.json) to the clean
// pod, nothing drifts and every format says the links were not compared.
func TestDriftNotesGolden(t *testing.T) {
	const file = "../../model/snapshot/testdata/clean-pod.nolinks.snapshot.json"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	old, err := snapshot.Read(file, data)
	if err != nil {
		t.Fatal(err)
	}
	cur := snaptest.Take(t, "../../examples/clean-pod")
	d := drift.Diff(old, cur, cur.Policy.Inventory())
	d.Old.Source, d.New.Source = "clean-pod.nolinks.snapshot.json", "examples/clean-pod"
	for name, format := range driftfmt.Formatters() {
		var b bytes.Buffer
		if err := format(&b, d); err != nil {
			t.Fatal(err)
		}
		golden(t, "drift-nolinks-to-clean."+name+".golden", b.Bytes())
		if !strings.Contains(b.String(), "links were not recorded in the old snapshot") {
			t.Errorf("%s: no note that the links were not compared", name)
		}
		if name == "json" {
			snaptest.Validate(t, snapshot.DriftSchemaFile, b.Bytes())
		}
	}
}
