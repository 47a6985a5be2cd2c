package render_test

import (
	"bytes"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/collectors/layout"
	"github.com/qoslint/qoslint/inventory/source"
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
			Name  *string `json:"name"` // required
			Rules []sRule `json:"rules"`
		} `json:"driver"`
	} `json:"tool"`
	OriginalURIBaseIDs map[string]json.RawMessage `json:"originalUriBaseIds"`
	Results            []sResult                  `json:"results"`
}

type sRule struct {
	ID                   *string   `json:"id"` // required
	Name                 *string   `json:"name"`
	ShortDescription     *sMessage `json:"shortDescription"`
	FullDescription      *sMessage `json:"fullDescription"`
	Help                 *sMessage `json:"help"`
	DefaultConfiguration *struct {
		Level *string `json:"level"`
	} `json:"defaultConfiguration"`
	HelpURI *string `json:"helpUri"`
}

type sMessage struct {
	Text *string `json:"text"`
}

type sResult struct {
	RuleID    *string   `json:"ruleId"`
	RuleIndex *int      `json:"ruleIndex"`
	Level     *string   `json:"level"`
	Message   *sMessage `json:"message"` // required
	Locations []struct {
		PhysicalLocation *struct {
			ArtifactLocation *struct {
				URI       *string `json:"uri"`
				URIBaseID *string `json:"uriBaseId"`
			} `json:"artifactLocation"`
			Region *struct {
				StartLine *int `json:"startLine"`
			} `json:"region"`
		} `json:"physicalLocation"`
	} `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	// A fix requires artifactChanges (schema "fix"); qoslint has none.
	Fixes []struct {
		ArtifactChanges []json.RawMessage `json:"artifactChanges"`
	} `json:"fixes"`
	Properties struct {
		Fix []string `json:"fix"`
	} `json:"properties"`
}

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

func TestSARIFRequiredProperties(t *testing.T) {
	levels := map[string]bool{"error": true, "warning": true, "note": true, "none": true}
	for _, hr := range handReports {
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
				for what, m := range map[string]*sMessage{"shortDescription": rule.ShortDescription, "fullDescription": rule.FullDescription, "help": rule.Help} {
					if m == nil || m.Text == nil || *m.Text == "" {
						t.Errorf("rule %s: no %s.text", id, what)
					} else if what != "help" && len([]rune(*m.Text)) > 1024 {
						t.Errorf("rule %s: %s over GitHub's 1024 characters", id, what)
					}
				}
				if rule.Name == nil || strings.ContainsAny(*rule.Name, "- ") {
					t.Errorf("rule %s: name %v is not a Pascal identifier", id, rule.Name)
				}
				if rule.DefaultConfiguration == nil || rule.DefaultConfiguration.Level == nil || !levels[*rule.DefaultConfiguration.Level] {
					t.Errorf("rule %s: bad defaultConfiguration.level", id)
				}
				if rule.HelpURI != nil {
					t.Errorf("rule %s: helpUri %q should be omitted", id, *rule.HelpURI)
				}
			}
			for _, c := range checks.All() {
				want := map[checks.Severity]string{checks.Error: "error", checks.Warning: "warning", checks.Info: "note"}[c.Severity]
				if i, ok := ruleAt[c.ID]; !ok || *rules[i].DefaultConfiguration.Level != want {
					t.Errorf("rule %s missing or not at level %s", c.ID, want)
				}
			}

			if len(run.Results) != len(r.Findings)+len(r.Errors) {
				t.Errorf("%d results for %d findings and %d input errors", len(run.Results), len(r.Findings), len(r.Errors))
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
		Check: "host-trust", Severity: checks.Error, Device: "gpu01", Interface: "ens1f0np0",
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
	r := &render.Report{
		Fabric:   "pod",
		Devices:  []render.Device{{Name: "gpu01", Kind: "host"}},
		Findings: []checks.Finding{finding, whole, missing, twin},
		Errors:   []*source.Error{{Msg: "fabric-wide"}},
	}
	// Sorted: findings without an interface first, then input errors.
	res := decodeSARIF(t, r).Runs[0].Results
	noFile, twinRes, withLine, wholeFile, fabricErr := res[0], res[1], res[2], res[3], res[4]
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
	if got := *noFile.Locations[0].PhysicalLocation.ArtifactLocation.URI; got != layout.DevicesDir+"/gpu01" {
		t.Errorf("a finding with no file points at %q, want the device folder", got)
	}
	if a, b := noFile.PartialFingerprints["primaryLocationLineHash"], twinRes.PartialFingerprints["primaryLocationLineHash"]; a == b {
		t.Errorf("identical findings share fingerprint %s", a)
	}
	if *fabricErr.RuleID != "input-error" || *fabricErr.Level != "error" || len(fabricErr.Locations) != 0 {
		t.Errorf("a fabric-wide input error: %+v", fabricErr)
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

// TestSARIFGitHubRules asserts, on every hand-built report, the GitHub code
// scanning rules of the SARIF SDK validator (microsoft/sarif-sdk,
// src/Sarif.Multitool.Library/Rules/GH1001 to GH1007), reading the log as
// plain JSON so that no Go struct hides a missing property.
func TestSARIFGitHubRules(t *testing.T) {
	type obj = map[string]any
	for _, hr := range handReports {
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
