// Package app is what the commands do, kept out of cmd/ so that cmd/ stays a
// thin layer of flags (as gnmic does) and tests can drive whole runs.
package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/fabric"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/waivers"
	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/render"
	"github.com/qoslint/qoslint/templates/gcu"
)

// now is the clock waiver expiry is judged by; tests set it.
var now = time.Now

// Exit codes of lint (`qoslint help commands`, "Exit codes").
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
	FailOn judge.Severity
	// Fix adds each device's grouped fix and rollback to the report.
	Fix bool
	// Waivers is the waiver file; "" means DIR/qoslint-waivers.yaml when
	// it exists.
	Waivers string
	Checks  CheckFlags
	Style   Style

	// Outputs, when set, are the reports to write (-f FORMAT[=PATH]);
	// Format is then unused.
	Outputs []Output
	// PathPrefix is --path-prefix: the fabric directory's path from the
	// repository root, for the sarif format's URIs; "" means the path
	// below the git work tree that holds DIR, if any.
	PathPrefix string
}

// Style is how a report is judged and shown beyond its format:
// ReportOnly is --fail-on none (findings never make the exit code 1; input
// errors and incomplete audits still do), Color lets the text format
// colour severities and verdicts (set only for a terminal).
type Style struct {
	ReportOnly bool
	Color      bool
}

// apply puts the style on a report before it is printed.
func (s Style) apply(r *render.Report) {
	r.ReportOnly, r.Color = s.ReportOnly, s.Color
}

// FabricDir is the fabric directory a path names: the path itself, or
// the folder of a file in it, so that `qoslint lint DIR/inventory.yaml`
// lints DIR.
func FabricDir(path string) string {
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		return filepath.Dir(path)
	}
	return path
}

// CheckFlags are --enable and --disable: check IDs or kinds, merged with
// the inventory's checks section by checks.Select.
type CheckFlags struct {
	Enable, Disable []string
	// K8s is lint's --k8s DIR: a folder of Kubernetes manifests read
	// besides the fabric directory's own k8s/ folder.
	K8s string
	// Limit is lint's and fix's --limit: an Ansible-style pattern of the
	// devices to report on (inventory.ParseLimit); "" reports on all.
	Limit string
}

// notRun lists the checks set leaves out, in catalog order.
func notRun(set *checks.Set) string {
	var off []string
	for _, c := range append(checks.All(), checks.NotCollected) {
		if !set.Enabled(c.ID) {
			off = append(off, c.ID)
		}
	}
	return strings.Join(off, ", ")
}

// selectChecks resolves the inventory's checks section and the flags into
// the checks to report; an unknown name is an input error (exit 2).
func selectChecks(inv *inventory.Inventory, fl CheckFlags) (*checks.Set, error) {
	var enable, disable []checks.Selector
	for _, n := range inv.Checks.Enable {
		enable = append(enable, checks.Selector{Name: n.Name, Where: "checks.enable", Pos: n.Pos})
	}
	for _, n := range inv.Checks.Disable {
		disable = append(disable, checks.Selector{Name: n.Name, Where: "checks.disable", Pos: n.Pos})
	}
	for _, n := range fl.Enable {
		enable = append(enable, checks.Selector{Name: n, Where: "--enable"})
	}
	for _, n := range fl.Disable {
		disable = append(disable, checks.Selector{Name: n, Where: "--disable"})
	}
	if len(enable)+len(disable) == 0 {
		return nil, nil
	}
	return checks.Select(enable, disable)
}

// BuildReport lints the fabric directory dir, with the waivers of
// DIR/qoslint-waivers.yaml when it exists. The error is returned only when
// the inventory or the waiver file cannot be read; everything else is in
// the report.
func BuildReport(dir string, failOn judge.Severity) (*render.Report, error) {
	return buildReport(dir, "", failOn, CheckFlags{})
}

// BuildReportWith is BuildReport with --enable, --disable and --k8s.
func BuildReportWith(dir string, failOn judge.Severity, fl CheckFlags) (*render.Report, error) {
	return buildReport(dir, "", failOn, fl)
}

func buildReport(dir, waiverFile string, failOn judge.Severity, fl CheckFlags) (*render.Report, error) {
	dir = FabricDir(dir)
	inv, err := inventory.Load(dir)
	if err != nil {
		return nil, err
	}
	if len(inv.Switches)+len(inv.Hosts) == 0 {
		// A gate that checks nothing must not pass.
		return nil, &source.Error{Pos: source.Pos{File: inv.File}, Msg: "names no device: nothing to check"}
	}
	set, err := selectChecks(inv, fl)
	if err != nil {
		return nil, err
	}
	lim, err := parseLimit(inv, fl.Limit)
	if err != nil {
		return nil, err
	}
	// A broken waiver file is an input error like any other: the fabric is
	// still judged and printed (unwaived), and the exit code says 2.
	wf, werr := loadWaivers(dir, waiverFile)
	// Each device is built as soon as it is read, and its parse trees
	// go: the report needs only the model (TestLintScale's peak memory).
	b := fabric.NewBuilder(inv)
	capture := offline.CollectTo(dir, inv, b)
	if fl.K8s != "" {
		offline.ReadK8s(capture, os.DirFS(fl.K8s), ".", filepath.ToSlash(fl.K8s))
	}
	r := report(inv, capture, b, failOn, set)
	if werr != nil {
		r.Errors = append(r.Errors, waiverErrors(waiverFile, werr)...)
		limitReport(r, lim, false)
		return r, nil
	}
	applyWaivers(r, limitWaivers(wf, lim), set)
	limitReport(r, lim, false)
	return r, nil
}

// waiverErrors turns a waiver file's load error into input errors, each
// at its file and line where the parser named one.
func waiverErrors(file string, err error) []*source.Error {
	var we waivers.Errors
	if errors.As(err, &we) {
		return we
	}
	if file == "" {
		file = waivers.FileName
	}
	return []*source.Error{{Pos: source.Pos{File: file}, Msg: err.Error()}}
}

// loadWaivers reads the waiver file: file when set (it must exist), else
// dir/qoslint-waivers.yaml if there is one. Reports cite a file inside
// dir relative to it, as they cite every other evidence file.
func loadWaivers(dir, file string) (*waivers.File, error) {
	if file == "" {
		return waivers.Load(dir)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	name := file
	absDir, err1 := filepath.Abs(dir)
	absFile, err2 := filepath.Abs(file)
	if err1 == nil && err2 == nil {
		if rel, err := filepath.Rel(absDir, absFile); err == nil && filepath.IsLocal(rel) {
			name = filepath.ToSlash(rel)
		}
	}
	return waivers.Parse(name, data)
}

// applyWaivers marks the waived findings and adds the waiver file's own
// findings (expired or unused waivers). A waiver of a check that set
// leaves out is not unused, only not needed this time; an expired one is
// still reported.
func applyWaivers(r *render.Report, wf *waivers.File, set *checks.Set) {
	if wf == nil {
		return
	}
	if set != nil {
		kept := *wf
		kept.Waivers = nil
		for _, w := range wf.Waivers {
			if set.Enabled(w.Check) || w.Expired(now()) {
				kept.Waivers = append(kept.Waivers, w)
			}
		}
		wf = &kept
	}
	var problems []checks.Finding
	r.Findings, problems = wf.Apply(r.Findings, now())
	r.Findings = append(r.Findings, problems...)
	r.Waivers = wf.Name
	r.Normalize()
}

// runChecks runs the checks; tests count its calls.
var runChecks = checks.RunStatus

// report models a capture, runs the checks and assembles the report of
// every inventory device.
func report(inv *inventory.Inventory, capture *collectors.Capture, b *fabric.Builder, failOn judge.Severity, set *checks.Set) *render.Report {
	// Nothing below reads the capture once the model is built, so its parse
	// trees and file texts can go while the checks run: TestLintScale's
	// heap profiles at N=3000 hold 273 MB with the capture, 197 MB without.
	errs, notes, reads := capture.Errors, capture.Notes, groupReads(capture.Read)
	if b == nil {
		b = fabric.NewBuilder(inv)
	}
	fab := b.Build(capture)
	findings, statuses := runChecks(fab, set)
	r := &render.Report{
		Fabric:   inv.Fabric,
		Findings: findings,
		Statuses: statuses,
		Errors:   append(errs, fab.Problems...),
		FailOn:   failOn,
		Chain:    render.BuildChain(fab),
		Topology: render.BuildTopology(fab),
		Wire:     render.BuildWire(fab),
		Notes:    noteTexts(append(append([]*source.Error(nil), notes...), fab.Notes...)),
	}
	if off := notRun(set); off != "" {
		// A report of some checks must not read as a clean bill of health.
		r.Notes = append(r.Notes, "checks not run (--enable, --disable or the inventory's checks section): "+off)
	}
	r.Notes = append(r.Notes, statusNotes(statuses)...)
	modelled := map[string]*model.Switch{}
	for _, sw := range fab.Switches {
		modelled[sw.Name] = sw
	}
	for _, s := range inv.Switches {
		d := render.Device{Name: s.Name, Kind: layout.KindSwitch, Primary: primaryFile(layout.KindSwitch, s.Name, reads.of(s.Name), s.Pos)}
		if sw := modelled[s.Name]; sw != nil {
			d.Release, d.OS = render.SwitchRelease(sw), sw.OS
			if d.Release.Assumed != "" && hasNVUEChange(r.Findings, s.Name) {
				r.Notes = append(r.Notes, s.Name+": "+d.Release.Assumed)
			}
		}
		r.Devices = append(r.Devices, d)
	}
	for _, h := range inv.Hosts {
		r.Devices = append(r.Devices, render.Device{Name: h.Name, Kind: layout.KindHost, Primary: primaryFile(layout.KindHost, h.Name, reads.of(h.Name), h.Pos)})
	}
	r.Statuses = append(r.Statuses, unmodelledStatuses(r.Devices, statuses)...)
	r.Normalize()
	return r
}

// unmodelledStatuses are the statuses of the devices the model lacks (a
// device folder that could not be read): no check ran on them, which no
// format may show as a pass.
func unmodelledStatuses(devs []render.Device, sts []checks.Status) []checks.Status {
	have := map[string]bool{}
	for _, s := range sts {
		have[s.Device] = true
	}
	var out []checks.Status
	for _, d := range devs {
		if have[d.Name] {
			continue
		}
		for _, c := range checks.All() {
			out = append(out, checks.NewStatus(d.Name, c.ID, checks.SkipNotCollected, "the device's files were not read (see its input errors)", ""))
		}
	}
	return out
}

// statusNotes are the notes of the checks that ran on little (counters
// that did not grow between two samples): one per device and note, naming
// its checks.
func statusNotes(sts []checks.Status) []string {
	type key struct{ dev, note string }
	var order []key
	ids := map[key][]string{}
	for _, s := range sts {
		if s.Note() == "" {
			continue
		}
		k := key{s.Device, s.Note()}
		if _, ok := ids[k]; !ok {
			order = append(order, k)
		}
		ids[k] = append(ids[k], s.Check())
	}
	out := make([]string, len(order))
	for i, k := range order {
		out[i] = fmt.Sprintf("%s: %s: %s", k.dev, strings.Join(ids[k], ", "), k.note)
	}
	return out
}

// hasNVUEChange reports whether a finding of device fixes it with an NVUE
// command, which its release decides.
func hasNVUEChange(fs []checks.Finding, device string) bool {
	for _, f := range fs {
		for _, c := range f.Changes {
			if f.Device == device && (c.Kind == checks.NVUE || c.Kind == checks.NVUEUnset) {
				return true
			}
		}
	}
	return false
}

// runSince is the run that started at start and ends now.
func runSince(start time.Time) *render.RunInfo {
	return &render.RunInfo{Start: start, Duration: now().Sub(start)}
}

// hostname is the machine's name as the junit format's hostname wants it;
// tests set it.
var hostname = func() string {
	// JUnit.xsd (windyroad/JUnit-Schema): "'localhost' should be used if
	// the hostname cannot be determined."
	if h, err := os.Hostname(); err == nil && h != "" {
		return h
	}
	return "localhost"
}

// Lint writes the report for dir to out and returns the exit code. The
// report is always printed before the code is decided.
func Lint(out, errOut io.Writer, dir string, opt LintOptions) int {
	ss, ok := sinks(errOut, opt.Format, opt.Outputs)
	if !ok {
		return ExitInput
	}
	prefix, err := pathPrefix(opt.PathPrefix, FabricDir(dir), true)
	if err != nil {
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return ExitInput
	}
	start := now()
	r, err := buildReport(dir, opt.Waivers, opt.FailOn, opt.Checks)
	if err != nil {
		return failedRun(out, errOut, err, ss, opt.FailOn, opt.Style, start, prefix)
	}
	r.PathPrefix = prefix
	r.Run = runSince(start)
	r.Host = hostname()
	opt.Style.apply(r)
	return emit(out, errOut, r, ss, opt.Fix, gcu.FromDir(FabricDir(dir)), ExitInput)
}

// emit adds the fix plans when asked, prints the report in every output,
// then decides the exit code: ExitInput when an output could not be
// written, inputCode when anything could not be read, ExitFindings for
// findings at or above --fail-on. The report is always printed first.
//
// read returns a capture's file by its path in the fabric directory: a
// SONiC switch's plan is written against its config_db.json.
func emit(out, errOut io.Writer, r *render.Report, ss []sink, fix bool, read func(string) ([]byte, error), inputCode int) int {
	if fix {
		var err error
		if r.Plans, err = render.Plans(r); err != nil {
			fmt.Fprintf(errOut, "qoslint: %v\n", err)
			return ExitInput
		}
		if err := gcu.Fill(r.Plans, read); err != nil {
			fmt.Fprintf(errOut, "qoslint: %v\n", err)
			return ExitInput
		}
	}
	if !write(out, errOut, r, ss) {
		return ExitInput
	}
	switch {
	case len(r.Errors) > 0:
		return inputCode
	case r.Failed():
		return ExitFindings
	}
	return ExitOK
}
