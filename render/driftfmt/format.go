// Package driftfmt writes a drift report (checks/drift) as text, JSON
// (schema qoslint.drift/v1), Markdown or one self-contained HTML page.
package driftfmt

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/checks/drift"
	"github.com/qoslint/qoslint/internal/english"
	"github.com/qoslint/qoslint/model/snapshot"
)

// Formatter writes a drift report.
type Formatter func(io.Writer, *drift.Drift) error

// Formatters are the drift report formats by name.
func Formatters() map[string]Formatter {
	return map[string]Formatter{"text": WriteText, "json": WriteJSON, "markdown": WriteMarkdown, "html": WriteHTML}
}

// FormatNames lists the formats, sorted.
func FormatNames() []string {
	var out []string
	for n := range Formatters() {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// WriteJSON writes the drift as one JSON document, schema drift.DriftVersion
// (schema/drift.schema.json).
func WriteJSON(w io.Writer, d *drift.Drift) error { return snapshot.EncodeJSON(w, d) }

// policyLine describes the policy the drift was judged against.
func policyLine(p snapshot.Policy) string {
	dscp := make([]string, len(p.RoCE.DSCP))
	for i, d := range p.RoCE.DSCP {
		dscp[i] = strconv.Itoa(d)
	}
	return fmt.Sprintf("preset %s: RoCE DSCP %s → priority %d, traffic-class %d, %s; CNP DSCP %d → priority %d; hosts trust %s; MTU host %d, switch %d",
		p.Preset, strings.Join(dscp, ","), p.RoCE.Priority, p.RoCE.TrafficClass, p.RoCE.Mode,
		p.CNP.DSCP, p.CNP.Priority, p.Trust, p.MTU.Host, p.MTU.Switch)
}

// summaryLine counts the drift in one sentence.
func summaryLine(d *drift.Drift) string {
	s := d.Summary
	line := "both sides are the same in QoS terms"
	if s.Drift {
		line = fmt.Sprintf("%d %s drifted (%d changed, %d appeared, %d vanished), %d %s: %d break the policy, %d still break it, %d repair it",
			s.Devices, english.Plural(s.Devices, "device", "devices"), s.Changed, s.Appeared, s.Vanished,
			s.Changes, english.Plural(s.Changes, "change", "changes"), s.Breaks, s.StillBreaks, s.Repairs)
	}
	if n := len(d.InputErrors); n > 0 {
		line += fmt.Sprintf("; incomplete: %d input %s", n, english.Plural(n, "error", "errors"))
	}
	return line
}

func sideLine(s drift.Side) string {
	switch {
	case s.Source == "":
		return "fabric " + s.Fabric
	case s.Fabric == "":
		return s.Source
	}
	return s.Source + " (fabric " + s.Fabric + ")"
}

// effectWord is how the text formats tag an effect; "" for neutral.
func effectWord(e string) string {
	switch e {
	case drift.EffectBreaks:
		return "breaks"
	case drift.EffectStillBreaks:
		return "still breaks"
	case drift.EffectRepairs:
		return "repairs"
	}
	return ""
}

func inputErrorLine(e drift.SideError) string {
	where := e.File
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	parts := []string{e.Side}
	if e.Device != "" {
		parts = append(parts, e.Device)
	}
	if where != "" {
		parts = append(parts, where)
	}
	return strings.Join(parts, ": ") + ": " + e.Message
}
