package app

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"path/filepath"
	"sync"
	"time"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/fabric"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model/snapshot"
	"github.com/qoslint/qoslint/render"
)

// Defaults of serve (`qoslint help serve`).
const (
	DefaultServeListen   = "127.0.0.1:9753"
	DefaultServeInterval = 10 * time.Minute
	DefaultServeKeep     = 48
	// DefaultServeGrace bounds shutdown: the HTTP server and the run in
	// flight (cancelled at once) get this long to end.
	DefaultServeGrace = 10 * time.Second
	// StateDirName is the default state directory, beside the inventory.
	StateDirName = "qoslint-state"
)

// Results of qoslint_runs_total.
const (
	RunOK         = "ok"         // nothing at or above --fail-on, nothing unread
	RunFindings   = "findings"   // findings at or above --fail-on
	RunIncomplete = "incomplete" // some devices or files could not be read
	RunError      = "error"      // no audit: the inventory or its checks could not be read
)

// ServeOptions are serve's settings.
type ServeOptions struct {
	LiveOptions
	Listen string
	// AllowRemote permits a Listen address that is not loopback.
	AllowRemote bool
	// Every is the time between two runs; each wait adds up to a tenth
	// of it at random, so many instances do not hit the fabric together.
	Every    time.Duration
	StateDir string // "" is qoslint-state beside the inventory
	Keep     int    // snapshots kept in StateDir, at least 2
	Grace    time.Duration
	FailOn   judge.Severity
	Waivers  string
	Checks   CheckFlags
	// Ready, when set, learns the address once the server listens (tests
	// listen on port 0).
	Ready func(addr string)
	// afterRun, in tests, is called after each scheduled run, before the
	// wait for the next: a test changes the fabric between two runs.
	afterRun func()
}

// server is serve's state: the latest report and the runs' counters. One
// run at a time (scheduled or probe) holds sem.
type server struct {
	opt    ServeOptions
	errOut io.Writer
	sem    chan struct{}
	runs   *prometheus.CounterVec
	reg    *prometheus.Registry
	state  *stateDir

	mu     sync.RWMutex
	latest *render.Report
}

// Serve audits the fabric every opt.Every and serves the results over HTTP
// (/metrics, /probe, /report, /drift, /healthz) until ctx ends. It returns
// ExitInput when the settings, the inventory or the waivers are wrong, or
// the address cannot be listened on; ExitOK after a graceful shutdown.
func Serve(ctx context.Context, errOut io.Writer, opt ServeOptions) int {
	errOut = &lockedWriter{w: errOut}
	s, err := newServer(errOut, opt)
	if err != nil {
		printLoadError(errOut, err)
		return ExitInput
	}
	ln, err := net.Listen("tcp", s.opt.Listen)
	if err != nil {
		fmt.Fprintf(errOut, "qoslint: %v\n", err)
		return ExitInput
	}
	srv := &http.Server{Handler: s.mux(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	fmt.Fprintf(errOut, "qoslint: serving http://%s/metrics, auditing %s every %s\n", ln.Addr(), opt.Inventory, s.opt.Every)
	if opt.Ready != nil {
		opt.Ready(ln.Addr().String())
	}
	loopDone := make(chan struct{})
	go func() { defer close(loopDone); s.loop(ctx) }()
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), s.opt.Grace)
	defer cancel()
	_ = srv.Shutdown(sctx)
	select {
	case <-loopDone:
	case <-sctx.Done():
		fmt.Fprintf(errOut, "qoslint: the run in flight did not stop within %s\n", s.opt.Grace)
	}
	fmt.Fprintln(errOut, "qoslint: serve stopped")
	return ExitOK
}

// newServer checks everything that can be checked before the first run:
// a mistake in the settings, the inventory or the waivers stops serve at
// once rather than at every run.
func newServer(errOut io.Writer, opt ServeOptions) (*server, error) {
	if opt.Listen == "" {
		opt.Listen = DefaultServeListen
	}
	if opt.Every <= 0 {
		opt.Every = DefaultServeInterval
	}
	if opt.Grace <= 0 {
		opt.Grace = DefaultServeGrace
	}
	if opt.Keep == 0 {
		opt.Keep = DefaultServeKeep
	}
	if opt.StateDir == "" {
		opt.StateDir = filepath.Join(filepath.Dir(opt.Inventory), StateDirName)
	}
	if err := checkServeOptions(opt); err != nil {
		return nil, err
	}
	inv, err := inventory.LoadFile(opt.Inventory)
	if err != nil {
		return nil, err
	}
	if _, err := selectChecks(inv, opt.Checks); err != nil {
		return nil, err
	}
	if _, err := loadWaivers(filepath.Dir(opt.Inventory), opt.Waivers); err != nil {
		return nil, err
	}
	st, err := openStateDir(opt.StateDir, opt.Keep)
	if err != nil {
		return nil, err
	}
	s := &server{opt: opt, errOut: errOut, sem: make(chan struct{}, 1), state: st}
	s.runs = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "qoslint_runs_total", Help: "Scheduled runs by result (ok, findings, incomplete, error).",
	}, []string{"result"})
	for _, r := range []string{RunOK, RunFindings, RunIncomplete, RunError} {
		s.runs.WithLabelValues(r) // every result exported from the start, at 0
	}
	s.reg = prometheus.NewPedanticRegistry()
	s.reg.MustRegister(s.runs, render.BuildInfoCollector{}, render.ReportCollector{Report: s.report})
	return s, nil
}

func checkServeOptions(opt ServeOptions) error {
	switch {
	case opt.Keep < 2:
		return fmt.Errorf("--keep %d: at least 2 (/drift compares the last two runs)", opt.Keep)
	case opt.Workers < 1:
		return fmt.Errorf("--workers %d: at least 1 device at a time", opt.Workers)
	}
	return checkListen(opt.Listen, opt.AllowRemote)
}

// checkListen refuses an address beyond loopback unless allowed: the
// endpoints show the fabric's configuration and findings, and /probe
// makes qoslint log in to a device, to anyone who can connect.
func checkListen(addr string, allowRemote bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--listen %q: %v", addr, err)
	}
	if allowRemote || host == "localhost" {
		return nil
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--listen %s is not a loopback address: anyone who can connect would read the fabric's configuration and make qoslint log in to its devices; add --allow-remote to mean it", addr)
}

func (s *server) report() *render.Report {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.latest
}

// loop runs an audit at once, then one every Every plus jitter, until ctx
// ends.
func (s *server) loop(ctx context.Context) {
	for {
		s.scheduled(ctx)
		if s.opt.afterRun != nil {
			s.opt.afterRun()
		}
		wait := s.opt.Every + rand.N(s.opt.Every/10+1)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// acquire waits for the run in flight, if any, to end.
func (s *server) acquire(ctx context.Context) bool {
	select {
	case s.sem <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (s *server) release() { <-s.sem }

// scheduled runs one audit of the whole fabric, publishes its report and
// keeps its snapshot.
func (s *server) scheduled(ctx context.Context) {
	if !s.acquire(ctx) {
		return
	}
	defer s.release()
	inv, err := inventory.LoadFile(s.opt.Inventory)
	if err != nil {
		printLoadError(s.errOut, err)
		s.runs.WithLabelValues(RunError).Inc()
		return
	}
	r, a, ok := s.audit(ctx, inv)
	if !ok {
		s.runs.WithLabelValues(RunError).Inc()
		return
	}
	if ctx.Err() != nil {
		return // interrupted: half a fabric is no report
	}
	snap := snapshot.Take(fabric.Build(a.ok, a.capture))
	snap.AddInputErrors(append(append([]*source.Error(nil), a.capture.Errors...), a.failures...))
	if err := s.state.add(r.Run.Start, snap); err != nil {
		fmt.Fprintf(s.errOut, "qoslint: keeping the snapshot: %v\n", err)
	}
	s.mu.Lock()
	s.latest = r
	s.mu.Unlock()
	result := runResult(r)
	s.runs.WithLabelValues(result).Inc()
	c := r.Counts()
	fmt.Fprintf(s.errOut, "qoslint: run %s: %d devices, %d findings (%d errors), %d input errors, in %s\n",
		result, len(r.Devices), c.Error+c.Warning+c.Info, c.Error, len(r.Errors), r.Run.Duration.Round(time.Millisecond))
}

func runResult(r *render.Report) string {
	switch {
	case len(r.Errors) > 0:
		return RunIncomplete
	case r.Failed():
		return RunFindings
	}
	return RunOK
}

// audit collects inv's devices and reports on them as Audit does; false
// when the run could not start (an unknown check, an invalid inventory).
func (s *server) audit(ctx context.Context, inv *inventory.Inventory) (*render.Report, audited, bool) {
	start := now()
	set, err := selectChecks(inv, s.opt.Checks)
	if err != nil {
		printLoadError(s.errOut, err)
		return nil, audited{}, false
	}
	res, code := collectInventory(ctx, s.errOut, inv, s.opt.LiveOptions)
	if code != ExitOK {
		return nil, audited{}, false
	}
	a := splitAudited(inv, filepath.Dir(s.opt.Inventory), res)
	r := auditedReport(a, s.opt.FailOn, set)
	// Waivers are read each run, so an edit needs no restart; a broken
	// file is an input error of the run, as for lint.
	if wf, err := loadWaivers(filepath.Dir(s.opt.Inventory), s.opt.Waivers); err != nil {
		r.Errors = append(r.Errors, waiverErrors(s.opt.Waivers, err)...)
		r.Normalize()
	} else {
		applyWaivers(r, wf, set)
	}
	if s.opt.InsecureSkipHostKeyCheck {
		r.Notes = append(r.Notes, "host keys were NOT verified (--insecure-skip-host-key-check)")
	}
	r.Run = runSince(start)
	return r, a, true
}

// lockedWriter serializes writes: runs and HTTP handlers log at once.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
