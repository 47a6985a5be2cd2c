// Package app is what the commands do, kept out of cmd/ so that cmd/ stays a
// thin layer of flags (as gnmic does) and tests can drive whole runs.
package app

import (
	"fmt"
	"io"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/render"
)

// Exit codes of lint (README "Exit codes").
const (
	ExitOK       = 0 // nothing at or above --fail-on
	ExitFindings = 1 // findings at or above --fail-on
	ExitInput    = 2 // the input could not be read: bad inventory, unknown or missing device folder, malformed file
	// ExitIncomplete is audit's and collect's: some devices could not be
	// collected, or answered with output that could not be read; the
	// report names each with its cause.
	ExitIncomplete = 3
)

// LintOptions are lint's settings.
type LintOptions struct {
	Format string
	FailOn checks.Severity
	// Fix adds each device's grouped fix and rollback to the report.
	Fix bool
}

// BuildReport lints the fabric directory dir. The error is returned only
// when the inventory itself cannot be read; everything else is in the report.
func BuildReport(dir string, failOn checks.Severity) (*render.Report, error) {
	inv, err := inventory.Load(dir)
	if err != nil {
		return nil, err
	}
	return report(inv, offline.Collect(dir, inv), failOn), nil
}

// report models a capture, runs the checks and assembles the report of
// every inventory device.
func report(inv *inventory.Inventory, capture *collectors.Capture, failOn checks.Severity) *render.Report {
	fab := model.Build(inv, capture)
	r := &render.Report{
		Fabric:   inv.Fabric,
		Findings: checks.Run(fab),
		Errors:   append(capture.Errors, fab.Problems...),
		FailOn:   failOn,
	}
	for _, s := range inv.Switches {
		r.Devices = append(r.Devices, render.Device{Name: s.Name, Kind: "switch"})
	}
	for _, h := range inv.Hosts {
		r.Devices = append(r.Devices, render.Device{Name: h.Name, Kind: "host"})
	}
	r.Normalize()
	return r
}

// Lint writes the report for dir to out and returns the exit code. The
// report is always printed before the code is decided.
func Lint(out, errOut io.Writer, dir string, opt LintOptions) int {
	format, ok := render.Formatters()[opt.Format]
	if !ok {
		fmt.Fprintf(errOut, "qoslint: unknown format %q (one of %v)\n", opt.Format, render.FormatNames())
		return ExitInput
	}
	r, err := BuildReport(dir, opt.FailOn)
	if err != nil {
		printLoadError(errOut, err)
		return ExitInput
	}
	if opt.Fix {
		if r.Plans, err = render.Plans(r); err != nil {
			fmt.Fprintf(errOut, "qoslint: %v\n", err)
			return ExitInput
		}
	}
	if err := format(out, r); err != nil {
		fmt.Fprintf(errOut, "qoslint: writing the report: %v\n", err)
		return ExitInput
	}
	switch {
	case len(r.Errors) > 0:
		return ExitInput
	case r.Failed():
		return ExitFindings
	}
	return ExitOK
}
