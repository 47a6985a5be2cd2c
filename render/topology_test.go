package render_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/render"
)

// topoNodes parses a report page and returns its topology section, and the
// elements under it of the given tag that carry attr, in document order.
func topoNodes(t *testing.T, page, tag, attr string) (*html.Node, []*html.Node) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var sec *html.Node
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.Data == "section" && attrOf(n, "id") == "topology" {
			sec = n
			break
		}
	}
	if sec == nil {
		t.Fatal("the page has no section#topology")
	}
	var out []*html.Node
	for n := range sec.Descendants() {
		if n.Type == html.ElementNode && n.Data == tag && hasAttr(n, attr) {
			out = append(out, n)
		}
	}
	return sec, out
}

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	return slices.ContainsFunc(n.Attr, func(a html.Attribute) bool { return a.Key == key })
}

// topoVerdicts is data-link → data-verdict of the drawn links.
func topoVerdicts(t *testing.T, page string) map[string]string {
	t.Helper()
	_, links := topoNodes(t, page, "g", "data-link")
	out := map[string]string{}
	for _, l := range links {
		out[attrOf(l, "data-link")] = attrOf(l, "data-verdict")
	}
	return out
}

// The shipped pods as a browser parses their pages: broken-pod's gpu03 has
// its two cables swapped between leaf01 and leaf02 (planted defect, the
// cabling and rail-alignment errors), so exactly those two links are red;
// spine01 swp1 at MTU 9000 against leaf01 swp31's 9216 is link-mtu info
// (nothing the hosts send is that large), and the other links carry only
// link-qos/link-pfc info (neutral). Every link of
// clean-pod is ok, and all are drawn (LLDP from both ends: none one-sided).
func TestTopologyPods(t *testing.T) {
	broken := topoVerdicts(t, renderHTML(t, lintReport(t, "../examples/broken-pod")))
	var errs []string
	for id, v := range broken {
		switch v {
		case "error":
			errs = append(errs, id)
		case "info", "ok":
		default:
			t.Errorf("broken-pod link %s is %q", id, v)
		}
	}
	slices.Sort(errs)
	if want := []string{"leaf01:swp3--gpu03:ens1f1np1", "leaf02:swp3--gpu03:ens1f0np0"}; !slices.Equal(errs, want) {
		t.Errorf("broken-pod error links %v, want %v", errs, want)
	}
	if len(broken) != 14 {
		t.Errorf("broken-pod: %d links drawn, want 14 (8 host cables, 6 leaf-spine)", len(broken))
	}
	page := renderHTML(t, lintReport(t, "../examples/clean-pod"))
	clean := topoVerdicts(t, page)
	if len(clean) != 12 {
		t.Errorf("clean-pod: %d links drawn, want 12 (8 host cables, 4 leaf-spine)", len(clean))
	}
	for id, v := range clean {
		if v != "ok" {
			t.Errorf("clean-pod link %s is %q, want ok", id, v)
		}
	}
	_, links := topoNodes(t, page, "g", "data-lldp")
	for _, l := range links {
		if attrOf(l, "data-lldp") != "both" {
			t.Errorf("clean-pod link %s is %s", attrOf(l, "data-link"), attrOf(l, "data-lldp"))
		}
	}
	// Tiers: spines above leaves above hosts, as the inventory roles say.
	_, devs := topoNodes(t, page, "g", "data-tier")
	var order []string
	for _, d := range devs {
		order = append(order, attrOf(d, "data-device")+"="+attrOf(d, "data-tier"))
	}
	if got, want := strings.Join(order, " "), "spine01=2 spine02=2 leaf01=1 leaf02=1 gpu01=0 gpu02=0 gpu03=0 gpu04=0"; got != want {
		t.Errorf("devices %s, want %s", got, want)
	}
}

// handTopology is a small fabric: a spine, a leaf, two hosts; hostB's link
// is one-sided, and a link-qos warning names the leaf's port to hostA.
func handTopology(names [4]string) (*render.Topology, []checks.Finding) {
	spine, leaf, a, b := names[0], names[1], names[2], names[3]
	topo := &render.Topology{LLDP: true,
		Devices: []render.TopoDevice{
			{Name: spine, Kind: "switch", Role: "spine", Tier: 2}, {Name: leaf, Kind: "switch", Role: "leaf", Tier: 1},
			{Name: a, Kind: "host"}, {Name: b, Kind: "host"},
		},
		Links: []render.TopoLink{
			{Upper: render.TopoEnd{Device: spine, Port: "swp1"}, Lower: render.TopoEnd{Device: leaf, Port: "swp31"}},
			{Upper: render.TopoEnd{Device: leaf, Port: "swp1"}, Lower: render.TopoEnd{Device: a, Port: "eth0"}},
			{Upper: render.TopoEnd{Device: leaf, Port: "swp2", Bond: "bond2"}, Lower: render.TopoEnd{Device: b, Port: "eth0"}, OneSided: true},
		},
	}
	fs := []checks.Finding{
		{Check: "link-qos", Severity: judge.Warning, Device: leaf, Interface: "swp1", Message: "warned"},
		// On the bond: names the member's link.
		{Check: "link-mtu", Severity: judge.Error, Device: leaf, Interface: "bond2", Message: "too small"},
		// Not a topology check: colours no link.
		{Check: "switch-pfc", Severity: judge.Error, Device: spine, Interface: "swp1", Message: "pfc"},
	}
	return topo, fs
}

func TestTopologyVerdicts(t *testing.T) {
	topo, fs := handTopology([4]string{"spine01", "leaf01", "hostA", "hostB"})
	r := &render.Report{Fabric: "hand", Findings: fs, Topology: topo}
	page := renderHTML(t, r)
	got := topoVerdicts(t, page)
	want := map[string]string{
		"spine01:swp1--leaf01:swp31": "ok",
		"leaf01:swp1--hostA:eth0":    "warning",
		"leaf01:swp2--hostB:eth0":    "error",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("verdicts %v, want %v", got, want)
	}
	_, links := topoNodes(t, page, "g", "data-link")
	for _, l := range links {
		one := attrOf(l, "data-link") == "leaf01:swp2--hostB:eth0"
		if (attrOf(l, "data-lldp") == "one-sided") != one || strings.Contains(attrOf(l, "class"), "one-sided") != one {
			t.Errorf("link %s: data-lldp %q class %q", attrOf(l, "data-link"), attrOf(l, "data-lldp"), attrOf(l, "class"))
		}
	}
	// Waived, the error no longer colours the link.
	for i := range r.Findings { // HTML sorted them
		r.Findings[i].Waived = r.Findings[i].Check == "link-mtu"
	}
	if v := topoVerdicts(t, renderHTML(t, r))["leaf01:swp2--hostB:eth0"]; v != "ok" {
		t.Errorf("a waived finding colours its link %s", v)
	}
}

// Device and port names reach the page only escaped, and read back intact.
func TestTopologyEscaping(t *testing.T) {
	names := [4]string{`sp<i>ne`, `le&af"`, `<script>alert(1)</script>`, `h'o"st&amp;`}
	topo, fs := handTopology(names)
	page := renderHTML(t, &render.Report{Fabric: "hand", Findings: fs, Topology: topo})
	for _, raw := range []string{"<i>", "<script>", `le&af"`, `"st&amp;`} {
		if strings.Contains(page, raw) {
			t.Errorf("the page holds %q unescaped", raw)
		}
	}
	_, devs := topoNodes(t, page, "g", "data-device")
	var got []string
	for _, d := range devs {
		got = append(got, attrOf(d, "data-device"))
	}
	if want := names[:]; !slices.Equal(got, want) {
		t.Errorf("devices read back %q, want %q", got, want)
	}
	verdicts := topoVerdicts(t, page)
	if v := verdicts[names[1]+":swp2--"+names[3]+":eth0"]; v != "error" {
		t.Errorf("escaped link not found or not error: %v", verdicts)
	}
}

func TestTopologyNoLLDP(t *testing.T) {
	page := renderHTML(t, &render.Report{Fabric: "hand", Topology: &render.Topology{
		Devices: []render.TopoDevice{{Name: "leaf01", Kind: "switch", Tier: 1}}}})
	sec, _ := topoNodes(t, page, "p", "class")
	var text strings.Builder
	svg := false
	for n := range sec.Descendants() {
		switch {
		case n.Type == html.ElementNode && n.Data == "svg":
			svg = true
		case n.Type == html.TextNode:
			text.WriteString(n.Data)
		}
	}
	if svg || !strings.Contains(text.String(), "no LLDP collected") {
		t.Errorf("without LLDP: svg %v, text %q", svg, text.String())
	}
}

// A fabric of 1,000 hosts is drawn as tiers, not boxes: one box per tier,
// one line per pair of tiers with its link count, and the bad links
// listed by name.
func TestTopologyAggregated(t *testing.T) {
	topo := &render.Topology{LLDP: true}
	for s := range 4 {
		topo.Devices = append(topo.Devices, render.TopoDevice{Name: fmt.Sprintf("spine%02d", s+1), Kind: "switch", Role: "spine", Tier: 2})
	}
	for l := range 32 {
		leaf := fmt.Sprintf("leaf%02d", l+1)
		topo.Devices = append(topo.Devices, render.TopoDevice{Name: leaf, Kind: "switch", Role: "leaf", Tier: 1})
		for s := range 4 {
			topo.Links = append(topo.Links, render.TopoLink{Upper: render.TopoEnd{Device: fmt.Sprintf("spine%02d", s+1), Port: fmt.Sprintf("swp%d", l+1)},
				Lower: render.TopoEnd{Device: leaf, Port: fmt.Sprintf("swp%d", 33+s)}})
		}
	}
	for h := range 1000 {
		host := fmt.Sprintf("gpu%04d", h+1)
		topo.Devices = append(topo.Devices, render.TopoDevice{Name: host, Kind: "host"})
		topo.Links = append(topo.Links, render.TopoLink{Upper: render.TopoEnd{Device: fmt.Sprintf("leaf%02d", h%32+1), Port: fmt.Sprintf("swp%d", h/32+1)},
			Lower: render.TopoEnd{Device: host, Port: "eth0"}, OneSided: h == 7})
	}
	fs := []checks.Finding{{Check: "rail-alignment", Severity: judge.Error, Device: "gpu0005", Interface: "eth0", Message: "wrong rail"}}
	page := renderHTML(t, &render.Report{Fabric: "big", Findings: fs, Topology: topo})
	sec, lines := topoNodes(t, page, "g", "data-link")
	got := map[string]string{}
	for _, l := range lines {
		got[attrOf(l, "data-link")] = attrOf(l, "data-verdict") + " " + attrOf(l, "data-count") + " " + attrOf(l, "data-lldp")
	}
	want := map[string]string{"spines--leaves": "ok 128 both", "leaves--hosts": "error 1000 one-sided"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("aggregated lines %v, want %v", got, want)
	}
	_, boxes := topoNodes(t, page, "g", "data-device")
	if len(boxes) != 3 {
		t.Errorf("%d boxes, want one per tier (3)", len(boxes))
	}
	_, listed := topoNodes(t, page, "li", "data-link")
	if len(listed) != 1 || attrOf(listed[0], "data-link") != "leaf05:swp1--gpu0005:eth0" {
		t.Errorf("listed bad links: %d", len(listed))
	}
	var text strings.Builder
	for n := range sec.Descendants() {
		if n.Type == html.TextNode {
			text.WriteString(n.Data)
		}
	}
	if !strings.Contains(text.String(), "1036 devices, more than 200") {
		t.Errorf("no sentence saying the view is aggregated: %.400s", text.String())
	}
	if len(page) > 200_000 {
		t.Errorf("the page is %d bytes for 1,036 devices", len(page))
	}
}
