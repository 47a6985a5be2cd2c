package render_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/cmd/qoslint/app"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/render"
)

// SARIF 2.1.0 as a consumer decodes it: the properties the OASIS schema
// (sarif-schema-2.1.0.json) requires, plus those GitHub code scanning
// requires. Pointers tell a missing property from a zero one; a property of
// the wrong JSON type fails the decode.
type sLog struct {
	Schema  *string `json:"$schema"`
	Version *string `json:"version"` // required
	Runs    []sRun  `json:"runs"`    // required
}

type sRun struct {
	Tool *struct { // required
		Driver *struct { // required
			Name    *string `json:"name"` // required
			Version *string `json:"version"`
			Rules   []sRule `json:"rules"`
		} `json:"driver"`
	} `json:"tool"`
	OriginalURIBaseIDs map[string]json.RawMessage `json:"originalUriBaseIds"`
	Invocations        []struct {
		ExecutionSuccessful        *bool           `json:"executionSuccessful"` // required
		ToolExecutionNotifications []sNotification `json:"toolExecutionNotifications"`
	} `json:"invocations"`
	Results []sResult `json:"results"`
}

type sNotification struct {
	Level          *string     `json:"level"`
	Message        *sMessage   `json:"message"` // required
	Locations      []sLocation `json:"locations"`
	AssociatedRule *struct {
		ID    *string `json:"id"`
		Index *int    `json:"index"`
	} `json:"associatedRule"`
}

type sLocation struct {
	PhysicalLocation *struct {
		ArtifactLocation *struct {
			URI       *string `json:"uri"`
			URIBaseID *string `json:"uriBaseId"`
		} `json:"artifactLocation"`
		Region *struct {
			StartLine   *int `json:"startLine"`
			StartColumn *int `json:"startColumn"`
		} `json:"region"`
	} `json:"physicalLocation"`
}

type sRule struct {
	ID               *string   `json:"id"` // required
	Name             *string   `json:"name"`
	ShortDescription *sMessage `json:"shortDescription"`
	FullDescription  *sMessage `json:"fullDescription"`
	Help             *struct {
		Text     *string `json:"text"`
		Markdown *string `json:"markdown"`
	} `json:"help"`
	DefaultConfiguration *struct {
		Level *string `json:"level"`
	} `json:"defaultConfiguration"`
	HelpURI *string `json:"helpUri"`
}

type sMessage struct {
	Text *string `json:"text"`
}

type sResult struct {
	RuleID              *string           `json:"ruleId"`
	RuleIndex           *int              `json:"ruleIndex"`
	Level               *string           `json:"level"`
	Message             *sMessage         `json:"message"` // required
	Locations           []sLocation       `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	// A fix requires artifactChanges (schema "fix"); qoslint has none.
	Fixes []struct {
		ArtifactChanges []json.RawMessage `json:"artifactChanges"`
	} `json:"fixes"`
	Properties struct {
		Fix []string `json:"fix"`
	} `json:"properties"`
}

// pascal is a PascalCase identifier.
var pascal = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)

func decodeSARIF(t *testing.T, r *render.Report) sLog {
	t.Helper()
	var b bytes.Buffer
	if err := render.SARIF(&b, r); err != nil {
		t.Fatal(err)
	}
	var log sLog
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatalf("SARIF does not decode as SARIF 2.1.0: %v", err)
	}
	return log
}

// sarifReports are the hand-built reports and the report of every example
// fabric (each folder of examples/ with an inventory) and of the render
// tests' fabrics, once with its paths below a repository folder.
func sarifReports(t *testing.T) []struct {
	name   string
	report func() *render.Report
} {
	t.Helper()
	out := append([]struct {
		name   string
		report func() *render.Report
	}(nil), handReports...)
	var dirs []string
	for _, pattern := range []string{"../examples/*/inventory.*", "testdata/*/inventory.*"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			dirs = append(dirs, filepath.Dir(f))
		}
	}
	if len(dirs) < 9 {
		t.Fatalf("found only the fabrics %v", dirs)
	}
	for i, dir := range dirs {
		out = append(out, struct {
			name   string
			report func() *render.Report
		}{dir, func() *render.Report {
			r, err := app.BuildReport(dir, judge.Error)
			if err != nil {
				t.Fatal(err)
			}
			if i%2 == 1 {
				r.PathPrefix = "fabrics/" + filepath.Base(dir)
			}
			return r
		}})
	}
	return out
}

func TestSARIFRequiredProperties(t *testing.T) {
	levels := map[string]bool{"error": true, "warning": true, "note": true, "none": true}
	for _, hr := range sarifReports(t) {
		t.Run(hr.name, func(t *testing.T) {
			r := hr.report()
			log := decodeSARIF(t, r)
			if log.Schema == nil || *log.Schema != "https://json.schemastore.org/sarif-2.1.0.json" {
				t.Errorf("$schema = %v", log.Schema)
			}
			if log.Version == nil || *log.Version != "2.1.0" {
				t.Fatalf("version = %v", log.Version)
			}
			if len(log.Runs) != 1 {
				t.Fatalf("%d runs", len(log.Runs))
			}
			run := log.Runs[0]
			if run.Tool == nil || run.Tool.Driver == nil || run.Tool.Driver.Name == nil || *run.Tool.Driver.Name != "qoslint" {
				t.Fatalf("tool.driver.name missing or wrong: %+v", run.Tool)
			}
			// The build's version (render.BuildInfo, fixed in these tests).
			if v := run.Tool.Driver.Version; v == nil || *v != "v1.2.3" {
				t.Errorf("tool.driver.version = %v, want the build version v1.2.3", v)
			}
			if len(run.Invocations) != 1 || run.Invocations[0].ExecutionSuccessful == nil {
				t.Fatalf("want one invocation with executionSuccessful (SARIF §3.20.14 SHALL): %+v", run.Invocations)
			}
			if ok := *run.Invocations[0].ExecutionSuccessful; ok != (len(r.Errors) == 0) {
				t.Errorf("executionSuccessful %v with %d input errors", ok, len(r.Errors))
			}

			rules := run.Tool.Driver.Rules
			want := len(checks.All()) + 1
			if r.Waivers != "" {
				want++ // the waiver file's own rule
			}
			if slices.ContainsFunc(r.Findings, func(f checks.Finding) bool { return f.Check == checks.NotCollected.ID }) {
				want++ // the merged not-collected rule
			}
			if len(rules) != want {
				t.Errorf("%d rules, want the catalog, input-error and, with a waiver file, waiver, and not-collected when used", len(rules))
			}
			ruleAt := map[string]int{}
			for i, rule := range rules {
				if rule.ID == nil || *rule.ID == "" {
					t.Fatalf("rule %d has no id", i)
				}
				id := *rule.ID
				if _, dup := ruleAt[id]; dup {
					t.Errorf("rule %s twice", id)
				}
				ruleAt[id] = i
				for what, m := range map[string]*sMessage{"shortDescription": rule.ShortDescription, "fullDescription": rule.FullDescription} {
					if m == nil || m.Text == nil || *m.Text == "" {
						t.Errorf("rule %s: no %s.text", id, what)
					} else if len([]rune(*m.Text)) > 1024 {
						t.Errorf("rule %s: %s over GitHub's 1024 characters", id, what)
					}
				}
				if h := rule.Help; h == nil || h.Text == nil || *h.Text == "" || h.Markdown == nil || !strings.HasPrefix(*h.Markdown, "**") {
					t.Errorf("rule %s: help without text, or without markdown that starts with the bold title", id)
				}
				// SARIF §3.49.7: name is "an identifier that is understandable
				// to an end user", id (§3.49.3) the stable one; a name equal to
				// the id says nothing more.
				if rule.Name == nil || !pascal.MatchString(*rule.Name) || *rule.Name == id {
					t.Errorf("rule %s: name %v is not a Pascal identifier other than the id", id, rule.Name)
				}
				if rule.DefaultConfiguration == nil || rule.DefaultConfiguration.Level == nil || !levels[*rule.DefaultConfiguration.Level] {
					t.Errorf("rule %s: bad defaultConfiguration.level", id)
				}
				// §3.49.12: "the absolute URI [RFC3986] of the primary
				// documentation", an anchor per rule in the checks topic.
				if want := "https://github.com/qoslint/qoslint/blob/main/cmd/qoslint/help/checks.md#" + id; rule.HelpURI == nil || *rule.HelpURI != want {
					t.Errorf("rule %s: helpUri %v, want %s", id, rule.HelpURI, want)
				} else if u, err := url.Parse(*rule.HelpURI); err != nil || !u.IsAbs() || u.Fragment != id {
					t.Errorf("rule %s: helpUri %q is not an absolute URI with the rule's anchor", id, *rule.HelpURI)
				}
			}
			for _, c := range checks.All() {
				want := map[judge.Severity]string{judge.Error: "error", judge.Warning: "warning", judge.Info: "note"}[c.Severity]
				if i, ok := ruleAt[c.ID]; !ok || *rules[i].DefaultConfiguration.Level != want {
					t.Errorf("rule %s missing or not at level %s", c.ID, want)
				}
			}

			// Every finding is a result, or a notification when no file can
			// carry it; every input error is a notification, and a result
			// too when it has a file.
			notes := run.Invocations[0].ToolExecutionNotifications
			var findingNotes, errorNotes, located int
			for i, n := range notes {
				if n.Message == nil || n.Message.Text == nil || *n.Message.Text == "" || n.Level == nil || !levels[*n.Level] {
					t.Errorf("notification %d: no message.text or a bad level", i)
					continue
				}
				switch {
				case n.AssociatedRule != nil:
					findingNotes++
					if *n.Level == "error" {
						t.Errorf("notification %d: a finding at level error would say the run failed (§3.20.21)", i)
					}
				case *n.Level == "error":
					errorNotes++
					if len(n.Locations) > 0 {
						located++
					}
				}
			}
			if errorNotes != len(r.Errors) {
				t.Errorf("%d error notifications for %d input errors", errorNotes, len(r.Errors))
			}
			if len(run.Results) != len(r.Findings)-findingNotes+located {
				t.Errorf("%d results for %d findings (%d as notifications) and %d located input errors", len(run.Results), len(r.Findings), findingNotes, located)
			}
			prints := map[string]bool{}
			for i, res := range run.Results {
				if res.Message == nil || res.Message.Text == nil || *res.Message.Text == "" {
					t.Errorf("result %d: no message.text", i)
				}
				if res.RuleID == nil {
					t.Fatalf("result %d: no ruleId", i)
				}
				at, ok := ruleAt[*res.RuleID]
				if !ok {
					t.Errorf("result %d: ruleId %q is not a rule", i, *res.RuleID)
				} else if res.RuleIndex != nil && *res.RuleIndex != at {
					t.Errorf("result %d: ruleIndex %d, rule %s is at %d", i, *res.RuleIndex, *res.RuleID, at)
				}
				if res.Level == nil || !levels[*res.Level] {
					t.Errorf("result %d: level %v", i, res.Level)
				}
				for _, loc := range res.Locations {
					pl := loc.PhysicalLocation
					if pl == nil || pl.ArtifactLocation == nil || pl.ArtifactLocation.URI == nil {
						t.Fatalf("result %d: location without artifactLocation.uri", i)
					}
					u, err := url.Parse(*pl.ArtifactLocation.URI)
					if err != nil || u.IsAbs() || strings.HasPrefix(u.Path, "/") {
						t.Errorf("result %d: uri %q is not a relative reference", i, *pl.ArtifactLocation.URI)
					}
					if base := pl.ArtifactLocation.URIBaseID; base == nil || run.OriginalURIBaseIDs[*base] == nil {
						t.Errorf("result %d: uriBaseId %v not declared in originalUriBaseIds", i, base)
					}
					if pl.Region != nil && (pl.Region.StartLine == nil || *pl.Region.StartLine < 1) {
						t.Errorf("result %d: region without a startLine >= 1", i)
					}
				}
				if len(res.Locations) == 0 {
					t.Errorf("result %d: no location; GitHub would not show it", i)
				}
				for _, fix := range res.Fixes {
					if len(fix.ArtifactChanges) == 0 {
						t.Errorf("result %d: a fix without artifactChanges is invalid SARIF", i)
					}
				}
				fp := res.PartialFingerprints["primaryLocationLineHash"]
				if fp == "" || prints[fp] {
					t.Errorf("result %d: fingerprint %q missing or not unique", i, fp)
				}
				prints[fp] = true
			}
		})
	}
}

// Results point at the evidence file and line, keep their fingerprint when
// the line moves, and carry the fix commands.
func TestSARIFLocationsAndFingerprints(t *testing.T) {
	finding := checks.Finding{
		Check: "host-trust", Severity: judge.Error, Device: "gpu01", Interface: "ens1f0np0",
		Message: "the NIC trusts pcp", Expected: "dscp", Actual: "pcp",
		Source:  source.Pos{File: "devices/gpu01/mlnx qos#1.txt", Line: 2},
		Changes: []checks.Change{{Kind: checks.MlnxQos, Target: "ens1f0np0", Flag: "--trust", Value: "dscp", Old: "pcp", HasOld: true}},
	}
	moved := finding
	moved.Source.Line = 7
	whole := finding
	whole.Source = source.Pos{File: "devices/gpu01/nccl.conf"}
	missing := finding
	missing.Source, missing.Interface, missing.Message = source.Pos{}, "", "not collected"
	twin := missing // the same finding twice must not share a fingerprint
	primary := "devices/gpu01/ibdev2netdev.txt"
	r := &render.Report{
		Fabric:   "pod",
		Devices:  []render.Device{{Name: "gpu01", Kind: "host", Primary: source.Pos{File: primary}}},
		Findings: []checks.Finding{finding, whole, missing, twin},
		Errors:   []*source.Error{{Msg: "fabric-wide"}},
	}
	// Sorted: findings without an interface first; the fabric-wide input
	// error has no file and is a notification only.
	log := decodeSARIF(t, r)
	res := log.Runs[0].Results
	if len(res) != 4 {
		t.Fatalf("%d results, want the 4 findings", len(res))
	}
	noFile, twinRes, withLine, wholeFile := res[0], res[1], res[2], res[3]
	loc := withLine.Locations[0].PhysicalLocation
	if *loc.ArtifactLocation.URI != "devices/gpu01/mlnx%20qos%231.txt" || *loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || *loc.Region.StartLine != 2 {
		t.Errorf("location %s line %d", *loc.ArtifactLocation.URI, *loc.Region.StartLine)
	}
	text := *withLine.Message.Text
	if !strings.HasPrefix(text, "the NIC trusts pcp") || !strings.Contains(text, "expected: dscp") ||
		!strings.Contains(text, "actual: pcp") || !strings.Contains(text, "mlnx_qos -i ens1f0np0 --trust dscp") {
		t.Errorf("message %q lacks the message, expected, actual or the fix", text)
	}
	if len(withLine.Properties.Fix) != 1 || withLine.Properties.Fix[0] != "mlnx_qos -i ens1f0np0 --trust dscp" {
		t.Errorf("properties.fix = %q", withLine.Properties.Fix)
	}
	if r := wholeFile.Locations[0].PhysicalLocation.Region; r == nil || r.StartLine == nil || *r.StartLine != 1 {
		t.Errorf("line 0 (the whole file) must anchor at line 1, got %+v", r)
	}
	if got := *noFile.Locations[0].PhysicalLocation.ArtifactLocation.URI; got != primary {
		t.Errorf("a finding with no file points at %q, want the device's primary file", got)
	}
	if a, b := noFile.PartialFingerprints["primaryLocationLineHash"], twinRes.PartialFingerprints["primaryLocationLineHash"]; a == b {
		t.Errorf("identical findings share fingerprint %s", a)
	}
	inv := log.Runs[0].Invocations[0]
	if *inv.ExecutionSuccessful || len(inv.ToolExecutionNotifications) != 1 {
		t.Fatalf("a run with an input error: %+v", inv)
	}
	if n := inv.ToolExecutionNotifications[0]; *n.Level != "error" || *n.Message.Text != "fabric-wide" || len(n.Locations) != 0 {
		t.Errorf("the fabric-wide input error's notification: %+v", n)
	}

	r.Findings = []checks.Finding{moved}
	again := decodeSARIF(t, r).Runs[0].Results[0]
	if again.PartialFingerprints["primaryLocationLineHash"] != withLine.PartialFingerprints["primaryLocationLineHash"] {
		t.Error("the fingerprint changed when only the line moved")
	}
	other := finding
	other.Interface = "ens1f1np1"
	r.Findings = []checks.Finding{other}
	if decodeSARIF(t, r).Runs[0].Results[0].PartialFingerprints["primaryLocationLineHash"] == withLine.PartialFingerprints["primaryLocationLineHash"] {
		t.Error("another interface has the same fingerprint")
	}
}

// TestSARIFGitHubRules asserts, on every hand-built and example report, the GitHub code
// scanning rules of the SARIF SDK validator (microsoft/sarif-sdk,
// src/Sarif.Multitool.Library/Rules/GH1001 to GH1007), reading the log as
// plain JSON so that no Go struct hides a missing property.
func TestSARIFGitHubRules(t *testing.T) {
	type obj = map[string]any
	for _, hr := range sarifReports(t) {
		t.Run(hr.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := render.SARIF(&b, hr.report()); err != nil {
				t.Fatal(err)
			}
			var log obj
			if err := json.Unmarshal(b.Bytes(), &log); err != nil {
				t.Fatal(err)
			}
			runs, _ := log["runs"].([]any)
			// GH1004: arrays within GitHub's default display limits.
			if len(runs) == 0 || len(runs) > 5 {
				t.Fatalf("GH1004: %d runs", len(runs))
			}
			for _, r := range runs {
				run := r.(obj)
				rules := run["tool"].(obj)["driver"].(obj)["rules"].([]any)
				results, _ := run["results"].([]any)
				if len(rules) > 1000 || len(results) > 1000 {
					t.Errorf("GH1004: %d rules, %d results", len(rules), len(results))
				}
				if _, ok := run["threadFlowLocations"]; ok {
					t.Errorf("GH1002: run.threadFlowLocations must not be referenced")
				}
				for i, x := range results {
					res := x.(obj)
					// GH1007: a fully formatted message.text.
					if m, _ := res["message"].(obj); m == nil || m["text"] == nil || m["text"] == "" {
						t.Errorf("GH1007: result %d has no message.text", i)
					}
					locs, _ := res["locations"].([]any)
					// GH1001: at least one location, each with an artifact URI.
					if len(locs) == 0 || len(locs) > 10 {
						t.Errorf("GH1001/GH1004: result %d has %d locations", i, len(locs))
					}
					for _, l := range locs {
						pl, _ := l.(obj)["physicalLocation"].(obj)
						al, _ := pl["artifactLocation"].(obj)
						uri, _ := al["uri"].(string)
						if uri == "" {
							t.Errorf("GH1001: result %d: no physicalLocation.artifactLocation.uri", i)
							continue
						}
						// GH1005/GH1006: a relative reference (to %SRCROOT%),
						// never an absolute or file: URI.
						u, err := url.Parse(uri)
						if err != nil || u.IsAbs() || strings.HasPrefix(uri, "/") || al["uriBaseId"] != "%SRCROOT%" {
							t.Errorf("GH1005/GH1006: result %d: uri %q (base %v)", i, uri, al["uriBaseId"])
						}
						// GH1003: region.startLine on every location.
						region, _ := pl["region"].(obj)
						if line, _ := region["startLine"].(float64); line < 1 {
							t.Errorf("GH1003: result %d (%s): no region.startLine", i, uri)
						}
					}
					if cf, ok := res["codeFlows"]; ok {
						t.Errorf("GH1002: result %d has codeFlows %v", i, cf)
					}
				}
			}
		})
	}
}

// With Report.PathPrefix every URI is below the fabric's folder of the
// repository, and %SRCROOT% says it is the repository root; a position
// that no path below the root can name (absolute, or above the root) and
// a finding with no file on a device with no primary file are
// notifications, never results at a file that does not exist.
func TestSARIFRepositoryRoot(t *testing.T) {
	r := &render.Report{
		Fabric: "pod", PathPrefix: "fabrics/pod-a",
		Devices: []render.Device{
			{Name: "leaf01", Kind: "switch", Primary: source.Pos{File: "devices/leaf01/nv-config-commands.txt"}},
			{Name: "gpu01", Kind: "host", Primary: source.Pos{File: "inventory.yaml", Line: 14}},
			{Name: "gpu02", Kind: "host"},
		},
		Findings: []checks.Finding{
			{Check: "switch-pfc", Severity: judge.Error, Device: "leaf01", Message: "PFC is off", Source: source.Pos{File: "devices/leaf01/nv-config-commands.txt", Line: 7}},
			{Check: "not-collected", Severity: judge.Info, Device: "leaf01", Message: "nv-show-qos-roce.txt not collected"},
			{Check: "host-trust", Severity: judge.Error, Device: "gpu01", Message: "not audited", Source: source.Pos{File: layout.DeviceDir("gpu01")}},
			{Check: "host-tos", Severity: judge.Error, Device: "gpu02", Message: "no file at all"},
			{Check: "host-ecn", Severity: judge.Warning, Device: "gpu01", Message: "outside", Source: source.Pos{File: "../../../k8s/x.yaml", Line: 2}},
			{Check: "wire-dscp", Severity: judge.Error, Device: "198.51.100.1", Message: "a capture named by its absolute path", Source: source.Pos{File: "/runner/work/job 1.pcapng"}},
		},
		Errors: []*source.Error{{Device: "leaf01", Pos: source.Pos{File: "devices/leaf01", Line: 0}, Msg: "cannot read"}},
	}
	log := decodeSARIF(t, r)
	run := log.Runs[0]
	var base struct {
		Description struct{ Text string } `json:"description"`
	}
	if err := json.Unmarshal(run.OriginalURIBaseIDs["%SRCROOT%"], &base); err != nil || !strings.Contains(base.Description.Text, "repository root") ||
		!strings.Contains(base.Description.Text, "fabrics/pod-a") {
		t.Errorf("%%SRCROOT%% = %s", run.OriginalURIBaseIDs["%SRCROOT%"])
	}
	at := map[string]string{}
	for _, res := range run.Results {
		pl := res.Locations[0].PhysicalLocation
		at[*res.RuleID] = fmt.Sprintf("%s:%d", *pl.ArtifactLocation.URI, *pl.Region.StartLine)
	}
	for rule, want := range map[string]string{
		"switch-pfc":    "fabrics/pod-a/devices/leaf01/nv-config-commands.txt:7",
		"not-collected": "fabrics/pod-a/devices/leaf01/nv-config-commands.txt:1",
		"host-trust":    "fabrics/pod-a/inventory.yaml:14",
		"input-error":   "fabrics/pod-a/devices/leaf01/nv-config-commands.txt:1",
		"wire-dscp":     "file:///runner/work/job%201.pcapng:1",
	} {
		if at[rule] != want {
			t.Errorf("%s at %q, want %s", rule, at[rule], want)
		}
	}
	if len(run.Results) != 5 {
		t.Errorf("%d results, want 5: host-tos (no file) and host-ecn (above the root) are notifications", len(run.Results))
	}
	for _, res := range run.Results {
		al := res.Locations[0].PhysicalLocation.ArtifactLocation
		if abs := strings.HasPrefix(*al.URI, "file:"); abs != (al.URIBaseID == nil) {
			t.Errorf("%s: uri %s with uriBaseId %v (SARIF §3.4.4: none with an absolute URI, else %%SRCROOT%%)", *res.RuleID, *al.URI, al.URIBaseID)
		}
	}
	inv := run.Invocations[0]
	if *inv.ExecutionSuccessful {
		t.Error("executionSuccessful with an input error")
	}
	var rules []string
	for _, n := range inv.ToolExecutionNotifications {
		if n.AssociatedRule != nil {
			rules = append(rules, *n.AssociatedRule.ID+"/"+*n.Level)
			if len(n.Locations) != 0 {
				t.Errorf("notification of %s has a location", *n.AssociatedRule.ID)
			}
		}
	}
	if got := strings.Join(rules, ","); got != "host-ecn/warning,host-tos/warning" {
		t.Errorf("finding notifications %s, want host-tos and host-ecn, each at most a warning", got)
	}
}

// An error-only report (an inventory that does not load: no devices, no
// findings) is still a valid log: every rule, no result without a file,
// executionSuccessful false and the error as a notification at its
// file:line:column (and a result there, for code scanning's annotation).
func TestSARIFErrorOnly(t *testing.T) {
	r := &render.Report{Fabric: "", FailOn: judge.Error, Errors: []*source.Error{
		{Pos: source.Pos{File: "inventory.yaml", Line: 3, Column: 5}, Msg: "mapping values are not allowed in this context"},
		{Msg: "no inventory.yaml, inventory.yml, inventory.hcl"},
	}}
	run := decodeSARIF(t, r).Runs[0]
	if len(run.Tool.Driver.Rules) != len(checks.All())+1 {
		t.Errorf("%d rules, want the catalog and input-error", len(run.Tool.Driver.Rules))
	}
	inv := run.Invocations[0]
	if *inv.ExecutionSuccessful || len(inv.ToolExecutionNotifications) != 2 {
		t.Fatalf("invocation %+v", inv)
	}
	for i, n := range inv.ToolExecutionNotifications {
		if *n.Level != "error" {
			t.Errorf("notification %d at level %s", i, *n.Level)
		}
	}
	// Sorted: the error with no file first.
	n := inv.ToolExecutionNotifications[1]
	if len(n.Locations) != 1 {
		t.Fatalf("notification %+v has no location", n)
	}
	pl := n.Locations[0].PhysicalLocation
	if *pl.ArtifactLocation.URI != "inventory.yaml" || *pl.Region.StartLine != 3 || pl.Region.StartColumn == nil || *pl.Region.StartColumn != 5 {
		t.Errorf("notification at %s:%d:%v, want inventory.yaml:3:5", *pl.ArtifactLocation.URI, *pl.Region.StartLine, pl.Region.StartColumn)
	}
	if len(inv.ToolExecutionNotifications[0].Locations) != 0 {
		t.Error("the error with no file has a location")
	}
	if len(run.Results) != 1 || *run.Results[0].RuleID != "input-error" {
		t.Errorf("results %+v, want the one input error with a file", run.Results)
	}
}
