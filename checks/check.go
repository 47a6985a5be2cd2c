// Package checks holds the rule catalog. Each check is a unit with its
// documentation beside it (one file per check, as staticcheck does), and the
// catalog is an explicit list (All), not init() side effects, so it can be
// listed, tested and explained.
//
// A Check declares what staticcheck's analysis.Analyzer declares: its name
// (ID), documentation (Title, Doc), what it reads (Inputs, and Requires:
// the checks whose findings it uses, computed once per run) and its Run.
// On top it declares its Kind, the Devices it judges and its Severity.
// TestCatalog (catalog_test.go) holds every check to these declarations.
package checks

import (
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// Kind says what a check judges; --enable and --disable accept a kind for
// all of its checks.
type Kind string

const (
	// KindConfig checks judge what one device is configured to do.
	KindConfig Kind = "config"
	// KindEvidence checks judge runtime counters: what the devices did.
	KindEvidence Kind = "evidence"
	// KindTopology checks judge whether the devices at the two ends of links
	// agree with each other.
	KindTopology Kind = "topology"
	// KindInput checks judge whether the inputs the other checks need were
	// there.
	KindInput Kind = "input"
)

// Kinds are the valid kinds, in the order explain documents them.
var Kinds = []Kind{KindConfig, KindEvidence, KindTopology, KindInput}

// Devices is the set of device kinds a check judges. The zero value is the
// empty set, which no check may declare.
type Devices uint8

const (
	Switches Devices = 1 << iota
	Hosts
	AllDevices = Switches | Hosts
)

// Has reports whether the set holds kind ("switch" or "host").
func (d Devices) Has(kind string) bool {
	switch kind {
	case "switch":
		return d&Switches != 0
	case "host":
		return d&Hosts != 0
	}
	return false
}

// String lists the set: "switch", "host" or "switch, host".
func (d Devices) String() string {
	var out []string
	if d&Switches != 0 {
		out = append(out, "switch")
	}
	if d&Hosts != 0 {
		out = append(out, "host")
	}
	return strings.Join(out, ", ")
}

// Check is one rule.
type Check struct {
	ID   string
	Kind Kind
	// Devices are the kinds of device the check judges.
	Devices Devices
	// Severity is the check's highest severity; a finding may be lower (a
	// lesser variant, or "not collected" at info), never higher.
	Severity judge.Severity
	// Title is one line; Doc is the paragraph `qoslint explain` prints.
	Title string
	Doc   string
	// Inputs name the device files the check reads (inputs.go).
	Inputs []Input
	// Requires are the checks whose findings this one reads (through
	// run.findings or run.corroboration): each is computed once per run,
	// before it is read, and reading any other check's findings panics.
	// They must form no cycle. A disabled check that an enabled one
	// requires still runs; its findings are not reported.
	Requires []*Check
	// Applies declares where the check judges nothing and why (status.go).
	// Without it the check judges every device of Devices, and is skipped
	// where its own not-collected findings say so or where the model read
	// none of its Inputs (inputsAbsent).
	Applies Applies
	Run     func(*model.Fabric) []Finding
	// runIn is the Run of a check with Requires, within one checks.Run
	// (inRun).
	runIn func(*run) []Finding
}

// Finding is one place where the RoCE marking chain breaks.
type Finding struct {
	Check     string         `json:"check"`
	Severity  judge.Severity `json:"severity"`
	Device    string         `json:"device"`
	Interface string         `json:"interface,omitempty"`
	Message   string         `json:"message"`
	Expected  string         `json:"expected,omitempty"`
	Actual    string         `json:"actual,omitempty"`
	Source    source.Pos     `json:"source"`
	// Waived is set when a waiver in qoslint-waivers.yaml covers the
	// finding; waived findings are still reported, marked, and do not
	// count against --fail-on.
	Waived       bool   `json:"waived,omitempty"`
	WaiverReason string `json:"waiver_reason,omitempty"`
	// Changes are what would fix it; render/ turns them into commands and
	// their rollback.
	Changes []Change `json:"-"`
	// skip marks a check's "not collected" finding until Run merges it.
	skip *skip
}
