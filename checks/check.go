// Package checks holds the rule catalog. Each check is a unit with its
// documentation beside it (one file per check, as staticcheck does), and the
// catalog is an explicit list (All), not init() side effects, so it can be
// listed, tested and explained.
package checks

import (
	"fmt"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/inventory/source"
	"github.com/qoslint/qoslint/model"
)

// Severity orders findings: Info < Warning < Error.
type Severity int

const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "info"
}

// MarshalText makes severities readable in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// ParseSeverity reads "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "error":
		return Error, nil
	case "warning":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return Info, fmt.Errorf("unknown severity %q (error, warning or info)", s)
}

// Check is one rule.
type Check struct {
	ID string
	// Device is the kind of device the check looks at: "switch", "host",
	// or "" for both (mtu).
	Device string
	// Severity is the check's usual severity; a finding may be lower (a
	// lesser variant, or "not collected" at info).
	Severity Severity
	// Title is one line; Doc is the paragraph `qoslint explain` prints.
	Title string
	Doc   string
	Run   func(*model.Fabric) []Finding
	// runIn is the evidence checks' Run within one checks.Run (inRun).
	runIn func(*run) []Finding
}

// Finding is one place where the RoCE marking chain breaks.
type Finding struct {
	Check     string     `json:"check"`
	Severity  Severity   `json:"severity"`
	Device    string     `json:"device"`
	Interface string     `json:"interface,omitempty"`
	Message   string     `json:"message"`
	Expected  string     `json:"expected,omitempty"`
	Actual    string     `json:"actual,omitempty"`
	Source    source.Pos `json:"source"`
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

// All is the catalog, in the order `qoslint explain` lists it.
func All() []*Check {
	return []*Check{
		switchRoCEMode, switchTrust, switchDSCPMap, switchPFC, switchQueueMap,
		switchECN, switchCNP, switchBondQoS, ecmpHash, adaptiveRouting,
		hostTrust, hostDSCPMap, hostPFC, hostECN, hostCNP, hostToS, mtu,
		evidencePausePriority, evidenceRoCEPriority, evidenceDCQCN, evidenceRoCELoss, evidenceLosslessDrops, evidenceECNQueue,
	}
}

// Lookup finds a check by ID: one of All(), or NotCollected.
func Lookup(id string) *Check {
	for _, c := range append(All(), NotCollected) {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// Run runs every check, merges their "not collected" findings into one
// NotCollected finding per device, and returns the findings sorted by device, then
// severity (highest first), check, interface and message.
func Run(f *model.Fabric) []Finding {
	var out, skips []Finding
	r := newRun(f)
	for _, c := range All() {
		for _, fd := range r.findings(c) {
			fd.Check = c.ID
			if fd.skip != nil {
				skips = append(skips, fd)
				continue
			}
			out = append(out, fd)
		}
	}
	out = append(out, mergeNotCollected(skips)...)
	Sort(out)
	return out
}

// Sort orders findings deterministically.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		switch {
		case a.Device != b.Device:
			return a.Device < b.Device
		case a.Severity != b.Severity:
			return a.Severity > b.Severity
		case a.Check != b.Check:
			return checkIndex(a.Check) < checkIndex(b.Check)
		case a.Interface != b.Interface:
			return model.NaturalLess(a.Interface, b.Interface)
		}
		return a.Message < b.Message
	})
}

func checkIndex(id string) int {
	for i, c := range All() {
		if c.ID == id {
			return i
		}
	}
	return len(All())
}
