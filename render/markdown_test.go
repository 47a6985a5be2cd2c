package render_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/render"
)

func markdown(t *testing.T, r *render.Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := render.Markdown(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// bigReport has n findings of m-byte messages on each of devices devices,
// each with an NVUE fix (two commands and a rollback).
func bigReport(devices, n, m int) *render.Report {
	r := &render.Report{Fabric: "pod-big", FailOn: judge.Error, Notes: []string{"host keys were NOT verified (--insecure-skip-host-key-check)"}}
	for d := range devices {
		name := fmt.Sprintf("leaf%03d", d)
		r.Devices = append(r.Devices, render.Device{Name: name, Kind: "switch"})
		for i := range n {
			r.Findings = append(r.Findings, checks.Finding{
				Check: "mtu", Severity: judge.Error, Device: name, Interface: fmt.Sprintf("swp%d", i+1),
				Message: strings.Repeat("m", m), Expected: ">= 9216", Actual: "1500",
				Source:  source.Pos{File: "devices/" + name + "/nv-config.yaml", Line: i + 1},
				Changes: []checks.Change{{Kind: checks.NVUE, Path: []string{"interface", fmt.Sprintf("swp%d", i+1), "link", "mtu"}, Value: "9216", Old: "1500", HasOld: true}},
			})
		}
	}
	r.Devices = append(r.Devices, render.Device{Name: "spine01", Kind: "switch"})
	return r
}

var moreRE = regexp.MustCompile(`(?m)^… (\d+) more findings?(, .*)? \(see the full report\)$`)

// mdWellFormed checks what a cut must not break: every fence and
// <details> closed.
func mdWellFormed(t *testing.T, out string) {
	t.Helper()
	fences := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "```") {
			fences++
		}
	}
	if fences%2 != 0 {
		t.Errorf("%d fence lines: a code block is left open", fences)
	}
	if o, c := strings.Count(out, "<details>"), strings.Count(out, "</details>"); o != c {
		t.Errorf("%d <details> but %d </details>", o, c)
	}
}

func TestMarkdownTruncatesToGitHubLimit(t *testing.T) {
	for _, tc := range []struct {
		name              string
		devices, n, m     int
		wantCut           bool
		wantOtherLeftOuts string
	}{
		{"fits", 3, 10, 80, false, ""},
		{"one huge device", 1, 3000, 120, true, ", 1 more clean device"},
		{"many devices", 200, 20, 60, true, ", 1 more clean device"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := bigReport(tc.devices, tc.n, tc.m)
			total := len(r.Findings)
			out := markdown(t, r)
			if len(out) > render.MarkdownMaxBytes || len(out) >= 65536 {
				t.Fatalf("%d bytes, over the limit %d", len(out), render.MarkdownMaxBytes)
			}
			mdWellFormed(t, out)
			rows := strings.Count(out, "\n| error | `mtu` |")
			m := moreRE.FindStringSubmatch(out)
			if !tc.wantCut {
				if m != nil || rows != total {
					t.Fatalf("cut although it fits: %d of %d rows, %q", rows, total, m)
				}
				return
			}
			if m == nil {
				t.Fatalf("no truncation line; %d of %d rows shown", rows, total)
			}
			left, _ := strconv.Atoi(m[1])
			if rows+left != total {
				t.Errorf("%d rows shown + %d left out != %d findings", rows, left, total)
			}
			if m[2] != tc.wantOtherLeftOuts {
				t.Errorf("also left out %q, want %q", m[2], tc.wantOtherLeftOuts)
			}
			// The cut is at a whole finding, with its fix: the last shown
			// row's command is in the shown fix block.
			last := strings.LastIndex(out, "\n| error | `mtu` | ")
			iface := strings.Fields(out[last+len("\n| error | `mtu` | "):])[0]
			if !strings.Contains(out[last:], "nv set interface "+iface+" link mtu 9216") {
				t.Errorf("the fix of the last shown finding (%s) is missing", iface)
			}
			// A budget nearly used: the cut is not wastefully early.
			if len(out) < render.MarkdownMaxBytes*9/10 {
				t.Errorf("only %d of %d bytes used", len(out), render.MarkdownMaxBytes)
			}
			if !strings.Contains(out, "### Notes") {
				t.Error("the notes, which come first, were cut")
			}
		})
	}
}

// Input errors come before findings: when they alone overflow, every
// finding is counted as left out.
func TestMarkdownTruncatesInputErrors(t *testing.T) {
	r := bigReport(1, 5, 10)
	for i := range 3000 {
		r.Errors = append(r.Errors, &source.Error{Device: "leaf000", Pos: source.Pos{File: fmt.Sprintf("devices/leaf000/f%04d", i), Line: 1}, Msg: strings.Repeat("e", 40)})
	}
	out := markdown(t, r)
	if len(out) > render.MarkdownMaxBytes {
		t.Fatalf("%d bytes", len(out))
	}
	shown := strings.Count(out, "\n| leaf000 | ")
	re := regexp.MustCompile(`(?m)^… (\d+) more input errors, 5 more findings, 1 more clean device \(see the full report\)$`)
	m := re.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("truncation line missing:\n%s", out[len(out)-300:])
	}
	if left, _ := strconv.Atoi(m[1]); shown+left != 3000 {
		t.Errorf("%d input errors shown + %d left out != 3000", shown, left)
	}
	if !strings.HasPrefix(out, "## qoslint: fabric pod-big\n\n**INCOMPLETE**: ") {
		t.Errorf("summary: %q", out[:80])
	}
}

// Text from device files is shown literally: it cannot break the table,
// start markup, or close the fenced block of commands.
func TestMarkdownEscapes(t *testing.T) {
	r := &render.Report{
		Fabric:  "pod|x",
		Devices: []render.Device{{Name: "gpu01", Kind: "host"}},
		Findings: []checks.Finding{{
			Check: "host-trust", Severity: judge.Error, Device: "gpu01", Interface: "eth|0",
			Message:  "a|b `c` <img src=x> $x$ *y* _z_ \\| snake_case\nnext",
			Expected: "dscp", Actual: "``` pcp",
			Source:  source.Pos{File: "devices/gpu01/a|b.txt", Line: 2},
			Changes: []checks.Change{{Kind: checks.MlnxQos, Target: "eth0", Flag: "--trust", Value: "```\nrm -rf /", Old: "pcp", HasOld: true}},
		}},
	}
	out := markdown(t, r)
	var row string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "| error |") {
			row = l
		}
	}
	if row == "" {
		t.Fatalf("no finding row:\n%s", out)
	}
	for _, want := range []string{
		"eth\\|0", "a\\|b \\`c\\` \\<img src=x> \\$x\\$ \\*y\\* \\_z\\_ \\\\\\| snake_case<br>next",
		"\\`\\`\\` pcp", "devices/gpu01/a\\|b.txt:2",
	} {
		if !strings.Contains(row, want) {
			t.Errorf("row lacks %q:\n%s", want, row)
		}
	}
	// GFM splits a row at each pipe not taken by a backslash escape.
	cells, esc := 0, false
	for _, c := range row {
		switch {
		case esc:
			esc = false
		case c == '\\':
			esc = true
		case c == '|':
			cells++
		}
	}
	if cells != 8 {
		t.Errorf("the row splits into %d cells, want 7:\n%s", cells-1, row)
	}
	if !strings.Contains(out, "## qoslint: fabric pod\\|x\n") {
		t.Errorf("fabric name not escaped:\n%s", out[:60])
	}
	// The command holds ``` and a newline; the fence must outlast it.
	if !strings.Contains(out, "\n````sh\n# host-trust eth|0\nmlnx_qos -i eth0 --trust '```\nrm -rf /'\n````\n") {
		t.Errorf("the fix block is not fenced longer than its content:\n%s", out)
	}
	mdWellFormed(t, out)
}

// A note is one list item whatever it starts with.
func TestMarkdownNotesStayListItems(t *testing.T) {
	r := bigReport(0, 0, 0)
	r.Notes = []string{"# not a heading", "1. not a list", "- not a list", "> not a quote", "leaf01: plain"}
	out := markdown(t, r)
	want := "- \\# not a heading\n- 1\\. not a list\n- \\- not a list\n- \\> not a quote\n- leaf01: plain\n"
	if !strings.Contains(out, want) {
		t.Errorf("notes:\n%s", out)
	}
}
