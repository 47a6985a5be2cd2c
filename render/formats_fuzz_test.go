package render_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/render"
)

// FuzzFormats feeds text as a device file could carry it into every field
// a finding and an input error print, and checks what each format
// promises whatever the text: markdown keeps its table rows at seven cells
// and its code blocks closed, JUnit parses as XML and SARIF as JSON, and
// the same report gives the same bytes twice.
func FuzzFormats(f *testing.F) {
	for _, s := range [][4]string{
		{"the NIC trusts pcp: RoCE from and to this NIC uses priority 0 unless tagged", "ens1f0np0", "pcp (devices/gpu01/mlnx_qos-ens1f0np0.txt:2)", "pcp"},
		{"NCCL_IB_TC=26 is the DSCP, not the ToS: the wire carries DSCP 6 (26 >> 2)", "ens1f0np0,ens1f1np1", "ToS 26 (DSCP 6, ECT(0)) via NCCL_IB_TC=26", "26"},
		{`a|b \| ` + "`x` ``` <b>&amp; $m$ *e* _u_ [l](u)\r\nnext", "swp1|2", "]]> \x00\x1b\xff", "```\n"},
		{"", "", "", ""},
	} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, msg, iface, actual, value string) {
		report := func() *render.Report {
			return &render.Report{
				Fabric:  "pod",
				Devices: []render.Device{{Name: "gpu01", Kind: "host"}},
				Notes:   []string{msg},
				Findings: []checks.Finding{{
					Check: "host-trust", Severity: judge.Error, Device: "gpu01", Interface: iface,
					Message: msg, Expected: "dscp", Actual: actual,
					Source:  source.Pos{File: "devices/gpu01/" + iface, Line: 2},
					Changes: []checks.Change{{Kind: checks.MlnxQos, Target: iface, Flag: "--trust", Value: value, Old: actual, HasOld: true}},
				}},
				Errors: []*source.Error{{Device: "gpu01", Pos: source.Pos{File: actual, Line: 1}, Msg: msg}},
			}
		}
		for name, format := range render.Formatters() {
			var a, b bytes.Buffer
			if err := format(&a, report()); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := format(&b, report()); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatalf("%s: not deterministic", name)
			}
			out := a.String()
			switch name {
			case "markdown":
				fuzzMarkdown(t, out)
			case "junit":
				var v struct{}
				if err := xml.Unmarshal(a.Bytes(), &v); err != nil {
					t.Fatalf("junit does not parse: %v\n%s", err, out)
				}
			case "sarif", "json":
				if !json.Valid(a.Bytes()) {
					t.Fatalf("%s is not JSON", name)
				}
			}
		}
	})
}

func fuzzMarkdown(t *testing.T, out string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	fence := ""
	for _, l := range lines {
		if fence != "" {
			// Inside a block only its own fence (or a longer one) closes it.
			if strings.HasPrefix(l, fence) && strings.Trim(l, "`") == "" {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(l, "```") {
			fence = l[:len(l)-len(strings.TrimLeft(l, "`"))]
			continue
		}
		want := 0
		switch {
		case strings.HasPrefix(l, "| error | `host-trust` |"):
			want = 7
		case strings.HasPrefix(l, "| gpu01 |"): // an input error
			want = 3
		}
		if want > 0 {
			cells, esc := 0, false
			for _, c := range l {
				switch {
				case esc:
					esc = false
				case c == '\\':
					esc = true
				case c == '|':
					cells++
				}
			}
			if cells != want+1 {
				t.Fatalf("a row of %d cells splits into %d:\n%s", want, cells-1, l)
			}
		}
	}
	if fence != "" {
		t.Fatalf("code block left open:\n%s", out)
	}
}
