package render_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/checks/waivers"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/render"
	"github.com/qoslint/qoslint/render/schema"
)

const reason = "INFRA-1234: NCCL_IB_TC is set per job by the scheduler, not in /etc/nccl.conf"

// waivedReport has one waived error, one open warning and the waiver
// file's own warning.
func waivedReport(failOn judge.Severity) *render.Report {
	return &render.Report{
		Fabric: "pod-w", FailOn: failOn, Waivers: waivers.FileName,
		Devices: []render.Device{{Name: "gpu03", Kind: "host"}, {Name: "leaf02", Kind: "switch"}},
		Findings: []checks.Finding{
			{Check: "host-tos", Severity: judge.Error, Device: "gpu03", Interface: "ens1f0np0", Message: "ToS 26",
				Source: source.Pos{File: "devices/gpu03/nccl.conf", Line: 6}, Waived: true, WaiverReason: reason,
				Changes: []checks.Change{{Kind: checks.NCCLConf, Target: "/etc/nccl.conf", Path: []string{"NCCL_IB_TC"}, Value: "104", Old: "26", HasOld: true}}},
			{Check: "adaptive-routing", Severity: judge.Warning, Device: "leaf02", Message: "adaptive routing is on",
				Source: source.Pos{File: "devices/leaf02/nv-config-commands.txt", Line: 13}},
			{Check: "waiver", Severity: judge.Warning, Device: waivers.Device, Message: "waiver mtu on leaf09 matches no finding",
				Source: source.Pos{File: waivers.FileName, Line: 9}},
		},
	}
}

func formatted(t *testing.T, name string, r *render.Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := render.Formatters()[name](&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A waived finding never fails the gate; the waiver file's own findings
// are warnings like any other.
func TestWaivedFailed(t *testing.T) {
	for _, tc := range []struct {
		failOn judge.Severity
		failed bool
	}{{judge.Error, false}, {judge.Warning, true}, {judge.Info, true}} {
		r := waivedReport(tc.failOn)
		if r.Failed() != tc.failed {
			t.Errorf("--fail-on %s: Failed() = %v", tc.failOn, r.Failed())
		}
	}
	r := waivedReport(judge.Error)
	if c := r.Counts(); c != (render.Counts{Error: 0, Warning: 2, Info: 0}) || r.Waived() != 1 {
		t.Errorf("counts %+v, waived %d", c, r.Waived())
	}
	// Only waived findings: PASS at every threshold.
	r.Findings = r.Findings[:1]
	r.FailOn = judge.Info
	if r.Failed() {
		t.Error("a report whose only finding is waived failed")
	}
}

// Every format shows the waived finding as waived, with its reason, and the
// waiver file's finding under its own heading.
func TestWaivedInEveryFormat(t *testing.T) {
	for name, want := range map[string][]string{
		"text": {"3 findings (0 errors, 2 warnings, 0 info, 1 waived)", "  error (waived) host-tos ens1f0np0\n", "           waived:   " + reason + "\n",
			"\n(fabric)\n  warning  waiver\n", "evidence: qoslint-waivers.yaml:9", "PASS: no findings at or above error"},
		"json": {`"waived": 1,`, `"waived": true,`, `"waiver_reason": "` + reason + `"`, `"device": "(fabric)"`},
		"markdown": {"| 0 | 2 | 0 | 1 | 0 | 2 | 2 |", "| error (waived) | `host-tos` |", "ToS 26<br>**waived:** INFRA-1234: NCCL_IB_TC",
			"\n### (fabric)\n"},
		"junit": {`<skipped message="waived: ` + reason + `">`, `<testsuite name="(fabric)" tests="2" failures="0"`, `name="waiver"`},
		"sarif": {`"suppressions": [`, `"kind": "external"`, `"justification": "` + reason + `"`, `"id": "waiver"`, `\nwaived: ` + reason},
	} {
		t.Run(name, func(t *testing.T) {
			out := formatted(t, name, waivedReport(judge.Error))
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("lacks %q:\n%s", w, out)
				}
			}
		})
	}
	// The markdown fix block is what to run: a waived finding is accepted.
	if md := formatted(t, "markdown", waivedReport(judge.Error)); strings.Contains(md, "NCCL_IB_TC=104") {
		t.Errorf("markdown fixes a waived finding:\n%s", md)
	}
	// Only the open finding is a SARIF result without a suppression.
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID       string `json:"ruleId"`
				Suppressions []struct{ Kind, Justification string }
			}
		}
	}
	if err := json.Unmarshal([]byte(formatted(t, "sarif", waivedReport(judge.Error))), &log); err != nil {
		t.Fatal(err)
	}
	for _, res := range log.Runs[0].Results {
		if waived := len(res.Suppressions) > 0; waived != (res.RuleID == "host-tos") {
			t.Errorf("%s: suppressions %+v", res.RuleID, res.Suppressions)
		}
	}
}

// --fix plans leave waived findings as they are.
func TestPlansSkipWaived(t *testing.T) {
	plans, err := render.Plans(waivedReport(judge.Error))
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) != 0 {
		t.Errorf("plans for waived findings: %+v", plans)
	}
}

// JSON and SARIF validate against the shipped schemas, waivers, input
// errors and notes included.
func TestWaivedOutputsValidate(t *testing.T) {
	for _, hr := range handReports {
		t.Run(hr.name, func(t *testing.T) { validateOutputs(t, hr.report()) })
	}
}

func validateOutputs(t *testing.T, r *render.Report) {
	for format, name := range map[string]string{"json": schema.Report, "sarif": schema.SARIF} {
		data, err := schema.FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(name, doc); err != nil {
			t.Fatal(err)
		}
		s, err := c.Compile(name)
		if err != nil {
			t.Fatal(err)
		}
		out, err := jsonschema.UnmarshalJSON(strings.NewReader(formatted(t, format, r)))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(out); err != nil {
			t.Errorf("%s of %s does not validate against %s:\n%v", format, r.Fabric, name, err)
		}
	}
}
