package model

import (
	"strings"
	"testing"
)

// find is the table's entry for path.
func find(t *testing.T, path string) NVUECommand {
	t.Helper()
	for _, c := range nvueCommands {
		if c.Path == path {
			return c
		}
	}
	t.Fatalf("no table entry %q", path)
	return NVUECommand{}
}

// TestNVUECommandSources holds a sample of the table's dates to the
// sentences of the public pages they come from.
func TestNVUECommandSources(t *testing.T) {
	for _, tc := range []struct {
		path, word   string
		span         Span
		source, want string
	}{
		// The example: the watchdog is "Introduced in Cumulus Linux 5.6.0".
		{path: "interface <if> qos pfc-watchdog state", span: since(6), source: refQoS,
			want: "## nv set interface <interface-id> qos pfc-watchdog state ... Version History: Introduced in Cumulus Linux 5.6.0"},
		{path: "qos mapping <profile> dscp <dscp> switch-priority", span: since(3), source: refQoS,
			want: "Version History: Introduced in Cumulus Linux 5.3.0"},
		{path: "qos roce enable", span: between(0, 14), source: refQoS,
			want: "In Cumulus Linux 5.14 and earlier, you specify `enable on` or `enable off` instead of `state enabled` or `state disabled`."},
		{path: "qos roce state", span: since(15), source: changed515,
			want: "| `nv set qos roce enable on\\|off` | `nv set qos roce state enabled\\|disabled` |"},
		{path: "qos roce mode", word: "lossless-single-ipool", span: since(12), source: refQoS,
			want: "Cumulus Linux 5.11 and earlier does not provide `lossless-single-ipool` mode. Cumulus Linux 5.12.0 introduces  `lossless-single-ipool` mode."},
		{path: "qos roce mode", word: "lossy-multi-tc", span: since(14), source: new514, want: "RoCE lossy multi TC profile"},
		{path: "qos roce mode", word: "dci-1", span: since(18), source: new518, want: "Data Center Interconnect (DCI-1) QoS profile (Beta)"},
		{path: "router adaptive-routing enable", span: between(1, 14), source: refAR, want: "Introduced in Cumulus Linux 5.1.0"},
		{path: "system forwarding ecmp-hash source-port", span: since(2), source: refFwd, want: "Introduced in Cumulus Linux 5.2.0"},
		{path: "system forwarding resilient-hash state", span: since(19), source: new519, want: "nv set system forwarding resilient-hash state"},
		{path: "qos congestion-control <profile> traffic-class <tc> mode", span: since(17), source: new517,
			want: "nv set qos congestion-control default-global traffic-class <traffic-class-id> mode"},
		{path: "qos advance-buffer-config <profile> ingress-pool <pool>", span: between(4, 10), source: refQoS,
			want: "In Cumulus Linux 5.10 and earlier, `ingress-service-pool` is `ingress-pool`."},
		{path: "interface <if> packet-trim egress-eligibility traffic-class <tc>", span: since(14), source: refTrim, want: "Introduced in Cumulus Linux 5.14.0"},
		{path: "interface <if> link mtu", span: since(0), source: refIface, want: "Introduced in Cumulus Linux 5.0.0"},
	} {
		c := find(t, tc.path)
		span, source, quote := c.Span, c.Source, c.Quote
		if tc.word != "" {
			w, ok := c.Word(tc.word)
			if !ok {
				t.Errorf("%s: no word %s", tc.path, tc.word)
				continue
			}
			span, source, quote = w.Span, w.Source, w.Quote
		}
		if span != tc.span || source != tc.source || !strings.Contains(quote, tc.want) {
			t.Errorf("%s %s: %v from %s, %q; want %v from %s, quoting %q", tc.path, tc.word, span, source, quote, tc.span, tc.source, tc.want)
		}
	}
}

// TestNVUETableIsWellFormed: every entry and value is dated within the
// releases the table covers and quotes its source; no path is listed twice.
func TestNVUETableIsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	dated := func(what string, s Span) {
		if s.Since.Before(OldestCLRelease) || NewestCLRelease.Before(s.Since) || !s.Until.IsZero() && s.Until.Before(s.Since) {
			t.Errorf("%s: span %v outside %s to %s", what, s, OldestCLRelease, NewestCLRelease)
		}
	}
	for _, c := range NVUECommands() {
		if seen[c.Path] {
			t.Errorf("%s listed twice", c.Path)
		}
		seen[c.Path] = true
		dated(c.Path, c.Span)
		if c.Source == "" || c.Quote == "" {
			t.Errorf("%s: no source or quote", c.Path)
		}
		if c.Words != nil && !c.Leaf {
			t.Errorf("%s: an object with values", c.Path)
		}
		if (c.Renamed != "") != !c.Until.IsZero() {
			t.Errorf("%s: a command that ends must name what replaces it, and only it", c.Path)
		}
		for _, w := range c.Words {
			dated(c.Path+" "+w.Word, w.Span)
			if w.Word == "" || w.Source == "" || w.Quote == "" {
				t.Errorf("%s: value %q without source or quote", c.Path, w.Word)
			}
		}
	}
}

// TestECNSpellingSources settles `ecn enable` against `ecn enabled`: the
// command reference's current example writes `enabled`, the user guides
// of 5.14, 5.18 and 5.19 write enable/disable (commands and `nv show`
// columns) and 5.15's table of syntax changes has no row for it. qoslint
// prints the user guides' word in every release, for ecn and pfc tx/rx
// alike (see onOff in nvue_commands.go).
func TestECNSpellingSources(t *testing.T) {
	const (
		reference = "cumulus@switch:~$ nv set qos congestion-control default-global traffic-class 4,5,7 ecn enabled" // refQoS, current
		guides    = "cumulus@switch:~$ nv set qos congestion-control default-global traffic-class 0 ecn disable"     // guide514, guide518, guide519
		pfcGuide  = "cumulus@switch:~$ nv set qos pfc default-global tx enable"                                      // guide518 and refQoS
		changeRow = "| `nv set qos roce enable on\\|off` | `nv set qos roce state enabled\\|disabled` |"             // changed515: its only QoS row
		ecnPath   = "qos congestion-control <profile> traffic-class <tc> ecn"
		ecnSource = "CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/_index.md"
	)
	ecn := find(t, ecnPath)
	if w, ok := ecn.Word("disable"); !ok || w.Source != ecnSource || w.Quote != guides {
		t.Errorf("ecn disable: %+v, want the 5.18 guide's %q", w, guides)
	}
	if _, ok := ecn.Word("enabled"); ok {
		t.Errorf("ecn takes `enabled` (%q): the user guides say enable", reference)
	}
	if w, _ := find(t, "qos pfc <profile> tx").Word("enable"); w.Quote != pfcGuide {
		t.Errorf("pfc tx enable quotes %q, want %q", w.Quote, pfcGuide)
	}
	if q := find(t, "qos roce state").Quote; q != changeRow {
		t.Errorf("qos roce state quotes %q", q)
	}
	for _, r := range CLReleases() {
		if r.Before(rel(3)) {
			continue
		}
		for _, path := range [][]string{
			{"qos", "congestion-control", "default-global", "traffic-class", "3", "ecn"},
			{"qos", "pfc", "default-global", "tx"}, {"qos", "pfc", "default-global", "rx"},
		} {
			if on, off := NVUEBool(r, true, path...), NVUEBool(r, false, path...); on != "enable" || off != "disable" || on != EnableDisable(true) || off != EnableDisable(false) {
				t.Errorf("%s %v: %s/%s, want enable/disable", r, path, on, off)
			}
		}
	}
}

// TestNVUEBoolFollowsTheRelease: the words that changed in 5.15, and the
// watchdog's `state disable` (5.14) against `state disabled` (5.18).
func TestNVUEBoolFollowsTheRelease(t *testing.T) {
	for _, tc := range []struct {
		r    CLRelease
		b    bool
		path []string
		want string
	}{
		{rel(14), true, []string{"qos", "roce", "enable"}, "on"},
		{rel(15), true, []string{"qos", "roce", "state"}, "enabled"},
		{rel(15), true, []string{"qos", "roce", "enable"}, "on"}, // no such command in 5.15: the gate says so
		{rel(2), false, []string{"system", "forwarding", "ecmp-hash", "source-port"}, "off"},
		{rel(19), true, []string{"system", "forwarding", "ecmp-hash", "gtp-teid"}, "enabled"},
		{rel(14), false, []string{"interface", "swp1", "qos", "pfc-watchdog", "state"}, "disable"},
		{rel(18), false, []string{"interface", "swp1", "qos", "pfc-watchdog", "state"}, "disabled"},
		{rel(14), true, []string{"system", "forwarding", "packet-trim", "state"}, "enabled"},
		{rel(19), true, []string{"qos", "roce", "mode"}, ""},
		{rel(19), true, []string{"no", "such", "leaf"}, ""},
	} {
		if got := NVUEBool(tc.r, tc.b, tc.path...); got != tc.want {
			t.Errorf("NVUEBool(%s, %t, %v) = %q, want %q", tc.r, tc.b, tc.path, got, tc.want)
		}
	}
}

func TestLookupNVUE(t *testing.T) {
	for _, tc := range []struct {
		unset      bool
		line, path string
		value      string
	}{
		{false, "qos pfc default-global switch-priority 3", "qos pfc <profile> switch-priority <sp>", ""},
		{true, "qos pfc default-global switch-priority 4", "qos pfc <profile> switch-priority <sp>", ""},
		{false, "qos pfc storage-pfc tx enable", "qos pfc <profile> tx", "enable"},
		{true, "system forwarding hash-seed", "system forwarding hash-seed", ""},
		{false, "interface swp1-32 qos pfc-watchdog", "interface <if> qos pfc-watchdog", ""},
		{false, "interface swp3 qos pfc-watchdog state enabled", "interface <if> qos pfc-watchdog state", "enabled"},
		{false, "qos traffic-pool roce-lossless switch-priority 3", "qos traffic-pool <pool> switch-priority <sp>", ""},
		{false, "qos roce mode", "", ""},                          // a leaf set needs its value
		{false, "qos pfc default-global tx enable extra", "", ""}, // one word too many
		{false, "system forwarding ecmp-hash no-such-field on", "", ""},
	} {
		c, v, ok := LookupNVUE(tc.unset, strings.Fields(tc.line))
		if ok != (tc.path != "") || c.Path != tc.path || v != tc.value {
			t.Errorf("LookupNVUE(%t, %q) = %q, %q, %t; want %q, %q", tc.unset, tc.line, c.Path, v, ok, tc.path, tc.value)
		}
	}
}

func TestCLRelease(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want CLRelease
		ok   bool
	}{
		{"5.9", rel(9), true}, {"5.14.2", rel(14), true}, {"Cumulus Linux 5.15.0", rel(15), true}, {"", CLRelease{}, false}, {"5", CLRelease{}, false},
	} {
		if got, ok := ParseCLRelease(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("ParseCLRelease(%q) = %v, %t", tc.in, got, ok)
		}
	}
	rs := CLReleases()
	if len(rs) != 20 || rs[0] != OldestCLRelease || rs[19] != NewestCLRelease || rs[14].Syntax() != Syntax514 || rs[15].Syntax() != Syntax515 {
		t.Errorf("releases %v", rs)
	}
	if !between(3, 5).In(rel(5)) || between(3, 5).In(rel(6)) || since(6).In(rel(5)) || !since(6).In(CLRelease{5, 21}) {
		t.Error("Span.In")
	}
}

// TestCommandRelease: a switch names its release in its configuration's
// header; without one the newest release of the syntax it spells is
// assumed, and said.
func TestCommandRelease(t *testing.T) {
	for _, tc := range []struct {
		sw      *Switch
		want    CLRelease
		assumed string
	}{
		{&Switch{Version: "Cumulus Linux 5.14.2", Syntax: Syntax514}, rel(14), ""},
		{&Switch{Syntax: Syntax514}, rel(14), "checked as for 5.14, the newest release of that syntax"},
		{&Switch{Syntax: Syntax515}, NewestCLRelease, "checked as for 5.19, the newest release qoslint knows"},
	} {
		r, assumed := tc.sw.CommandRelease()
		if r != tc.want || !strings.Contains(assumed, tc.assumed) || (tc.assumed == "") != (assumed == "") {
			t.Errorf("%s %s: %v, %q", tc.sw.Version, tc.sw.Syntax, r, assumed)
		}
	}
}
