package render_test

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/checks/waivers"
	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/render"
)

// The JUnit layout as a consumer reads it, written independently of the
// formatter's own types.
type xSuites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Skipped  int      `xml:"skipped,attr"`
	Suites   []xSuite `xml:"testsuite"`
}

type xSuite struct {
	Name     string  `xml:"name,attr"`
	Tests    int     `xml:"tests,attr"`
	Failures int     `xml:"failures,attr"`
	Errors   int     `xml:"errors,attr"`
	Skipped  int     `xml:"skipped,attr"`
	Cases    []xCase `xml:"testcase"`
}

type xCase struct {
	Classname string     `xml:"classname,attr"`
	Name      string     `xml:"name,attr"`
	Failures  []xOutcome `xml:"failure"`
	Errors    []xOutcome `xml:"error"`
	Skipped   []xOutcome `xml:"skipped"`
	SystemOut string     `xml:"system-out"`
}

type xOutcome struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

func parseJUnit(t *testing.T, r *render.Report) xSuites {
	t.Helper()
	var b bytes.Buffer
	if err := render.JUnit(&b, r); err != nil {
		t.Fatal(err)
	}
	var out xSuites
	if err := xml.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatalf("the JUnit XML does not parse: %v\n%s", err, b.String())
	}
	return out
}

func TestJUnitParsesAndCountsAddUp(t *testing.T) {
	for _, hr := range handReports {
		t.Run(hr.name, func(t *testing.T) {
			r := hr.report()
			got := parseJUnit(t, r)

			var tests, failures, errors, skipped int
			names := map[string]bool{}
			cases := map[string]xCase{} // by device/check
			for _, s := range got.Suites {
				var f, e, sk int
				for _, c := range s.Cases {
					if n := len(c.Failures) + len(c.Errors) + len(c.Skipped); n > 1 {
						t.Errorf("%s %s: %d outcomes; JUnit allows one of failure, error, skipped", c.Classname, c.Name, n)
					}
					f += min(len(c.Failures), 1)
					e += min(len(c.Errors), 1)
					sk += min(len(c.Skipped), 1)
					if c.Classname != "qoslint."+s.Name {
						t.Errorf("classname %q in suite %q", c.Classname, s.Name)
					}
					if key := c.Classname + "\x00" + c.Name; names[key] {
						t.Errorf("testcase %s %s is not unique", c.Classname, c.Name)
					} else {
						names[key] = true
					}
					cases[s.Name+"/"+c.Name] = c
				}
				if s.Tests != len(s.Cases) || s.Failures != f || s.Errors != e || s.Skipped != sk {
					t.Errorf("suite %s says tests=%d failures=%d errors=%d skipped=%d, has %d/%d/%d/%d",
						s.Name, s.Tests, s.Failures, s.Errors, s.Skipped, len(s.Cases), f, e, sk)
				}
				tests, failures, errors, skipped = tests+s.Tests, failures+s.Failures, errors+s.Errors, skipped+s.Skipped
			}
			if got.Tests != tests || got.Failures != failures || got.Errors != errors || got.Skipped != skipped {
				t.Errorf("testsuites says %d/%d/%d/%d, suites add up to %d/%d/%d/%d",
					got.Tests, got.Failures, got.Errors, got.Skipped, tests, failures, errors, skipped)
			}

			// Every device has the stable set of tests of its kind, and
			// none of the other kind: a host never passes switch-pfc.
			for _, d := range r.Devices {
				for _, c := range checks.All() {
					_, ok := cases[d.Name+"/"+c.ID]
					applies := c.Devices.Has(d.Kind)
					if ok != applies {
						t.Errorf("testcase %s/%s present %v, but the check applies to %q devices and this is a %s", d.Name, c.ID, ok, c.Devices, d.Kind)
					}
				}
				if _, ok := cases[d.Name+"/input"]; !ok {
					t.Errorf("no testcase %s/input", d.Name)
				}
			}

			// Nothing is lost: each finding is in its testcase, those at
			// or above --fail-on as a failure of their severity's type,
			// the others in system-out, waived ones too, skipping their
			// test when they alone would have failed it.
			failing := map[string]bool{}
			fails := func(sev judge.Severity) bool { return !r.ReportOnly && sev >= r.FailOn }
			for _, f := range r.Findings {
				c := cases[f.Device+"/"+f.Check]
				if f.Waived {
					if !strings.Contains(c.SystemOut, f.Message) || !strings.Contains(c.SystemOut, "waived:   "+f.WaiverReason) {
						t.Errorf("%s/%s: waived finding %q not in system-out", f.Device, f.Check, f.Message)
					}
					if fails(f.Severity) && len(c.Failures) == 0 && (len(c.Skipped) != 1 || !strings.Contains(c.Skipped[0].Message, "waived: "+f.WaiverReason)) {
						t.Errorf("%s/%s: waived, but not skipped with its reason: %+v", f.Device, f.Check, c.Skipped)
					}
					continue
				}
				if fails(f.Severity) {
					failing[f.Device+"/"+f.Check] = true
					if len(c.Failures) != 1 || !strings.Contains(c.Failures[0].Body, f.Message) {
						t.Errorf("%s/%s: finding %q not in the failure %+v", f.Device, f.Check, f.Message, c.Failures)
						continue
					}
					if typ := c.Failures[0].Type; typ != "error" && typ != "warning" {
						t.Errorf("failure type %q", typ)
					}
				} else if !strings.Contains(c.SystemOut, f.Message) {
					t.Errorf("%s/%s: info finding %q not in system-out", f.Device, f.Check, f.Message)
				}
			}
			if failures != len(failing) {
				t.Errorf("%d failing testcases, want one per device × check with findings: %d", failures, len(failing))
			}
			broken := map[string]bool{}
			for _, e := range r.Errors {
				// An error of no device belongs to the fabric's suite.
				suite := cmp.Or(e.Device, waivers.Device)
				broken[suite] = true
				c := cases[suite+"/input"]
				if len(c.Errors) != 1 || !strings.Contains(c.Errors[0].Body, e.Msg) {
					t.Errorf("input error %v not in %s/input", e, suite)
				}
			}
			if errors != len(broken) {
				t.Errorf("%d erroring testcases, want one per device with input errors: %d", errors, len(broken))
			}
		})
	}
}

// Device files are not trusted: control characters, "]]>" and bad UTF-8
// in a finding must still give XML that parses and says the rest.
func TestJUnitHostileText(t *testing.T) {
	msg := "bad \x00\x1b\xff value ]]> <&> end"
	r := &render.Report{
		Fabric:  "pod\x01",
		Devices: []render.Device{{Name: "leaf01", Kind: "switch"}},
		Findings: []checks.Finding{{
			Check: "switch-trust", Severity: judge.Error, Device: "leaf01", Interface: "swp1",
			Message: msg, Expected: "l3", Actual: "l2]]>",
			Changes: []checks.Change{{Kind: checks.NVUE, Path: []string{"qos", "mapping", "x]]>y", "trust"}, Value: "both", Old: "l2", HasOld: true}},
		}},
		Errors: []*source.Error{{Pos: source.Pos{File: "devices/leaf01/nv-config.yaml", Line: 3}, Device: "leaf01", Msg: "tab\there \x07"}},
	}
	got := parseJUnit(t, r)
	c := got.Suites[0].Cases[1] // switch-trust
	if c.Name != "switch-trust" || len(c.Failures) != 1 {
		t.Fatalf("case %+v", c)
	}
	for _, want := range []string{"value ]]> <&> end", "actual:   l2]]>", "'x]]>y'"} {
		if !strings.Contains(c.Failures[0].Body, want) {
			t.Errorf("failure body lost %q:\n%s", want, c.Failures[0].Body)
		}
	}
	if !strings.Contains(c.Failures[0].Message, "bad \uFFFD\uFFFD\uFFFD value") {
		t.Errorf("message = %q, want the bad characters replaced", c.Failures[0].Message)
	}
}

// Findings without a suite of their own (an input error of a folder the
// inventory does not name, or of no device) still show.
func TestJUnitErrorsOfUnknownDevices(t *testing.T) {
	r := &render.Report{
		Fabric: "pod",
		Errors: []*source.Error{
			{Msg: "fabric-wide problem"},
			{Device: "gpu99", Pos: source.Pos{File: "devices/gpu99"}, Msg: "device folder is not in the inventory"},
		},
	}
	got := parseJUnit(t, r)
	if len(got.Suites) != 2 || got.Errors != 2 || got.Tests != 2 {
		t.Fatalf("suites %+v", got)
	}
	if s := got.Suites[0]; s.Name != "(fabric)" || s.Cases[0].Name != "input" || s.Cases[0].Errors[0].Message != "fabric-wide problem" {
		t.Errorf("fabric suite %+v", s)
	}
	if s := got.Suites[1]; s.Name != "gpu99" || !strings.Contains(s.Cases[0].Errors[0].Message, "devices/gpu99") {
		t.Errorf("gpu99 suite %+v", s)
	}
}

// A check that did not run is skipped with its reason, never passed: on
// the clean Ethernet pod without counters, Kubernetes manifests or a
// trimming switch, ib-*, k8s-*, evidence-* and packet-trim-* are skipped,
// and a disabled check says it was disabled. Every case that passes is a
// check that ran.
func TestJUnitSkipsWhatDidNotRun(t *testing.T) {
	r, err := app.BuildReportWith("../examples/clean-pod", judge.Error, app.CheckFlags{Disable: []string{"host-acs"}})
	if err != nil {
		t.Fatal(err)
	}
	got := parseJUnit(t, r)
	cases := map[string]xCase{}
	skipped := 0
	for _, s := range got.Suites {
		for _, c := range s.Cases {
			cases[s.Name+"/"+c.Name] = c
			skipped += len(c.Skipped)
		}
	}
	if got.Skipped != skipped || skipped == 0 {
		t.Errorf("testsuites skipped=%d, %d skipped cases", got.Skipped, skipped)
	}
	for key, want := range map[string]string{
		"gpu01/ib-sl2vl":                "not applicable: the fabric is Ethernet",
		"gpu01/k8s-nic-template":        "not collected: no Kubernetes manifests",
		"gpu01/evidence-pause-priority": "not collected: ethtool-S-<netdev>.txt (ethtool -S) of no NIC collected",
		"leaf01/evidence-ecn-queue":     "not collected: gnmi-counters.json not collected",
		"leaf01/packet-trim-remark":     "not applicable: the switch's configuration does not trim packets",
		"gpu03/wire-dscp":               "not collected: no packet capture holds this device's traffic",
		"gpu01/host-acs":                "disabled: ",
		"gpu01/host-trust":              "",
		"gpu01/wire-dscp":               "",
		"leaf01/switch-pfc":             "",
	} {
		c, ok := cases[key]
		switch {
		case !ok:
			t.Errorf("no testcase %s", key)
		case want == "" && len(c.Skipped) > 0:
			t.Errorf("%s ran, but is skipped: %q", key, c.Skipped[0].Message)
		case want != "" && (len(c.Skipped) != 1 || !strings.HasPrefix(c.Skipped[0].Message, want)):
			t.Errorf("%s: skipped %+v, want one with message %q…", key, c.Skipped, want)
		}
	}
	// A pass is a check that ran: each passing case's status says so.
	ran := map[string]bool{}
	for _, s := range r.Statuses {
		ran[s.Device+"/"+s.Check()] = s.Ran()
	}
	for key, c := range cases {
		if len(c.Failures)+len(c.Errors)+len(c.Skipped) == 0 && !strings.HasSuffix(key, "/input") && !ran[key] {
			t.Errorf("%s passes but did not run", key)
		}
	}
}
