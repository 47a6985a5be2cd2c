package app

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"golang.org/x/net/html"
)

// The trace of the shipped pods: clean-pod's NIC 0 of gpu01 to NIC 1 of
// gpu03 crosses leaf01, either spine and leaf02 (two paths, all ok);
// broken-pod's gpu02 → gpu01 on rail 0 stays on leaf01, whose DSCP 26 →
// switch-priority 0 (planted defect 2) is the first broken hop, and gpu01's
// trust pcp (defect 11) breaks the same path again at its end; gpu01 →
// gpu02 breaks first at gpu01's own trust.
func TestTraceGolden(t *testing.T) {
	for _, tc := range []struct {
		name, dir, src, dst, format string
		code                        int
	}{
		{"trace-clean-gpu01-gpu03.txt", "../../../examples/clean-pod", "gpu01:ens1f0np0", "gpu03:ens1f1np1", "text", ExitOK},
		{"trace-clean-gpu01-gpu03.json", "../../../examples/clean-pod", "gpu01:ens1f0np0", "gpu03:ens1f1np1", "json", ExitOK},
		{"trace-clean-gpu01-gpu03.html", "../../../examples/clean-pod", "gpu01:ens1f0np0", "gpu03:ens1f1np1", "html", ExitOK},
		{"trace-broken-gpu02-gpu01.txt", "../../../examples/broken-pod", "gpu02:ens1f0np0", "gpu01:ens1f0np0", "text", ExitFindings},
		{"trace-broken-gpu02-gpu01.html", "../../../examples/broken-pod", "gpu02:ens1f0np0", "gpu01:ens1f0np0", "html", ExitFindings},
		{"trace-broken-gpu01-gpu02.txt", "../../../examples/broken-pod", "gpu01", "gpu02", "text", ExitFindings},
		{"trace-broken-gpu01-gpu02.json", "../../../examples/broken-pod", "gpu01", "gpu02", "json", ExitFindings},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := Trace(&out, &errOut, tc.dir, tc.src, tc.dst, tc.format); code != tc.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tc.code, errOut.String())
			}
			if errOut.Len() > 0 {
				t.Errorf("stderr: %s", errOut.String())
			}
			golden(t, tc.name+".golden", out.Bytes())
		})
	}
}

// The first broken hop and its check, from the JSON.
func TestTraceFirstBroken(t *testing.T) {
	var out, errOut bytes.Buffer
	Trace(&out, &errOut, "../../../examples/broken-pod", "gpu02:ens1f0np0", "gpu01:ens1f0np0", "json")
	var doc struct {
		Pairs []struct {
			Paths []struct {
				Status string
				Broken struct {
					Hop           int
					Device, Check string
				} `json:"first_broken"`
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Pairs) != 1 || len(doc.Pairs[0].Paths) != 1 {
		t.Fatalf("pairs/paths: %+v", doc)
	}
	p := doc.Pairs[0].Paths[0]
	if p.Status != "broken" || p.Broken.Hop != 1 || p.Broken.Device != "leaf01" || p.Broken.Check != "switch-dscp-map" {
		t.Errorf("path %+v, want broken at hop 1, leaf01, switch-dscp-map", p)
	}
}

func TestTraceErrors(t *testing.T) {
	clean := "../../../examples/clean-pod"
	noLLDP := copyDir(t, clean)
	for _, d := range []string{"gpu01", "gpu02", "leaf01", "leaf02", "spine01", "spine02", "gpu03", "gpu04"} {
		if err := os.Remove(noLLDP + "/devices/" + d + "/lldp.json"); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		dir, src, dst, format, want string
	}{
		{clean, "gpu09", "gpu01", "text", `no host "gpu09" in the inventory`},
		{clean, "gpu01:eth7", "gpu02", "text", `gpu01 has no RoCE NIC "eth7" (it has ens1f0np0, ens1f1np1)`},
		{clean, "leaf01", "gpu02", "text", "leaf01 is a switch"},
		{clean, "gpu01", "gpu01", "text", "are one NIC"},
		{clean, "gpu01:", "gpu02", "text", ""},
		{clean, ":x", "gpu02", "text", `":x" is not HOST or HOST:NIC`},
		{clean, "gpu01", "gpu02", "xml", `--format "xml": text, json or html`},
		{noLLDP, "gpu01", "gpu02", "text", "LLDP shows no switch at the end of gpu01:ens1f0np0 (gpu01's lldp.json not collected)"},
	} {
		var out, errOut bytes.Buffer
		code := Trace(&out, &errOut, tc.dir, tc.src, tc.dst, tc.format)
		if tc.want == "" {
			// "gpu01:" is gpu01 with no NIC named.
			if code != ExitOK {
				t.Errorf("%s %s: exit %d: %s", tc.src, tc.dst, code, errOut.String())
			}
			continue
		}
		if code != ExitInput || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%s → %s: exit %d, stderr %q; want exit 2 and %q", tc.src, tc.dst, code, errOut.String(), tc.want)
		}
	}
}

// htmlAttr is the value of n's attribute key, and whether n has it.
func htmlAttr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// htmlFind is every element under n named tag whose class list holds
// class, in document order.
func htmlFind(n *html.Node, tag, class string) []*html.Node {
	var out []*html.Node
	for c := range n.Descendants() {
		if c.Type != html.ElementNode || c.Data != tag {
			continue
		}
		cl, _ := htmlAttr(c, "class")
		if slices.Contains(strings.Fields(cl), class) {
			out = append(out, c)
		}
	}
	return out
}

// The HTML trace read as a browser reads it: clean-pod's two spine paths
// are two path sections of five ok hops; broken-pod's one path is broken at
// leaf01 by switch-dscp-map, the same hop and check as the JSON's.
func TestTraceHTMLParsed(t *testing.T) {
	for _, tc := range []struct {
		dir, src, dst string
		paths, hops   int
		broken        [][2]string // per path: device, check of the first broken hop
	}{
		{"../../../examples/clean-pod", "gpu01:ens1f0np0", "gpu03:ens1f1np1", 2, 5, [][2]string{{}, {}}},
		{"../../../examples/broken-pod", "gpu02:ens1f0np0", "gpu01:ens1f0np0", 1, 3, [][2]string{{"leaf01", "switch-dscp-map"}}},
	} {
		var out, errOut bytes.Buffer
		Trace(&out, &errOut, tc.dir, tc.src, tc.dst, "html")
		doc, err := html.Parse(&out)
		if err != nil {
			t.Fatal(err)
		}
		paths := htmlFind(doc, "section", "path")
		if len(paths) != tc.paths {
			t.Fatalf("%s: %d paths, want %d", tc.dir, len(paths), tc.paths)
		}
		for i, p := range paths {
			hops := htmlFind(p, "div", "hop")
			if len(hops) != tc.hops {
				t.Errorf("%s path %d: %d hops, want %d", tc.dir, i+1, len(hops), tc.hops)
			}
			dev, _ := htmlAttr(p, "data-broken")
			check, _ := htmlAttr(p, "data-check")
			if [2]string{dev, check} != tc.broken[i] {
				t.Errorf("%s path %d: data-broken %q data-check %q, want %q", tc.dir, i+1, dev, check, tc.broken[i])
			}
			first := htmlFind(p, "div", "first-broken")
			if tc.broken[i][0] == "" {
				if len(first) != 0 {
					t.Errorf("%s path %d: a first broken hop on a path that is not broken", tc.dir, i+1)
				}
				continue
			}
			if len(first) != 1 {
				t.Fatalf("%s path %d: %d first broken hops, want 1", tc.dir, i+1, len(first))
			}
			for k, want := range map[string]string{"data-device": dev, "data-status": "broken", "data-check": check, "data-hop": "1", "data-role": "leaf"} {
				if got, _ := htmlAttr(first[0], k); got != want {
					t.Errorf("%s path %d: first broken hop %s=%q, want %q", tc.dir, i+1, k, got, want)
				}
			}
		}
	}
}

// No URL in the page: nothing to fetch, nowhere to link to.
func TestTraceHTMLNoExternalURL(t *testing.T) {
	var out, errOut bytes.Buffer
	Trace(&out, &errOut, "../../../examples/broken-pod", "gpu01", "gpu02", "html")
	page := strings.ToLower(out.String())
	if !strings.HasPrefix(page, "<!doctype html>") {
		t.Fatal("not an HTML page")
	}
	for _, bad := range []string{"src=", "href=", "http:", "https:", "<script", "<link", "url(", "@import"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
}

// The CNP's class must leave every switch strict on the way back: with
// traffic-class 6 DWRR on spine01 (the YAML shape of `nv config show -o yaml`
// under qos egress-scheduler, CumulusNetworks/docs
// content/cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md),
// the path via spine01 carries switch-cnp's reason on spine01's cnp-sched
// step, the one via spine02 does not, and lint's switch-cnp says the same of
// spine01. A warning leaves RoCE's mark, so both paths stay ok.
func TestTraceCNPSchedulerDWRR(t *testing.T) {
	dir := copyDir(t, "../../../examples/clean-pod")
	cfg := dir + "/devices/spine01/nv-config.yaml"
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dwrr := "    qos:\n      egress-scheduler:\n        default-global:\n          traffic-class:\n            '6':\n              mode: dwrr\n"
	// The switch-wide qos: block, at four spaces after a newline, not an
	// interface's own (deeper) qos:.
	s := strings.Replace(string(b), "\n    qos:\n", "\n"+dwrr, 1)
	if s == string(b) {
		t.Fatal("spine01's configuration has no qos: to edit")
	}
	if err := os.WriteFile(cfg, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := Trace(&out, &errOut, dir, "gpu01:ens1f0np0", "gpu03:ens1f1np1", "json"); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var doc struct {
		Pairs []struct {
			Paths []struct {
				Via, Status string
				Hops        []struct {
					Device string
					Steps  []struct{ Name, Status, Check, Reason, Label, Port string }
				}
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Pairs) != 1 || len(doc.Pairs[0].Paths) != 2 {
		t.Fatalf("want one pair of two paths: %s", out.String())
	}
	for _, p := range doc.Pairs[0].Paths {
		if p.Status != "ok" {
			t.Errorf("path via %s: %s, want ok (a warning keeps RoCE's mark)", p.Via, p.Status)
		}
		seen := 0
		for _, h := range p.Hops {
			for _, st := range h.Steps {
				if st.Name != "cnp-sched" {
					continue
				}
				seen++
				flagged := h.Device == "spine01"
				if got := st.Reason != ""; got != flagged || st.Check != "switch-cnp" {
					t.Errorf("via %s, %s %s: check %q, reason %q, label %q; want switch-cnp, reason only on spine01",
						p.Via, h.Device, st.Port, st.Check, st.Reason, st.Label)
				}
				if flagged && (!strings.Contains(st.Reason, "CNP traffic-class 6 is scheduled dwrr, not strict") || st.Label != "TC 6 dwrr") {
					t.Errorf("spine01 cnp-sched: label %q, reason %q", st.Label, st.Reason)
				}
			}
		}
		if seen != 3 {
			t.Errorf("path via %s: %d cnp-sched steps, want one per switch (3)", p.Via, seen)
		}
	}
	r, err := BuildReport(dir, judge.Error)
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, f := range r.Findings {
		if f.Check == "switch-cnp" {
			found = f.Device == "spine01" && f.Severity == judge.Warning
			if !found {
				t.Errorf("unexpected switch-cnp finding %+v", f)
			}
		}
	}
	if !found {
		t.Error("lint's switch-cnp does not flag spine01: the trace and the check disagree")
	}
}
