package app

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
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
