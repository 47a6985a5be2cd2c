package render

import (
	"encoding/json"
	"io"
	"slices"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/internal/source"
)

// SchemaVersion names the JSON report layout. Fields are only ever added
// within a version; a rename or removal bumps it. `qoslint help formats`
// ("JSON") documents it.
const SchemaVersion = "qoslint.report/v1"

type jsonReport struct {
	Schema      string        `json:"schema"`
	Fabric      string        `json:"fabric"`
	Summary     jsonSummary   `json:"summary"`
	Devices     []jsonDevice  `json:"devices"`
	Findings    []jsonFinding `json:"findings"`
	InputErrors []jsonError   `json:"input_errors"`
	Notes       []string      `json:"notes"`
	Plans       []jsonPlan    `json:"plans,omitempty"`
	Wire        *jsonWire     `json:"wire,omitempty"`
}

type jsonPlan struct {
	Device   string   `json:"device"`
	Kind     string   `json:"kind"`
	Checks   []string `json:"checks"`
	Fix      []string `json:"fix"`
	Rollback []string `json:"rollback"`
	// Patch is a SONiC switch's Generic Config Updater patch; its fix
	// lines say the settings, its rollback is the checkpoint the fix
	// script takes (none to list here).
	Patch json.RawMessage `json:"patch,omitempty"`
}

type jsonSummary struct {
	Devices     int `json:"devices"`
	Findings    int `json:"findings"`
	InputErrors int `json:"input_errors"`
	// Waived counts the waived findings; BySeverity counts the others.
	Waived     int    `json:"waived"`
	BySeverity Counts `json:"by_severity"`
	FailOn     string `json:"fail_on"`
	Failed     bool   `json:"failed"`
	// Judged is false when the run stopped before any check (NotJudged):
	// no finding then means nothing was looked at, not a clean fabric.
	Judged bool `json:"judged"`
	// Skipped counts the device × check pairs that did not run (each
	// device's checks say why).
	Skipped int `json:"skipped"`
}

type jsonDevice struct {
	Device
	Findings int `json:"findings"`
	// Checks are the checks of the device's kind (and any other that
	// found something on it): ran, or skipped with the reason.
	Checks []jsonCheckStatus `json:"checks,omitempty"`
}

// jsonCheckStatus is one check on one device: "ran" with its findings, or
// "skipped" with skip ("not collected", "not applicable", "disabled") and
// the reason. A check that ran with no finding passed.
type jsonCheckStatus struct {
	Check    string `json:"check"`
	Status   string `json:"status"`
	Findings int    `json:"findings"`
	Skip     string `json:"skip,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Note     string `json:"note,omitempty"`
}

type jsonFinding struct {
	checks.Finding
	Fix      []string `json:"fix"`
	Rollback []string `json:"rollback"`
}

type jsonError struct {
	Device string `json:"device,omitempty"`
	source.Pos
	Message string `json:"message"`
}

// JSON writes the report as one JSON document (schema SchemaVersion).
func JSON(w io.Writer, r *Report) error {
	r.Normalize()
	out := jsonReport{
		Schema: SchemaVersion, Fabric: r.Fabric,
		Summary: jsonSummary{
			Devices: len(r.Devices), Findings: len(r.Findings), InputErrors: len(r.Errors), Waived: r.Waived(),
			BySeverity: r.Counts(), FailOn: r.FailOnName(), Failed: r.Failed(),
			Judged: !r.NotJudged,
		},
		Devices: []jsonDevice{}, Findings: []jsonFinding{}, InputErrors: []jsonError{},
		Notes: append([]string{}, r.Notes...),
		Wire:  buildJSONWire(r.Wire),
	}
	per := map[string]int{}
	perCheck := map[[2]string]int{}
	for _, f := range r.Findings {
		per[f.Device]++
		perCheck[[2]string{f.Device, f.Check}]++
		fix, rb := r.FindingCommands(f)
		if fix == nil {
			fix = []string{}
		}
		if rb == nil {
			rb = []string{}
		}
		out.Findings = append(out.Findings, jsonFinding{Finding: f, Fix: fix, Rollback: rb})
	}
	byDevice := statusesByDevice(r.Statuses)
	for _, d := range r.Devices {
		out.Devices = append(out.Devices, jsonDevice{Device: d, Findings: per[d.Name], Checks: jsonStatuses(byDevice[d.Name], d, perCheck)})
	}
	out.Summary.Skipped = len(r.Skipped())
	for _, e := range r.Errors {
		out.InputErrors = append(out.InputErrors, jsonError{Device: e.Device, Pos: e.Pos, Message: e.Msg})
	}
	for _, p := range r.Plans {
		rb := p.Rollback
		if rb == nil {
			rb = []string{}
		}
		out.Plans = append(out.Plans, jsonPlan{Device: p.Device, Kind: p.Kind, Checks: p.Checks, Fix: p.Fix, Rollback: rb, Patch: p.Patch})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// statusesByDevice are the statuses of each device, in their order: a
// device's are one run of the report's, as the runner makes them, and
// scanning them all for each device made a JSON report quadratic in the
// devices (3 min 53 s for TestLintScale's fabric at 3,000 devices).
func statusesByDevice(sts []checks.Status) map[string][]checks.Status {
	out := map[string][]checks.Status{}
	for i := 0; i < len(sts); {
		j := i + 1
		for j < len(sts) && sts[j].Device == sts[i].Device {
			j++
		}
		if prev, ok := out[sts[i].Device]; ok {
			// Another run of the same device (an unmodelled device's,
			// appended after): its own copy, so no run is overwritten.
			out[sts[i].Device] = append(slices.Clip(prev), sts[i:j]...)
		} else {
			out[sts[i].Device] = sts[i:j:j]
		}
		i = j
	}
	return out
}

// jsonStatuses are device d's check statuses (sts, d's alone), in
// catalog order.
func jsonStatuses(sts []checks.Status, d Device, perCheck map[[2]string]int) []jsonCheckStatus {
	var out []jsonCheckStatus
	for _, s := range sts {
		c := checks.Lookup(s.Check())
		n := perCheck[[2]string{d.Name, s.Check()}]
		if c == nil || !c.Devices.Has(d.Kind) && n == 0 {
			continue
		}
		js := jsonCheckStatus{Check: s.Check(), Status: "ran", Findings: n, Note: s.Note()}
		if !s.Ran() {
			js.Status, js.Skip, js.Reason = "skipped", string(s.Skip()), s.Reason()
		}
		out = append(out, js)
	}
	return out
}
