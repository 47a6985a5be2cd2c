package render_test

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/checks/waivers"
	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/render"
)

// brokenPodBreaks are the hops the planted defects of examples/broken-pod
// (its README table) break, as "device sub hop"; every other hop keeps the
// mark. Defects that are not on the RoCE data path (ECMP, adaptive routing,
// CNP, MTU) break no hop.
var brokenPodBreaks = []string{ // sorted
	"gpu01 ens1f0np0 nic-priority",        // #11 trust pcp
	"gpu01 ens1f1np1 nic-priority",        // #11
	"gpu02 ens1f1np1 nic-pfc",             // #13 PFC on 4
	"gpu02 ens1f1np1 nic-priority",        // #12 DSCP 26 → prio 4
	"gpu03 ens1f0np0 tos",                 // #14 NCCL_IB_TC=26
	"gpu03 ens1f1np1 tos",                 // #14
	"gpu04 ens1f0np0 nic-ecn",             // #17 np off
	"gpu04 ens1f0np0 tos",                 // #16 ToS 0
	"gpu04 ens1f1np1 tos",                 // #16
	"leaf01 swp1,swp3-32 switch-ecn",      // #3
	"leaf01 swp1,swp3-32 switch-priority", // #2
	"leaf01 swp2 switch-ecn",              // #3
	"leaf01 swp2 switch-pfc",              // #20 pfc profile storage-pfc
	"leaf01 swp2 switch-priority",         // #2
	"leaf02 swp1-32 switch-pfc",           // #4
	"leaf02 swp1-32 switch-tc",            // #5
	"leaf03 swp1-16 switch-priority",      // #8 trust l2
	"spine02 swp1-32 switch-pfc",          // #1 lossy
}

func lintReport(t *testing.T, dir string) *render.Report {
	t.Helper()
	r, err := app.BuildReport(dir, judge.Error)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func chainBreaks(c *render.MarkingChain) (broken, unknown []string) {
	add := func(dev, sub string, hops []render.Hop) {
		for _, h := range hops {
			switch h.Status {
			case render.HopBroken:
				broken = append(broken, dev+" "+sub+" "+h.Name)
			case render.HopUnknown:
				unknown = append(unknown, dev+" "+sub+" "+h.Name)
			}
		}
	}
	for _, n := range c.NICs {
		add(n.Host, n.Netdev, n.Hops)
	}
	for _, s := range c.Switches {
		add(s.Switch, s.Ports, s.Hops)
	}
	sort.Strings(broken)
	sort.Strings(unknown)
	return broken, unknown
}

func TestBuildChainBrokenPod(t *testing.T) {
	c := lintReport(t, "../examples/broken-pod").Chain
	if c == nil {
		t.Fatal("app did not attach the marking chain")
	}
	if c.DSCP != 26 || c.ToS != 104 || c.Priority != 3 || c.TrafficClass != 3 || !c.Lossless {
		t.Errorf("chain follows DSCP %d ToS %d prio %d TC %d lossless %v, want 26 104 3 3 true", c.DSCP, c.ToS, c.Priority, c.TrafficClass, c.Lossless)
	}
	if len(c.NICs) != 8 || len(c.Switches) != 7 {
		t.Errorf("%d NICs and %d port groups, want 8 (4 hosts × 2) and 7 (leaf01 and leaf03 have two groups)", len(c.NICs), len(c.Switches))
	}
	broken, unknown := chainBreaks(c)
	if strings.Join(broken, "\n") != strings.Join(brokenPodBreaks, "\n") {
		t.Errorf("broken hops:\n%s\nwant:\n%s", strings.Join(broken, "\n"), strings.Join(brokenPodBreaks, "\n"))
	}
	if len(unknown) > 0 {
		t.Errorf("everything was collected, yet unknown hops: %q", unknown)
	}
	for _, tc := range []struct {
		dev, sub, hop string
		label, short  string
		reasonHas     []string
		check         string
	}{
		{"gpu03", "ens1f0np0", "tos", "ToS 26 → DSCP 6", "DSCP 6 on the wire",
			[]string{"NCCL_IB_TC=26 puts DSCP 6 on the wire", "set the ToS to 104", "26 is the DSCP", "devices/gpu03/nccl.conf:6"}, "host-tos"},
		{"gpu04", "ens1f1np1", "tos", "ToS 0 → DSCP 0", "DSCP 0 on the wire", []string{"NCCL_IB_TC unset"}, "host-tos"},
		{"gpu02", "ens1f0np0", "tos", "ToS 106 → DSCP 26", "", []string{"forced traffic_class 106"}, "host-tos"},
		{"gpu01", "ens1f0np0", "nic-priority", "trust pcp → prio 0", "trusts pcp, not dscp",
			[]string{"devices/gpu01/mlnx_qos-ens1f0np0.txt:2", "priority 0"}, "host-trust"},
		{"gpu02", "ens1f1np1", "nic-priority", "DSCP 26 → prio 4", "prio 4, not 3", []string{"devices/gpu02/mlnx_qos-ens1f1np1.txt"}, "host-dscp-map"},
		{"gpu02", "ens1f1np1", "nic-pfc", "PFC off on prio 3", "PFC off on 3", []string{"(on: 4)"}, "host-pfc"},
		{"gpu04", "ens1f0np0", "nic-ecn", "DCQCN np off · rp on", "np off", []string{"notification point is off for priority 3"}, "host-ecn"},
		{"leaf01", "swp1,swp3-32", "switch-priority", "DSCP 26 → SP 0", "SP 0, not 3", []string{"devices/leaf01/nv-config.yaml:39"}, "switch-dscp-map"},
		{"leaf01", "swp1,swp3-32", "switch-ecn", "ECN off on TC 3", "ECN off on TC 3", []string{"ECN is off on traffic-class 3"}, "switch-ecn"},
		{"leaf01", "swp2", "switch-pfc", "PFC off on SP 3", "PFC on 2, not 3", []string{"(on: 2)"}, "switch-pfc"},
		{"leaf02", "swp1-32", "switch-pfc", "PFC off on SP 3", "PFC on 4, not 3", []string{"(on: 4)"}, "switch-pfc"},
		{"leaf02", "swp1-32", "switch-tc", "SP 3 → TC 0", "TC 0, not 3", []string{"traffic-class 0"}, "switch-queue-map"},
		{"leaf03", "swp1-16", "switch-priority", "trust l2", "trust l2: DSCP ignored", []string{"nv-config.yaml"}, "switch-trust"},
		{"leaf03", "swp17-32", "switch-priority", "DSCP 26 → SP 3", "", nil, "switch-dscp-map"},
		{"spine02", "swp1-32", "switch-pfc", "PFC off on SP 3", "PFC on none, not 3", []string{"qos roce lossy default"}, "switch-pfc"},
	} {
		h := findHop(c, tc.dev, tc.sub, tc.hop)
		if h == nil {
			t.Errorf("%s %s: no %s hop", tc.dev, tc.sub, tc.hop)
			continue
		}
		if h.Label != tc.label || h.Short != tc.short || h.Check != tc.check {
			t.Errorf("%s %s %s: label %q short %q check %q, want %q %q %q", tc.dev, tc.sub, tc.hop, h.Label, h.Short, h.Check, tc.label, tc.short, tc.check)
		}
		for _, s := range tc.reasonHas {
			if !strings.Contains(h.Reason, s) {
				t.Errorf("%s %s %s: reason %q lacks %q", tc.dev, tc.sub, tc.hop, h.Reason, s)
			}
		}
	}
	// The NIC-side numbers the table promises.
	for _, n := range c.NICs {
		if n.Host == "gpu03" && (n.ToS != 26 || n.DSCP != 6 || n.Via != "NCCL_IB_TC" || n.Priority != 3) {
			t.Errorf("gpu03 %s: ToS %d DSCP %d via %s prio %d", n.Netdev, n.ToS, n.DSCP, n.Via, n.Priority)
		}
		if n.Host == "gpu01" && n.Priority != 0 {
			t.Errorf("gpu01 %s trusts pcp: priority %d, want 0", n.Netdev, n.Priority)
		}
	}
	for _, s := range c.Switches {
		if s.Switch == "leaf02" && (s.Priority != 3 || s.TC != 0 || s.Status() != render.HopBroken) {
			t.Errorf("leaf02: SP %d TC %d status %s", s.Priority, s.TC, s.Status())
		}
		if s.Switch == "leaf03" && s.Ports == "swp1-16" && s.Priority != -1 {
			t.Errorf("leaf03 swp1-16 ignores the DSCP: priority %d, want -1", s.Priority)
		}
	}
}

func findHop(c *render.MarkingChain, dev, sub, name string) *render.Hop {
	for _, n := range c.NICs {
		for i, h := range n.Hops {
			if n.Host == dev && n.Netdev == sub && h.Name == name {
				return &n.Hops[i]
			}
		}
	}
	for _, s := range c.Switches {
		for i, h := range s.Hops {
			if s.Switch == dev && s.Ports == sub && h.Name == name {
				return &s.Hops[i]
			}
		}
	}
	return nil
}

func TestBuildChainCleanAndUnread(t *testing.T) {
	broken, unknown := chainBreaks(lintReport(t, "../examples/clean-pod").Chain)
	if len(broken)+len(unknown) > 0 {
		t.Errorf("clean pod: broken %q, unknown %q", broken, unknown)
	}
	// gpu02's mlnx_qos output for ens1f0np0 is malformed: its priority and
	// PFC hops cannot be judged, and say why.
	c := lintReport(t, fixture.Dir(t, "testdata/input-errors")).Chain
	broken, unknown = chainBreaks(c)
	if len(broken) > 0 || strings.Join(unknown, ",") != "gpu02 ens1f0np0 nic-pfc,gpu02 ens1f0np0 nic-priority" {
		t.Errorf("input-errors: broken %q, unknown %q", broken, unknown)
	}
	if h := findHop(c, "gpu02", "ens1f0np0", "nic-priority"); h == nil || h.Short != "unreadable" || !strings.Contains(h.Reason, "see input errors") {
		t.Errorf("unreadable mlnx_qos: %+v", h)
	}
	if render.BuildChain(nil) != nil {
		t.Error("BuildChain(nil) must be nil")
	}
}

// externalRefs reports what in a page would make a browser fetch or run
// anything. The Content-Security-Policy meta is the one "http" allowed.
func externalRefs(page string) []string {
	var bad []string
	p := strings.Replace(page, `<meta http-equiv="Content-Security-Policy"`, "", 1)
	for _, s := range []string{"http", "<script", "<link", "<iframe", "<img", "<object", "<embed", "src=", "@import", "//"} {
		if strings.Contains(strings.ToLower(p), s) {
			bad = append(bad, s)
		}
	}
	for _, u := range regexp.MustCompile(`url\([^)]*\)`).FindAllString(p, -1) {
		if !strings.HasPrefix(u, "url(#") {
			bad = append(bad, u)
		}
	}
	return bad
}

func renderHTML(t *testing.T, r *render.Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := render.HTML(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestHTMLSelfContained(t *testing.T) {
	for _, hr := range handReports {
		page := renderHTML(t, hr.report())
		if bad := externalRefs(page); len(bad) > 0 {
			t.Errorf("%s: the page refers outside itself: %q", hr.name, bad)
		}
		if !strings.Contains(page, `content="default-src 'none'; style-src 'unsafe-inline'"`) {
			t.Errorf("%s: the page must forbid every fetch", hr.name)
		}
	}
}

var cellRe = regexp.MustCompile(`<td class="sev-([^"]+)" data-device="([^"]+)" data-check="([^"]+)" data-severity="([^"]+)"`)

// matrixCells maps "device check" to the severity of its cell, and fails
// on a cell that appears twice or whose class and data disagree.
func matrixCells(t *testing.T, page string) map[string]string {
	t.Helper()
	cells := map[string]string{}
	for _, m := range cellRe.FindAllStringSubmatch(page, -1) {
		k := m[2] + " " + m[3]
		if _, dup := cells[k]; dup {
			t.Errorf("cell %s appears twice", k)
		}
		if m[1] != m[4] {
			t.Errorf("cell %s: class sev-%s, data-severity %s", k, m[1], m[4])
		}
		cells[k] = m[4]
	}
	return cells
}

func TestHTMLMatrix(t *testing.T) {
	r := handReport()
	cells := matrixCells(t, renderHTML(t, r))
	// The inventory's two devices and the waiver file's own row, each
	// with the catalog and the checks only a finding names.
	cols := len(checks.All())
	for _, id := range []string{"not-collected", "waiver"} {
		if !slices.ContainsFunc(checks.All(), func(c *checks.Check) bool { return c.ID == id }) {
			cols++
		}
	}
	if want := 3 * cols; len(cells) != want {
		t.Errorf("%d cells, want 3 rows × %d columns", len(cells), cols)
	}
	for k, want := range map[string]string{
		"gpu01 host-trust":             "error",
		"gpu01 host-ecn":               "warning",
		"gpu01 host-tos":               "waived",
		"leaf01 switch-pfc":            "error",
		"leaf01 not-collected":         "info",
		waivers.Device + " waiver":     "warning",
		"leaf01 switch-ecn":            "ok",
		"gpu01 mtu":                    "ok",
		"gpu01 switch-pfc":             "n/a",
		"leaf01 host-trust":            "n/a",
		waivers.Device + " host-trust": "n/a",
	} {
		if cells[k] != want {
			t.Errorf("cell %s = %q, want %q", k, cells[k], want)
		}
	}
	// Every finding shows in its cell and as an article.
	page := renderHTML(t, r)
	rank := map[string]int{"waived": 0, "info": 1, "warning": 2, "error": 3}
	for _, f := range r.Findings {
		if f.Waived {
			continue // its cell says "waived" unless a live finding outranks it
		}
		if got := cells[f.Device+" "+f.Check]; rank[got] < rank[f.Severity.String()] {
			t.Errorf("%s %s: cell %q for a %s finding", f.Device, f.Check, got, f.Severity)
		}
	}
	if n := strings.Count(page, `<article class="finding`); n != len(r.Findings) {
		t.Errorf("%d finding articles, want %d", n, len(r.Findings))
	}
}

func TestHTMLSummaryAndWaivers(t *testing.T) {
	r := &render.Report{
		Fabric:  "pod",
		Devices: []render.Device{{Name: "gpu01", Kind: "host"}, {Name: "leaf01", Kind: "switch"}},
		Findings: []checks.Finding{
			{Check: "host-trust", Severity: judge.Error, Device: "gpu01", Interface: "eth0", Message: "trusts pcp", Waived: true, WaiverReason: "ticket NET-42",
				Changes: []checks.Change{{Kind: checks.MlnxQos, Target: "eth0", Flag: "--trust", Value: "dscp", Old: "pcp", HasOld: true}}},
			{Check: "host-pfc", Severity: judge.Error, Device: "gpu01", Interface: "eth0", Message: "PFC off", Waived: true},
			{Check: "host-pfc", Severity: judge.Warning, Device: "gpu01", Interface: "eth1", Message: "PFC extra"},
			{Check: "switch-ecn", Severity: judge.Info, Device: "leaf01", Message: "not collected"},
			{Check: "future-check", Severity: judge.Warning, Device: "gpu09", Message: "a device the report does not list"},
		},
		Errors: []*source.Error{{Device: "leaf01", Pos: source.Pos{File: "devices/leaf01/nv-config.yaml", Line: 3}, Msg: "bad"}},
		Notes:  []string{"host keys not verified"},
		FailOn: judge.Error,
	}
	page := renderHTML(t, r)
	for _, want := range []string{
		`data-findings="5" data-errors="0" data-warnings="2" data-info="1" data-waived="2" data-input-errors="1"`,
		`data-device="gpu01" data-check="host-trust" data-severity="waived"`,
		// A live warning outranks a waived error in its cell.
		`data-device="gpu01" data-check="host-pfc" data-severity="warning"`,
		`data-device="leaf01" data-check="switch-ecn" data-severity="info"`,
		`data-device="gpu09" data-check="future-check" data-severity="warning"`,
		`data-waived="true"`, `waived: ticket NET-42`,
		`<pre class="fix">mlnx_qos -i eth0 --trust dscp</pre>`, `<pre class="rollback">mlnx_qos -i eth0 --trust pcp</pre>`,
		`<section id="notes">`, `<li>host keys not verified</li>`,
		`<section id="input-errors">`, `<code>devices/leaf01/nv-config.yaml:3</code>: bad`,
		`1 input error</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(page, `id="chain"`) {
		t.Error("a report without a chain must not draw one")
	}
	cells := matrixCells(t, page)
	if want := 3 * (len(checks.All()) + 1); len(cells) != want {
		t.Errorf("%d cells, want %d (3 devices × the catalog and future-check)", len(cells), want)
	}
}

func TestHTMLEscapes(t *testing.T) {
	evil := `<script>alert(1)</script><img src=x onerror=alert(2)>"'&`
	r := &render.Report{
		Fabric:   evil,
		Devices:  []render.Device{{Name: evil, Kind: "host"}},
		Findings: []checks.Finding{{Check: evil, Device: evil, Interface: evil, Message: evil, Expected: evil, Actual: evil, Source: source.Pos{File: evil, Line: 1}}},
		Notes:    []string{evil},
		Errors:   []*source.Error{{Device: evil, Msg: evil}},
	}
	page := renderHTML(t, r)
	if strings.Contains(page, "<script") || strings.Contains(page, "<img") {
		t.Errorf("device text reached the page unescaped:\n%s", page)
	}
}

var (
	tagRe    = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>`)
	quotedRe = regexp.MustCompile(`"[^"]*"`)
	attrRe   = regexp.MustCompile(`([a-zA-Z-]+)="([^"]*)"`)
	// pageTags are the elements the template writes; text from a device
	// file must never add another.
	pageTags = map[string]bool{}
)

func init() {
	for _, t := range strings.Fields(`html head meta title style body h1 h2 h3 h4 section p span ul ol li b code div main
		table thead tbody tr th td a svg defs marker path g text line rect article header dl dt dd pre footer`) {
		pageTags[t] = true
	}
}

// offlineMarkup checks the page's markup itself, whatever text it holds:
// only the template's elements, no attribute that loads or runs anything,
// links only within the page.
func offlineMarkup(page string) error {
	if !strings.HasPrefix(page, "<!DOCTYPE html>\n") {
		return fmt.Errorf("no doctype")
	}
	for _, m := range tagRe.FindAllStringSubmatch(page[len("<!DOCTYPE html>"):], -1) {
		if !pageTags[strings.ToLower(m[2])] {
			return fmt.Errorf("element %q is not one the template writes", m[0])
		}
		rest := quotedRe.ReplaceAllString(m[3], `""`)
		for _, bad := range []string{"src", " on", "style=", "srcset", "xlink"} {
			if strings.Contains(strings.ToLower(rest), bad) {
				return fmt.Errorf("tag %q has a %s attribute", m[0], bad)
			}
		}
		for _, a := range attrRe.FindAllStringSubmatch(m[3], -1) {
			switch a[1] {
			case "href":
				if !strings.HasPrefix(a[2], "#") {
					return fmt.Errorf("link %q leaves the page", a[2])
				}
			case "marker-end":
				if !strings.HasPrefix(a[2], "url(#") {
					return fmt.Errorf("marker %q leaves the page", a[2])
				}
			}
		}
	}
	return nil
}

// FuzzHTML puts arbitrary text in every field a page prints and checks
// that none of it becomes markup, that the page stays offline, that every
// device × check cell is there once, and that the same report renders the
// same bytes twice.
func FuzzHTML(f *testing.F) {
	f.Add("gpu01", "ens1f0np0", "the NIC trusts pcp: RoCE from and to this NIC uses priority 0 unless tagged", "pcp (devices/gpu01/mlnx_qos-ens1f0np0.txt:2)")
	f.Add("leaf01", "swp1-32", "DSCP 26 maps to switch-priority 0, not the RoCE priority 3", "DSCP 26 → switch-priority 0 (devices/leaf01/nv-config.yaml:35)")
	f.Add(`<b>x</b>`, `"><svg onload=x>`, "</title></text></svg><script>", "https://example.invalid/ url(http://x)")
	f.Add("", "", "", "")
	f.Fuzz(func(t *testing.T, device, iface, msg, actual string) {
		report := func() *render.Report {
			return &render.Report{
				Fabric:  device,
				Devices: []render.Device{{Name: device, Kind: "host"}, {Name: "leaf01", Kind: "switch"}},
				Notes:   []string{msg},
				Findings: []checks.Finding{{
					Check: "host-trust", Severity: judge.Error, Device: device, Interface: iface,
					Message: msg, Expected: "dscp", Actual: actual, Waived: len(msg)%2 == 1, WaiverReason: actual,
					Source:  source.Pos{File: "devices/" + iface, Line: 2},
					Changes: []checks.Change{{Kind: checks.MlnxQos, Target: iface, Flag: "--trust", Value: "dscp", Old: actual, HasOld: true}},
				}},
				Errors: []*source.Error{{Device: device, Pos: source.Pos{File: actual, Line: 1}, Msg: msg}},
			}
		}
		a, b := renderHTML(t, report()), renderHTML(t, report())
		if a != b {
			t.Fatal("not deterministic")
		}
		if err := offlineMarkup(a); err != nil {
			t.Fatal(err)
		}
		for _, pair := range [][2]string{{"<article", "</article>"}, {"<section", "</section>"}, {"<tr", "</tr>"}, {"<pre", "</pre>"}, {"<g", "</g>"}} {
			if strings.Count(a, pair[0]) != strings.Count(a, pair[1]) {
				t.Fatalf("%s opened %d times, closed %d", pair[0], strings.Count(a, pair[0]), strings.Count(a, pair[1]))
			}
		}
		if device != "leaf01" {
			if n := strings.Count(a, `<td class="sev-`); n != 2*len(checks.All()) {
				t.Fatalf("%d cells, want %d", n, 2*len(checks.All()))
			}
		}
	})
}
