package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/checks/waivers"
	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/live"
	"github.com/qoslint/qoslint/collectors/memfs"
	"github.com/qoslint/qoslint/collectors/nvue/nvuemodel"
	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/render"
)

// LiveOptions are the settings shared by audit and collect.
type LiveOptions struct {
	Inventory      string // the inventory file
	Workers        int
	CommandTimeout time.Duration
	DeviceTimeout  time.Duration
	// InsecureSkipHostKeyCheck turns off host key verification; the report
	// says so.
	InsecureSkipHostKeyCheck bool
	// Getenv reads password_env variables; nil means os.Getenv.
	Getenv func(string) string
	// Progress, when not nil, gets a progress bar (a terminal's stderr).
	Progress io.Writer
	// Counters also collects runtime counters: ethtool -S of every RoCE NIC
	// and every switch's gnmi-counters.json over gNMI.
	Counters bool
	// Interval, with Counters, takes the counters twice this far apart so
	// the evidence checks judge the deltas (live.Options.Interval).
	Interval time.Duration
	// Force is collect's: a non-empty output folder is replaced whole
	// instead of refused.
	Force bool
	// MaxOutput is what one command may print (live.Options.MaxOutput).
	MaxOutput int64
	// JobEnv also reads the job environment of running NCCL processes
	// (live.Options.JobEnv).
	JobEnv bool
	// Limit is audit's and collect's --limit: only the devices this
	// Ansible-style pattern selects are dialled (inventory.ParseLimit);
	// "" dials every device.
	Limit string
}

// AuditOptions are audit's settings.
type AuditOptions struct {
	LiveOptions
	Format string
	FailOn judge.Severity
	Fix    bool
	// Waivers is the waiver file; "" means qoslint-waivers.yaml beside
	// the inventory when it exists.
	Waivers string
	Checks  CheckFlags
	Style   Style

	// Outputs, when set, are the reports to write (-f FORMAT[=PATH]);
	// Format is then unused.
	Outputs []Output
	// PathPrefix is --path-prefix (LintOptions.PathPrefix); "" means the
	// inventory folder's path below the git work tree that holds it.
	PathPrefix string
	// noRepo leaves the prefix to PathPrefix alone: demo's fabric is in a
	// temporary folder of no repository.
	noRepo bool
}

// collectLive loads the inventory and collects every device.
func collectLive(ctx context.Context, errOut io.Writer, opt LiveOptions) (*inventory.Inventory, *live.Result, int) {
	inv, err := inventory.LoadFile(opt.Inventory)
	if err != nil {
		printLoadError(errOut, err)
		return nil, nil, ExitInput
	}
	lim, err := parseLimit(inv, opt.Limit)
	if err != nil {
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return nil, nil, ExitInput
	}
	res, code := collectInventory(ctx, errOut, lim.Apply(inv), opt)
	return inv, res, code
}

func liveOptions(opt LiveOptions) live.Options {
	return live.Options{
		Workers: opt.Workers, CommandTimeout: opt.CommandTimeout, DeviceTimeout: opt.DeviceTimeout,
		InsecureSkipHostKeyCheck: opt.InsecureSkipHostKeyCheck,
		InventoryDir:             filepath.Dir(opt.Inventory),
		Getenv:                   opt.Getenv,
		Counters:                 opt.Counters,
		Interval:                 opt.Interval,
		MaxOutput:                opt.MaxOutput,
		JobEnv:                   opt.JobEnv,
		RoCEPorts:                nvuemodel.CheckedPorts,
	}
}

// collectInventory collects the devices of inv, loaded from
// opt.Inventory (serve's probe passes a part of it).
func collectInventory(ctx context.Context, errOut io.Writer, inv *inventory.Inventory, opt LiveOptions) (*live.Result, int) {
	lo := liveOptions(opt)
	if err := live.Validate(inv, lo); err != nil {
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return nil, ExitInput
	}
	if opt.Progress != nil {
		n := len(inv.Switches) + len(inv.Hosts)
		if opt.Counters && opt.Interval > 0 {
			n *= 2 // every device is collected once per sample
		}
		bar := newProgress(opt.Progress, n)
		defer bar.finish()
		lo.OnEvent = bar.event
	}
	return live.Collect(ctx, inv, lo), ExitOK
}

// Audit collects the inventory's devices live and reports on them exactly
// as lint reports on a fabric directory: the collected files are read by
// the same offline collector, so `qoslint collect` + `qoslint lint` gives
// the same findings.
func Audit(ctx context.Context, out, errOut io.Writer, opt AuditOptions) int {
	ss, ok := sinks(errOut, opt.Format, opt.Outputs)
	if !ok {
		return ExitInput
	}
	start := now()
	// What cannot be read stops the run before any device is dialled,
	// with a report of the errors in every output.
	prefix, err := pathPrefix(opt.PathPrefix, filepath.Dir(opt.Inventory), !opt.noRepo)
	if err != nil {
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return ExitInput
	}
	failed := func(err error) int { return failedRun(out, errOut, err, ss, opt.FailOn, opt.Style, start, prefix) }
	// The waivers are read first: a typo in them must not cost a
	// whole collection to find out.
	wf, err := loadWaivers(filepath.Dir(opt.Inventory), opt.Waivers)
	if err != nil {
		return failed(err)
	}
	inv, err := inventory.LoadFile(opt.Inventory)
	if err != nil {
		return failed(err)
	}
	// So are the checks: an unknown name is an input error before any
	// device is dialled.
	set, err := selectChecks(inv, opt.Checks)
	if err != nil {
		return failed(err)
	}
	lim, err := parseLimit(inv, opt.Limit)
	if err != nil {
		return failed(err)
	}
	if err := live.Validate(inv, liveOptions(opt.LiveOptions)); err != nil {
		return failed(err)
	}
	res, code := collectInventory(ctx, errOut, lim.Apply(inv), opt.LiveOptions)
	if code != ExitOK {
		return code
	}
	r := liveReport(inv, filepath.Dir(opt.Inventory), res, opt.FailOn, set)
	applyWaivers(r, limitWaivers(wf, lim), set)
	limitReport(r, lim, true)
	r.PathPrefix = prefix
	r.Run = runSince(start)
	r.Host = hostname()
	if opt.InsecureSkipHostKeyCheck {
		r.Notes = append(r.Notes, "host keys were NOT verified (--insecure-skip-host-key-check)")
	}
	opt.Style.apply(r)
	return emit(out, errOut, r, ss, opt.Fix, func(rel string) ([]byte, error) {
		if data, ok := res.Files[rel]; ok {
			return data, nil
		}
		return nil, fmt.Errorf("%s was not collected", rel)
	}, ExitIncomplete)
}

// liveReport checks what was collected; devices that could not be collected
// are input errors naming their cause, and are not checked.
func liveReport(inv *inventory.Inventory, invDir string, res *live.Result, failOn judge.Severity, set *checks.Set) *render.Report {
	return auditedReport(splitAudited(inv, invDir, res), failOn, set)
}

func auditedReport(a audited, failOn judge.Severity, set *checks.Set) *render.Report {
	r := report(a.ok, a.capture, nil, failOn, set)
	r.Errors = append(r.Errors, a.failures...)
	for _, e := range a.failures {
		r.Devices = append(r.Devices, render.Device{Name: e.Device, Kind: a.kinds[e.Device], Primary: primaryFile(a.kinds[e.Device], e.Device, nil, a.decl[e.Device])})
		r.NotAudited = append(r.NotAudited, e.Device)
	}
	sort.Strings(r.NotAudited)
	r.Notes = append(r.Notes, noteTexts(a.notes)...)
	r.Normalize()
	return r
}

// audited is a live collection split into the devices that were collected
// (ok, read from capture) and those that were not (one input error each).
type audited struct {
	ok       *inventory.Inventory
	capture  *collectors.Capture
	failures []*source.Error
	kinds    map[string]string
	notes    []*source.Error
	// decl is where the inventory declares each device that could not be
	// collected.
	decl map[string]source.Pos
}

// splitAudited also reads the intent files beside the inventory
// (intentFiles), as lint reads them beside the devices folder.
func splitAudited(inv *inventory.Inventory, invDir string, res *live.Result) audited {
	failed := map[string]string{}
	a := audited{kinds: map[string]string{}, decl: map[string]source.Pos{}}
	for _, st := range res.Status {
		if st.Err != "" {
			failed[st.Name] = st.Err
		}
		for _, n := range st.Notes {
			a.notes = append(a.notes, &source.Error{Device: st.Name, Msg: n})
		}
	}
	ok := *inv
	ok.Switches, ok.Hosts = nil, nil
	for _, s := range inv.Switches {
		if msg, bad := failed[s.Name]; bad {
			a.kinds[s.Name] = layout.KindSwitch
			a.decl[s.Name] = s.Pos
			a.failures = append(a.failures, &source.Error{Device: s.Name, Msg: render.NotAudited + cause(s.Name, msg)})
		} else {
			ok.Switches = append(ok.Switches, s)
		}
	}
	for _, h := range inv.Hosts {
		if msg, bad := failed[h.Name]; bad {
			a.kinds[h.Name] = layout.KindHost
			a.decl[h.Name] = h.Pos
			a.failures = append(a.failures, &source.Error{Device: h.Name, Msg: render.NotAudited + cause(h.Name, msg)})
		} else {
			ok.Hosts = append(ok.Hosts, h)
		}
	}
	// A failed device's partial files are left out: it is reported once,
	// with the cause of the failure.
	files := map[string][]byte{}
	for name, data := range res.Files {
		if _, bad := failed[strings.Split(strings.TrimPrefix(name, layout.DevicesDir+"/"), "/")[0]]; !bad {
			files[name] = data
		}
	}
	for _, name := range intentFiles {
		if data, err := os.ReadFile(filepath.Join(invDir, name)); err == nil {
			files[name] = data
		}
	}
	a.ok = &ok
	a.capture = offline.CollectFS(memfs.New(files, layout.DevicesDir), &ok)
	return a
}

// cause is a live device's failure without the device name the collector
// puts in front (live.Status.Err), for messages that name the device
// themselves: "gpu01: gpu01: ..." says nothing twice.
func cause(device, err string) string {
	return strings.TrimPrefix(err, device+": ")
}

// noteTexts prints notes sorted, each text once: a remark repeated by
// several files or ports of one device says nothing more the second time.
func noteTexts(es []*source.Error) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range es {
		if t := e.Error(); !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

// Collect collects the inventory's devices live and writes the fabric
// directory (inventory and capture manifest included) to outDir, even when
// interrupted: what was collected is kept, and the manifest says what is
// missing. outDir must be new or empty unless opt.Force; it appears whole,
// at once, when the collection is over.
func Collect(ctx context.Context, errOut io.Writer, opt LiveOptions, outDir string) int {
	// Refused before anything is dialled: a collection can take minutes.
	if err := checkOutDir(outDir, opt.Force, opt.Inventory); err != nil {
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return ExitInput
	}
	inv, res, code := collectLive(ctx, errOut, opt)
	if code != ExitOK {
		return code
	}
	err := writeDirAtomic(outDir, opt.Force, func(tmp string) error {
		if err := res.WriteDir(tmp); err != nil {
			return err
		}
		return copyInventory(opt.Inventory, tmp)
	}, opt.Inventory)
	if err != nil {
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return ExitInput
	}
	n := 0
	for _, st := range res.Status {
		if st.Err != "" {
			n++
			fmt.Fprintf(errOut, "qoslint: %s: %s\n", st.Name, cause(st.Name, st.Err))
		}
		for _, note := range st.Notes {
			fmt.Fprintf(errOut, "qoslint: %s: %s\n", st.Name, cause(st.Name, note))
		}
	}
	devices := len(inv.Switches) + len(inv.Hosts)
	if lim, _ := parseLimit(inv, opt.Limit); lim != nil {
		// lint of a partial capture without the same limit fails on the
		// devices it lacks, as it should.
		devices = len(lim.Names())
		fmt.Fprintf(errOut, "qoslint: limited collection (--limit %s): %d of %d devices; lint it with the same --limit\n",
			opt.Limit, devices, len(inv.Switches)+len(inv.Hosts))
	}
	fmt.Fprintf(errOut, "qoslint: wrote %d files of %d devices to %s (%d failed)\n",
		len(res.Files), devices, outDir, n)
	if res.Interrupted {
		fmt.Fprintf(errOut, "qoslint: the collection was interrupted: lint of %s will not pass\n", outDir)
	}
	if res.Incomplete() || res.Interrupted {
		return ExitIncomplete
	}
	return ExitOK
}

// copyInventory puts the inventory beside the devices under the name lint
// looks for, keeping its format.
func copyInventory(src, outDir string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	name := "inventory.yaml"
	if strings.EqualFold(filepath.Ext(src), ".hcl") {
		name = "inventory.hcl"
	}
	if err := os.WriteFile(filepath.Join(outDir, name), data, 0o644); err != nil {
		return err
	}
	// The waivers and the intent files audit would apply go along, so that
	// lint of the capture reports what audit reports.
	return copyOptional(filepath.Dir(src), outDir, append([]string{waivers.FileName}, intentFiles...))
}

// copyOptional copies each named file from one folder to another; a file
// that is not there is skipped.
func copyOptional(from, to string, names []string) error {
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(from, name))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return err
		}
		if err := os.WriteFile(filepath.Join(to, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// intentFiles are what the operator writes beside the inventory and no
// device prints: the cabling plan. Audit reads them from there, lint from
// the fabric directory's root.
var intentFiles = []string{layout.TopologyFile}

// progress draws devices done / failed / remaining.
type progress struct {
	mu     sync.Mutex
	bar    *progressbar.ProgressBar
	failed int
	total  int
}

func newProgress(w io.Writer, total int) *progress {
	return &progress{total: total, bar: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("collecting"),
		progressbar.OptionShowCount(),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

func (p *progress) event(e live.Event) {
	if e.Kind == live.Started {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if e.Kind == live.Failed {
		p.failed++
		p.bar.Describe(fmt.Sprintf("collecting (%d failed)", p.failed))
	}
	_ = p.bar.Add(1)
}

func (p *progress) finish() { _ = p.bar.Finish() }

func printLoadError(errOut io.Writer, err error) {
	var ie inventory.Errors
	if errors.As(err, &ie) {
		for _, e := range ie {
			fmt.Fprintf(errOut, "qoslint: %s\n", e.Error())
		}
		return
	}
	var we waivers.Errors
	if errors.As(err, &we) {
		for _, e := range we {
			fmt.Fprintf(errOut, "qoslint: %s\n", e.Error())
		}
		return
	}
	fmt.Fprintf(errOut, "qoslint: %v\n", err)
}
