package commands

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/pcap"
	"github.com/qoslint/qoslint/collectors/pcap/pcaptest"
	"github.com/qoslint/qoslint/internal/golden"
	"golang.org/x/net/html"
)

// The captures are written by gopacket (pcaptest) in the shape tcpdump
// writes on a ConnectX netdev (Ethernet; pcap and pcapng) and a switch
// sends as an ERSPAN type III mirror (draft-foschiano-erspan-03). The
// clean pod's inventory gives gpu01 198.51.100.11 and gpu02 198.51.100.12.
var (
	wireGood = pcaptest.Packet{Src: "198.51.100.11", Dst: "198.51.100.12", DSCP: 26, ECN: 2, DestQP: 0x3B7, SrcPort: 53462}
	wireCNP  = pcaptest.Packet{Src: "198.51.100.12", Dst: "198.51.100.11", DSCP: 48, Opcode: pcap.OpcodeCNP, DestQP: 0x1A2, VLANs: []uint8{6}}
)

func wireWith(p pcaptest.Packet, mod func(*pcaptest.Packet)) pcaptest.Packet { mod(&p); return p }

// pcapFiles writes the captures into a temporary folder and returns their
// paths and a function that makes a report independent of that folder.
func pcapFiles(t *testing.T, files map[string][]byte) (map[string]string, func(string) string) {
	t.Helper()
	dir := t.TempDir()
	paths := map[string]string{}
	for name, data := range files {
		paths[name] = filepath.Join(dir, name)
		if err := os.WriteFile(paths[name], data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return paths, func(s string) string { return strings.ReplaceAll(s, dir+string(filepath.Separator), "") }
}

func TestPcapCommand(t *testing.T) {
	zero := wireWith(wireGood, func(p *pcaptest.Packet) { p.DSCP, p.ECN = 0, 0 })
	p, rel := pcapFiles(t, map[string][]byte{
		"clean.pcap": pcaptest.Pcap(wireGood, wireGood, wireCNP),
		"job.pcapng": pcaptest.Pcapng(wireGood, zero, zero,
			wireWith(wireCNP, func(p *pcaptest.Packet) { p.DSCP, p.VLANs = 0, []uint8{0} })),
		"span.pcapng": pcaptest.Pcapng(wireWith(zero, func(p *pcaptest.Packet) { p.Mirror, p.Src = "erspan3", "203.0.113.9" })),
		"qps.pcap": pcaptest.Pcap(wireWith(wireGood, func(p *pcaptest.Packet) { p.DestQP = 0x10 }),
			wireWith(wireGood, func(p *pcaptest.Packet) { p.DestQP = 0x11 })),
		"tcp.pcap":  pcaptest.Pcap(wireWith(wireGood, func(p *pcaptest.Packet) { p.TCP = true })),
		"notes.txt": []byte("not a capture\n"),
	})
	policy := clean + "/inventory.hcl"
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		golden string
		want   string
	}{
		{"clean, default preset", []string{p["clean.pcap"]}, 0, "pcap-clean.txt", "PASS"},
		{"defects with the pod's policy", []string{p["job.pcapng"], p["span.pcapng"], "--policy", policy}, 1, "pcap-job.txt", "gpu01"},
		{"defects as json", []string{p["job.pcapng"], p["span.pcapng"], "--policy", policy, "-f", "json"}, 1, "pcap-job.json", `"check": "wire-dscp"`},
		{"defects as html", []string{p["job.pcapng"], p["span.pcapng"], "--policy", policy, "-f", "html"}, 1, "pcap-job.html", `<section id="wire">`},
		{"two QPs on one port: a warning, exit 0", []string{p["qps.pcap"]}, 0, "", "warning  wire-entropy\n           198.51.100.11 → 198.51.100.12: all 2 QPs (0x10, 0x11) send with UDP source port 53462"},
		{"the same with --fail-on warning", []string{p["qps.pcap"], "--fail-on", "warning"}, 1, "", "FAIL"},
		{"report only", []string{p["job.pcapng"], "--fail-on", "none"}, 0, "", "REPORT ONLY"},
		{"no RoCE: a note", []string{p["tcp.pcap"]}, 0, "", "no RoCEv2 packet"},
		{"not a capture: exit 2, the rest judged", []string{p["notes.txt"], p["job.pcapng"]}, 2, "", "not a pcap or pcapng capture"},
		{"missing file", []string{p["clean.pcap"] + ".gone"}, 2, "", "no such file"},
		{"sarif", []string{p["job.pcapng"], "-f", "sarif"}, 1, "", `"ruleId": "wire-dscp"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := run(append([]string{"pcap"}, tc.args...)...)
			out = rel(out)
			if code != tc.code || !strings.Contains(out, tc.want) {
				t.Fatalf("exit %d (want %d), lacks %q:\n%s\n%s", code, tc.code, tc.want, out, errOut)
			}
			if tc.golden != "" {
				golden.Check(t, tc.golden, []byte(out))
			}
		})
	}
	if code, _, errOut := run("pcap"); code != 2 || !strings.Contains(errOut, "qoslint pcap takes FILE...") || !strings.Contains(errOut, "usage: qoslint pcap FILE...") {
		t.Errorf("no file: exit %d\n%s", code, errOut)
	}
	if code, _, errOut := run("pcap", p["clean.pcap"], "--policy", "nope.yaml"); code != 2 || !strings.Contains(errOut, "nope.yaml") {
		t.Errorf("missing policy: exit %d\n%s", code, errOut)
	}
}

// TestPcapHTML parses the html report: the shared head's policy and no
// script, one table row per flow and histogram bars with the counts and
// the policy's verdict on each value.
func TestPcapHTML(t *testing.T) {
	zero := wireWith(wireGood, func(p *pcaptest.Packet) { p.DSCP, p.ECN = 0, 0 })
	p, _ := pcapFiles(t, map[string][]byte{"job.pcapng": pcaptest.Pcapng(wireGood, wireGood, wireGood, zero, wireCNP)})
	code, out, errOut := run("pcap", p["job.pcapng"], "--policy", clean+"/inventory.hcl", "-f", "html")
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	doc, err := html.Parse(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	var csp string
	var rows [][]string
	bars := map[string]map[string]string{} // chart title → value → "count class"
	var chartTitle string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			a := attrs(n)
			switch {
			case n.Data == "script":
				t.Error("the page has a script")
			case n.Data == "meta" && a["http-equiv"] == "Content-Security-Policy":
				csp = a["content"]
			case n.Data == "svg" && a["aria-label"] != "":
				chartTitle = a["aria-label"]
				bars[chartTitle] = map[string]string{}
			case n.Data == "g" && a["class"] == "bar":
				bars[chartTitle][a["data-value"]] = a["data-count"] + " " + a["data-class"]
			case n.Data == "tr" && a["class"] == "flow":
				rows = append(rows, []string{a["data-src"], a["data-dst"], a["data-qp"]})
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if csp != "default-src 'none'; style-src 'unsafe-inline'" {
		t.Errorf("Content-Security-Policy %q", csp)
	}
	want := [][]string{{"198.51.100.11", "198.51.100.12", "0x3b7"}, {"198.51.100.12", "198.51.100.11", "0x1a2"}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("flow rows %v, want %v", rows, want)
	}
	for title, w := range map[string]map[string]string{
		"DSCP of RoCEv2 data packets": {"0": "1 other", "26": "3 want"},
		"DSCP of CNPs":                {"48": "1 want"},
		"ECN of RoCEv2 data packets":  {"Not-ECT": "1 other", "ECT(0)": "3 want"},
	} {
		if !reflect.DeepEqual(bars[title], w) {
			t.Errorf("%s: bars %v, want %v", title, bars[title], w)
		}
	}
}

func attrs(n *html.Node) map[string]string {
	m := map[string]string{}
	for _, a := range n.Attr {
		m[a.Key] = a.Val
	}
	return m
}
