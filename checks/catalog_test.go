package checks

import (
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

// TestCatalog holds every check to its declaration, so that the catalog
// can grow without a list of IDs to keep in step anywhere.
func TestCatalog(t *testing.T) {
	cat := append(All(), NotCollected)
	seen := map[string]bool{}
	for _, c := range cat {
		if c.ID == "" || seen[c.ID] {
			t.Errorf("check ID %q is empty or not unique", c.ID)
		}
		seen[c.ID] = true
		if Lookup(c.ID) != c {
			t.Errorf("Lookup(%q) does not find it", c.ID)
		}
		if strings.TrimSpace(c.Title) == "" || strings.TrimSpace(c.Doc) == "" {
			t.Errorf("%s: Title and Doc are required", c.ID)
		}
		if !c.Severity.Valid() {
			t.Errorf("%s: severity %d is none of info, warning, error", c.ID, c.Severity)
		}
		if !slices.Contains(Kinds, c.Kind) {
			t.Errorf("%s: kind %q is none of %v", c.ID, c.Kind, Kinds)
		}
		if c.Devices == 0 || c.Devices&^AllDevices != 0 {
			t.Errorf("%s: devices %08b is not a non-empty set of switch, host", c.ID, c.Devices)
		}
		for _, in := range c.Inputs {
			if !inputKnown(in) {
				t.Errorf("%s: unknown input %q", c.ID, in)
			}
		}
		if c != NotCollected && c.Run == nil {
			t.Errorf("%s: no Run", c.ID)
		}
		if len(c.Requires) > 0 && c.runIn == nil {
			t.Errorf("%s: requires checks but cannot read them (declare it with inRun)", c.ID)
		}
		pass, fail := 0, 0
		for _, table := range caseTables[c.ID] {
			for _, tc := range table(t) {
				if len(tc.want) == 0 {
					pass++
				} else {
					fail++
				}
			}
		}
		if pass == 0 || fail == 0 {
			t.Errorf("%s: %d passing and %d failing table cases; register at least one of each", c.ID, pass, fail)
		}
	}
	for id := range caseTables {
		if !seen[id] {
			t.Errorf("table cases registered for %q, which is no check of the catalog", id)
		}
	}
	if err := validateRequires(cat); err != nil {
		t.Error(err)
	}
	// Every check can say why it did not run (status.go): where nothing
	// was collected, each is skipped with a reason on every device.
	_, sts := RunStatus(emptyFabric(t), nil)
	for _, s := range sts {
		if s.Ran() || s.Reason == "" {
			t.Errorf("%s on %s of a fabric with no device file: %q %q; declare Applies or Inputs that say why it did not run", s.Check, s.Device, s.Skip, s.Reason)
		}
	}
}

// A cycle or a check outside the catalog in Requires is caught. Package
// variables cannot form a cycle (Go refuses the initialization cycle), so
// the checks here are built in the test.
func TestValidateRequires(t *testing.T) {
	a, b, c := &Check{ID: "a"}, &Check{ID: "b"}, &Check{ID: "c"}
	a.Requires, b.Requires = []*Check{b}, []*Check{c}
	if err := validateRequires([]*Check{a, b, c}); err != nil {
		t.Errorf("a chain is no cycle: %v", err)
	}
	c.Requires = []*Check{a}
	if err := validateRequires([]*Check{a, b, c}); err == nil || !strings.Contains(err.Error(), "a → b → c → a") {
		t.Errorf("cycle: %v", err)
	}
	c.Requires = []*Check{{ID: "stray"}}
	if err := validateRequires([]*Check{a, b, c}); err == nil || !strings.Contains(err.Error(), `"stray", which is not in the catalog`) {
		t.Errorf("stray: %v", err)
	}
}

// A check that reads the findings of a check it does not require is a bug
// the first run of it shows.
func TestUndeclaredRequirePanics(t *testing.T) {
	rogue := inRun(&Check{ID: "rogue"}, func(r *run) []Finding { return r.findings(hostPFC) })
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "check rogue reads the findings of host-pfc, which its Requires does not list") {
			t.Errorf("recovered %v", r)
		}
	}()
	rogue.Run(fabric(t))
}

// A required check runs before the check that reads it, once, even when
// it is not selected: the run reports only what is.
func TestRequiredRunsUnselected(t *testing.T) {
	f := fabric(t, appendTo(spine02C, "nv set qos pfc default-global switch-priority 4\n"),
		write(spine01Counters, gnmiFile(gnmiQueue("swp1", 3, 4792, 17))))
	set, err := Select([]Selector{{Name: "evidence-lossless-drops", Where: "--enable"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fs := RunSet(f, set)
	if len(fs) != 1 || fs[0].Check != "evidence-lossless-drops" || !strings.Contains(fs[0].Message, "no configuration finding") {
		t.Errorf("%+v", fs)
	}
	// spine02's switch-pfc finding was computed (it is not on spine01, so
	// nothing corroborates); with switch-pfc enabled it is reported too.
	set, _ = Select([]Selector{{Name: "evidence-lossless-drops"}, {Name: "switch-pfc"}}, nil)
	if fs := RunSet(f, set); len(fs) != 2 {
		t.Errorf("%+v", fs)
	}
}

func TestSeverityZeroIsInvalid(t *testing.T) {
	var s Severity
	if s.Valid() || s.String() == "info" {
		t.Errorf("the zero severity is %q", s)
	}
	if _, err := s.MarshalText(); err == nil {
		t.Error("the zero severity marshals")
	}
	for _, v := range []Severity{Info, Warning, Error} {
		got, err := ParseSeverity(v.String())
		if err != nil || got != v {
			t.Errorf("%s parses as %s, %v", v, got, err)
		}
	}
}

func TestSelect(t *testing.T) {
	sel := func(names ...string) []Selector {
		var out []Selector
		for _, n := range names {
			out = append(out, Selector{Name: n, Where: "--x"})
		}
		return out
	}
	ids := func(s *Set) string { return strings.Join(s.IDs(), " ") }
	all := append(All(), NotCollected)
	for _, tc := range []struct {
		name            string
		enable, disable []string
		want            func(c *Check) bool
	}{
		{"nothing named: every check", nil, nil, func(*Check) bool { return true }},
		{"a kind", []string{"evidence"}, nil, func(c *Check) bool { return c.Kind == KindEvidence }},
		{"an ID and a kind", []string{"mtu", "evidence"}, nil, func(c *Check) bool { return c.Kind == KindEvidence || c.ID == "mtu" }},
		{"disable a kind", nil, []string{"evidence"}, func(c *Check) bool { return c.Kind != KindEvidence }},
		{"disable wins over enable, even a kind over an ID", []string{"evidence-dcqcn", "mtu"}, []string{"evidence"}, func(c *Check) bool { return c.ID == "mtu" }},
		{"not-collected is a check of kind input", nil, []string{"input"}, func(c *Check) bool { return c != NotCollected }},
	} {
		s, err := Select(sel(tc.enable...), sel(tc.disable...))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var want []string
		for _, c := range all {
			if tc.want(c) {
				want = append(want, c.ID)
			}
		}
		if ids(s) != strings.Join(want, " ") {
			t.Errorf("%s: %s, want %s", tc.name, ids(s), strings.Join(want, " "))
		}
	}
	_, err := Select(sel("mtu", "nope"), []Selector{{Name: "evidnce", Where: "checks.disable", Pos: source.Pos{File: "inventory.yaml", Line: 7}}})
	if err == nil || !strings.Contains(err.Error(), `--x: unknown check or kind "nope"`) ||
		!strings.Contains(err.Error(), `inventory.yaml:7: checks.disable: unknown check or kind "evidnce"`) {
		t.Errorf("unknown names: %v", err)
	}
	if _, err := Select(nil, sel("config", "evidence", "topology", "input")); err == nil || !strings.Contains(err.Error(), "no check to run") {
		t.Errorf("nothing left: %v", err)
	}
	if s, err := Select(sel("topology", "mtu"), nil); err != nil || ids(s) != "mtu link-mtu link-qos link-pfc cabling rail-alignment" {
		t.Errorf("a kind and a check: %v %v", ids(s), err)
	}
}
