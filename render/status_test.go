package render_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/render"
)

// JSON, text and markdown say which checks did not run: JSON per device ×
// check with the reason, text and markdown as one line of counts.
func TestSkippedInEveryFormat(t *testing.T) {
	r := lintReport(t, "../examples/clean-pod")
	if len(r.Skipped()) == 0 {
		t.Fatal("the clean pod has no counters: its evidence checks must be skipped")
	}
	var b bytes.Buffer
	if err := render.JSON(&b, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Summary struct{ Skipped int }
		Devices []struct {
			Name   string
			Checks []struct{ Check, Status, Skip, Reason string }
		}
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	found := false
	for _, d := range doc.Devices {
		for _, c := range d.Checks {
			if c.Status == "skipped" {
				n++
				if c.Skip == "" || c.Reason == "" {
					t.Errorf("%s %s skipped without its reason: %+v", d.Name, c.Check, c)
				}
			}
			if d.Name == "gpu01" && c.Check == "ib-sl2vl" {
				found = c.Status == "skipped" && c.Skip == "not applicable" && strings.Contains(c.Reason, "Ethernet")
			}
		}
	}
	if !found {
		t.Error("gpu01 ib-sl2vl is not skipped as not applicable in JSON")
	}
	if n != doc.Summary.Skipped || n != len(r.Skipped()) {
		t.Errorf("%d skipped checks in devices, summary says %d, report %d", n, doc.Summary.Skipped, len(r.Skipped()))
	}
	want := fmt.Sprintf("skipped: %d device × check pairs did not run (", len(r.Skipped()))
	for format, f := range map[string]render.Formatter{"text": render.Text, "markdown": render.Markdown} {
		var out bytes.Buffer
		if err := f(&out, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("%s lacks %q", format, want)
		}
	}
}
