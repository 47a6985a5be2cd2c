package waivers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/source"
)

func day(s string) time.Time {
	t, err := time.Parse(DateLayout, s)
	if err != nil {
		panic(err)
	}
	return t
}

func mustParse(t *testing.T, src string) *File {
	t.Helper()
	f, err := Parse(FileName, []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return f
}

func TestParse(t *testing.T) {
	f := mustParse(t, `# accepted deviations of pod-b
waivers:
  - check: host-tos            # the job scheduler sets it
    device: "gpu0*"
    interface: "ens1f1np1"
    reason: "vendor ticket 1234:
      NCCL_IB_TC set by the job scheduler"
    expires: 2027-03-31
  - {check: mtu, device: leaf03, reason: swp5 is a 1500 management uplink}
`)
	want := []Waiver{
		{Check: "host-tos", Device: "gpu0*", Interface: "ens1f1np1",
			Reason: "vendor ticket 1234: NCCL_IB_TC set by the job scheduler", Expires: day("2027-03-31"),
			Pos: source.Pos{File: FileName, Line: 3}},
		{Check: "mtu", Device: "leaf03", Reason: "swp5 is a 1500 management uplink",
			Pos: source.Pos{File: FileName, Line: 9}},
	}
	if len(f.Waivers) != len(want) {
		t.Fatalf("got %d waivers: %+v", len(f.Waivers), f.Waivers)
	}
	for i := range want {
		if f.Waivers[i] != want[i] {
			t.Errorf("waiver %d = %+v\nwant %+v", i, f.Waivers[i], want[i])
		}
	}
	if f.Name != FileName {
		t.Errorf("Name = %q", f.Name)
	}
	for _, src := range []string{"", "# nothing waived yet\n", "waivers:\n", "waivers: []\n"} {
		if f := mustParse(t, src); len(f.Waivers) != 0 {
			t.Errorf("%q: %d waivers", src, len(f.Waivers))
		}
	}
	// A quoted date is the same date.
	if f := mustParse(t, "waivers:\n- {check: mtu, device: x, reason: r, expires: \"2026-01-02\"}\n"); !f.Waivers[0].Expires.Equal(day("2026-01-02")) {
		t.Errorf("quoted date: %v", f.Waivers[0].Expires)
	}
}

// Every problem comes back at once, each as file:line: message.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"unknown key in a waiver", "waivers:\n  - check: mtu\n    device: leaf01\n    reason: r\n    expiry: 2027-01-01\n",
			[]string{`qoslint-waivers.yaml:5: unknown key "expiry" in a waiver (want check, device, interface, reason, expires)`}},
		{"unknown top-level key", "waiver:\n  - check: mtu\n",
			[]string{`qoslint-waivers.yaml:1: unknown top-level key "waiver" (want waivers)`}},
		{"missing fields", "waivers:\n  - interface: swp1\n  - check: mtu\n    device: leaf01\n    reason: \"  \"\n",
			[]string{
				"qoslint-waivers.yaml:2: a waiver needs a check",
				"qoslint-waivers.yaml:2: a waiver needs a device",
				"qoslint-waivers.yaml:2: a waiver needs a reason",
				"qoslint-waivers.yaml:5: reason: must say why",
			}},
		{"unknown check", "waivers:\n- check: host-toss\n  device: gpu01\n  reason: r\n",
			[]string{`qoslint-waivers.yaml:2: check: unknown check "host-toss" (` + "`qoslint explain` lists them)"}},
		{"waiver of a waiver", "waivers:\n- check: waiver\n  device: gpu01\n  reason: r\n",
			[]string{"qoslint-waivers.yaml:2: check: a waiver cannot waive waiver findings"}},
		{"bad globs", "waivers:\n- check: mtu\n  device: \"leaf[\"\n  interface: \"swp\\\\\"\n  reason: r\n",
			[]string{`qoslint-waivers.yaml:3: device: bad glob "leaf["`, `qoslint-waivers.yaml:4: interface: bad glob "swp\\"`}},
		{"bad dates", "waivers:\n- {check: mtu, device: a, reason: r, expires: 2027-3-31}\n- {check: mtu, device: b, reason: r, expires: 31/03/2027}\n- {check: mtu, device: c, reason: r, expires: 2027-03-31T10:00:00Z}\n",
			[]string{`:2: expires: want a date YYYY-MM-DD, got "2027-3-31"`, `:3: expires: want a date YYYY-MM-DD, got "31/03/2027"`,
				`:4: expires: want a date YYYY-MM-DD, got "2027-03-31T10:00:00Z"`}},
		{"not a string", "waivers:\n- check: [mtu]\n  device: {a: b}\n  reason: r\n",
			[]string{"qoslint-waivers.yaml:2: check: want a string, got a list", "qoslint-waivers.yaml:3: device: want a string, got a mapping"}},
		{"waivers not a list", "waivers:\n  check: mtu\n", []string{"qoslint-waivers.yaml:2: waivers: want a list of waivers, got a map"}},
		{"waiver not a mapping", "waivers:\n  - mtu leaf01\n", []string{"qoslint-waivers.yaml:2: want a waiver (a mapping of check, device, interface, reason, expires), got a str"}},
		{"not a mapping", "- check: mtu\n", []string{"qoslint-waivers.yaml:1: want a mapping with the key waivers, got a seq"}},
		{"duplicate key", "waivers:\n- check: mtu\n  check: host-tos\n  device: a\n  reason: r\n", []string{`qoslint-waivers.yaml:3: mapping key "check" already defined at line 2`}},
		{"duplicate waiver", "waivers:\n- {check: mtu, device: leaf0*, reason: a}\n- {check: mtu, device: leaf0*, reason: b}\n",
			[]string{"qoslint-waivers.yaml:3: duplicate of the waiver at line 2"}},
		{"syntax", "waivers:\n  - check: mtu\n   device: x\n", []string{"qoslint-waivers.yaml:1: did not find expected '-' indicator"}},
		{"tab", "waivers:\n\t- check: mtu\n", []string{"qoslint-waivers.yaml:2: found character that cannot start any token"}},
		{"two documents", "waivers: []\n---\nwaivers: []\n", []string{"qoslint-waivers.yaml:2: only one YAML document allowed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse(FileName, []byte(tc.src))
			if err == nil {
				t.Fatalf("no error; got %+v", f)
			}
			es, ok := err.(Errors)
			if !ok {
				t.Fatalf("error %T, want Errors: %v", err, err)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tc.want) || len(es) != len(tc.want) {
				t.Fatalf("got %d errors, want %d:\n%v", len(lines), len(tc.want), err)
			}
			for i, w := range tc.want {
				if !strings.Contains(lines[i], w) {
					t.Errorf("error %d = %q, want it to contain %q", i, lines[i], w)
				}
				if es[i].File != FileName || es[i].Line < 1 {
					t.Errorf("error %d has position %v", i, es[i].Pos)
				}
			}
		})
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	if f, err := Load(dir); f != nil || err != nil {
		t.Fatalf("no file: %v, %v", f, err)
	}
	p := filepath.Join(dir, FileName)
	if err := os.WriteFile(p, []byte("waivers:\n- {check: mtu, device: leaf01, reason: uplink}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Load(dir)
	if err != nil || len(f.Waivers) != 1 || f.Name != FileName || f.Waivers[0].Pos.File != FileName {
		t.Fatalf("Load: %+v, %v", f, err)
	}
	if err := os.WriteFile(p, []byte("waivers: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.HasPrefix(err.Error(), FileName+":") {
		t.Errorf("bad file: %v", err)
	}
}

func finding(check, device, iface string) checks.Finding {
	return checks.Finding{Check: check, Severity: judge.Error, Device: device, Interface: iface, Message: "m"}
}

func TestMatches(t *testing.T) {
	for _, tc := range []struct {
		name string
		w    Waiver
		f    checks.Finding
		want bool
	}{
		{"exact device", Waiver{Check: "mtu", Device: "leaf03"}, finding("mtu", "leaf03", "swp5"), true},
		{"other check", Waiver{Check: "mtu", Device: "leaf03"}, finding("switch-trust", "leaf03", "swp5"), false},
		{"device glob", Waiver{Check: "host-tos", Device: "gpu0*"}, finding("host-tos", "gpu04", "ens1f0np0"), true},
		{"device glob misses", Waiver{Check: "host-tos", Device: "gpu0*"}, finding("host-tos", "gpu10", "ens1f0np0"), false},
		{"device class", Waiver{Check: "host-tos", Device: "gpu0[1-3]"}, finding("host-tos", "gpu04", ""), false},
		{"globs are case-sensitive", Waiver{Check: "mtu", Device: "Leaf03"}, finding("mtu", "leaf03", ""), false},
		{"no interface matches any", Waiver{Check: "mtu", Device: "leaf03"}, finding("mtu", "leaf03", "swp1-4,swp6"), true},
		{"no interface matches none", Waiver{Check: "switch-roce-mode", Device: "spine02"}, finding("switch-roce-mode", "spine02", ""), true},
		{"interface set needs one", Waiver{Check: "switch-roce-mode", Device: "spine02", Interface: "*"}, finding("switch-roce-mode", "spine02", ""), false},
		{"interface exact", Waiver{Check: "host-trust", Device: "gpu01", Interface: "ens1f1np1"}, finding("host-trust", "gpu01", "ens1f1np1"), true},
		{"interface other", Waiver{Check: "host-trust", Device: "gpu01", Interface: "ens1f1np1"}, finding("host-trust", "gpu01", "ens1f0np0"), false},
		{"interface glob", Waiver{Check: "host-trust", Device: "gpu01", Interface: "ens1f?np?"}, finding("host-trust", "gpu01", "ens1f0np0"), true},
		// A per-host finding of two NICs: waiving one must not hide the other.
		{"one of a list", Waiver{Check: "host-tos", Device: "gpu03", Interface: "ens1f1np1"}, finding("host-tos", "gpu03", "ens1f0np0,ens1f1np1"), false},
		{"all of a list", Waiver{Check: "host-tos", Device: "gpu03", Interface: "ens1f*"}, finding("host-tos", "gpu03", "ens1f0np0,ens1f1np1"), true},
		{"range as written", Waiver{Check: "switch-trust", Device: "leaf03", Interface: "swp1-16"}, finding("switch-trust", "leaf03", "swp1-16"), true},
		{"range, every port", Waiver{Check: "switch-trust", Device: "leaf03", Interface: "swp*"}, finding("switch-trust", "leaf03", "swp1-16,swp33"), true},
		{"range, not every port", Waiver{Check: "switch-trust", Device: "leaf03", Interface: "swp1?"}, finding("switch-trust", "leaf03", "swp10-16"), true},
		{"range, one port outside", Waiver{Check: "switch-trust", Device: "leaf03", Interface: "swp1?"}, finding("switch-trust", "leaf03", "swp9-16"), false},
		{"subrange is not a glob", Waiver{Check: "switch-trust", Device: "leaf03", Interface: "swp1-8"}, finding("switch-trust", "leaf03", "swp1-16"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.w.Matches(tc.f); got != tc.want {
				t.Errorf("Matches = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestExpired(t *testing.T) {
	w := Waiver{Expires: day("2027-03-31")}
	cet := time.FixedZone("CET", 3600)
	for _, tc := range []struct {
		today time.Time
		want  bool
	}{
		{time.Date(2027, 3, 30, 12, 0, 0, 0, time.UTC), false},
		{time.Date(2027, 3, 31, 23, 59, 0, 0, time.UTC), false}, // valid through its day
		{time.Date(2027, 4, 1, 0, 0, 0, 0, time.UTC), true},
		// The calendar date where the run happens decides: 00:30 on
		// April 1st in CET is March 31st in UTC, but expired here.
		{time.Date(2027, 4, 1, 0, 30, 0, 0, cet), true},
		{time.Date(2027, 3, 31, 23, 30, 0, 0, cet), false},
	} {
		if got := w.Expired(tc.today); got != tc.want {
			t.Errorf("Expired(%v) = %v, want %v", tc.today, got, tc.want)
		}
	}
	if (Waiver{}).Expired(time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Error("a waiver without expiry expired")
	}
}

func TestApply(t *testing.T) {
	f := mustParse(t, `waivers:
  - check: host-tos
    device: "gpu0*"
    reason: "ticket 1234: NCCL_IB_TC is set by the job scheduler"
  - check: host-tos
    device: gpu04
    reason: "a second, later reason"
  - check: mtu
    device: leaf03
    interface: swp5
    reason: management uplink
    expires: 2026-06-30
  - check: host-trust
    device: gpu01
    reason: fixed long ago
  - check: switch-pfc
    device: leaf9*
    reason: expired and matching nothing
    expires: 2020-01-01
`)
	in := []checks.Finding{
		finding("host-tos", "gpu03", "ens1f0np0,ens1f1np1"),
		finding("host-tos", "gpu04", "ens1f0np0,ens1f1np1"),
		finding("host-tos", "gpu11", "ens1f0np0"),
		finding("mtu", "leaf03", "swp5"),
		finding("mtu", "gpu04", "ens1f1np1"),
	}
	for _, tc := range []struct {
		today      string
		waived     []bool
		reasons    map[int]string
		problemsAt []int    // waiver lines
		problemMsg []string // substrings, in order
	}{
		{"2026-06-30", []bool{true, true, false, true, false},
			map[int]string{0: "ticket 1234: NCCL_IB_TC is set by the job scheduler", 1: "ticket 1234: NCCL_IB_TC is set by the job scheduler", 3: "management uplink"},
			[]int{13, 16}, []string{"waiver host-trust on gpu01 matches no finding", "waiver switch-pfc on leaf9* expired on 2020-01-01"}},
		{"2026-07-01", []bool{true, true, false, false, false},
			map[int]string{0: "ticket 1234: NCCL_IB_TC is set by the job scheduler", 1: "ticket 1234: NCCL_IB_TC is set by the job scheduler"},
			[]int{8, 13, 16}, []string{"waiver mtu on leaf03 swp5 expired on 2026-06-30: what it covered counts again", "matches no finding", "expired on 2020-01-01"}},
	} {
		t.Run(tc.today, func(t *testing.T) {
			out, problems := f.Apply(in, day(tc.today))
			if len(out) != len(in) {
				t.Fatalf("%d findings out of %d", len(out), len(in))
			}
			for i, fd := range out {
				if fd.Waived != tc.waived[i] || fd.WaiverReason != tc.reasons[i] {
					t.Errorf("finding %d (%s %s): waived %v %q, want %v %q", i, fd.Check, fd.Device, fd.Waived, fd.WaiverReason, tc.waived[i], tc.reasons[i])
				}
			}
			if len(problems) != len(tc.problemsAt) {
				t.Fatalf("problems: %+v", problems)
			}
			for i, p := range problems {
				if p.Check != "waiver" || p.Severity != judge.Warning || p.Device != Device || p.Waived ||
					p.Source != (source.Pos{File: FileName, Line: tc.problemsAt[i]}) || !strings.Contains(p.Message, tc.problemMsg[i]) {
					t.Errorf("problem %d = %+v, want line %d and %q", i, p, tc.problemsAt[i], tc.problemMsg[i])
				}
			}
		})
	}
	for i := range in {
		if in[i].Waived {
			t.Fatalf("Apply modified its input: %+v", in[i])
		}
	}
	// No file, no change.
	var none *File
	out, problems := none.Apply(in, day("2026-01-01"))
	if len(out) != len(in) || problems != nil || out[0].Waived {
		t.Errorf("nil File: %v %v", out, problems)
	}
}
