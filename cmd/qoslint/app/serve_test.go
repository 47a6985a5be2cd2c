package app

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/collectors/sim"
	qmodel "github.com/qoslint/qoslint/model"
)

// get fetches path from the server and checks its status and content type.
func get(t *testing.T, base, path string, code int, ctype string) []byte {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != code || !strings.HasPrefix(resp.Header.Get("Content-Type"), ctype) {
		t.Errorf("GET %s: %d %q, want %d %q\n%s", path, resp.StatusCode, resp.Header.Get("Content-Type"), code, ctype, body)
	}
	if bytes.Contains(body, []byte(testPassword)) {
		t.Errorf("GET %s: the password leaked", path)
	}
	return body
}

// metric reads one series from the exposition text: the family's sample
// whose labels include every name=value of want (-1 when there is none).
func metric(t *testing.T, text []byte, family string, want ...string) float64 {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(bytes.NewReader(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	mf := mfs[family]
	if mf == nil {
		return -1
	}
	for _, m := range mf.GetMetric() {
		have := map[string]bool{}
		for _, l := range m.GetLabel() {
			have[l.GetName()+"="+l.GetValue()] = true
		}
		all := true
		for _, w := range want {
			all = all && have[w]
		}
		if all {
			return value(m)
		}
	}
	return -1
}

func value(m *dto.Metric) float64 {
	if m.GetCounter() != nil {
		return m.GetCounter().GetValue()
	}
	return m.GetGauge().GetValue()
}

// startServe runs Serve on a copy of the clean example served by the
// simulator; each scheduled run blocks in afterRun until the test lets it
// go on, so the test changes the fabric between two runs.
func startServe(t *testing.T) (base string, f *sim.Fabric, stateDir string, ran chan struct{}, next chan struct{}, stop func() int, errOut *bytes.Buffer) {
	t.Helper()
	inv, f := simulate(t, copyDir(t, "../../../examples/clean-pod"), nil)
	stateDir = filepath.Join(t.TempDir(), "state")
	ran, next = make(chan struct{}), make(chan struct{})
	addr := make(chan string, 1)
	opt := ServeOptions{
		LiveOptions: liveOpts(inv), Listen: "127.0.0.1:0", Every: 10 * time.Millisecond,
		StateDir: stateDir, Keep: 3, FailOn: judge.Error, Grace: 5 * time.Second,
		Ready:    func(a string) { addr <- a },
		afterRun: func() { ran <- struct{}{}; <-next },
	}
	ctx, cancel := context.WithCancel(context.Background())
	errOut = &bytes.Buffer{}
	code := make(chan int, 1)
	go func() { code <- Serve(ctx, errOut, opt) }()
	select {
	case a := <-addr:
		base = "http://" + a
	case c := <-code:
		t.Fatalf("serve exit %d: %s", c, errOut)
	}
	stop = func() int {
		cancel()
		close(next)
		select {
		case c := <-code:
			return c
		case <-time.After(10 * time.Second):
			t.Fatal("serve did not stop within 10s")
		}
		return -1
	}
	return base, f, stateDir, ran, next, stop, errOut
}

func waitRun(t *testing.T, ran chan struct{}) {
	t.Helper()
	select {
	case <-ran:
	case <-time.After(60 * time.Second):
		t.Fatal("no run within 60s")
	}
}

// TestServe: a clean first run; a host whose NCCL ToS changes shows in
// the metrics and /drift; a switch that goes down shows as failed; the
// state directory keeps --keep snapshots; every endpoint answers with its
// status and content type, and never the password.
func TestServe(t *testing.T) {
	base, simFabric, stateDir, ran, next, stop, errOut := startServe(t)
	get(t, base, "/healthz", 200, "text/plain")

	waitRun(t, ran) // run 1: the clean fabric
	m := get(t, base, "/metrics", 200, "text/plain")
	for _, c := range []struct {
		family string
		labels []string
		want   float64
	}{
		{"qoslint_devices", []string{"kind=switch", "status=ok"}, 4},
		{"qoslint_devices", []string{"kind=host", "status=ok"}, 4},
		{"qoslint_devices", []string{"kind=switch", "status=failed"}, 0},
		{"qoslint_input_errors", nil, 0},
		{"qoslint_runs_total", []string{"result=ok"}, 1},
		{"qoslint_runs_total", []string{"result=error"}, 0},
		{"qoslint_build_info", nil, 1},
	} {
		if got := metric(t, m, c.family, c.labels...); got != c.want {
			t.Errorf("run 1: %s%v = %v, want %v", c.family, c.labels, got, c.want)
		}
	}
	if metric(t, m, "qoslint_findings") != -1 || metric(t, m, "qoslint_last_run_timestamp_seconds") <= 0 {
		t.Errorf("run 1: findings on the clean fabric, or no timestamp:\n%s", m)
	}
	html := get(t, base, "/report", 200, "text/html")
	if !bytes.Contains(html, []byte("<!DOCTYPE html>")) {
		t.Error("/report is not the HTML report")
	}
	get(t, base, "/drift", 503, "text/plain")
	probeChecks(t, base)

	// Between run 1 and 2: gpu01 sends DSCP 26 as its ToS (a ToS of 26 is DSCP 6).
	if err := simFabric.SetFile("gpu01", "nccl.conf", []byte("NCCL_IB_TC=26\n")); err != nil {
		t.Fatal(err)
	}
	next <- struct{}{}
	waitRun(t, ran) // run 2
	m = get(t, base, "/metrics", 200, "text/plain")
	if got := metric(t, m, "qoslint_findings", "device=gpu01", "check=host-tos", "severity=error"); got < 1 {
		t.Errorf("run 2: host-tos findings of gpu01 = %v, want at least 1\n%s", got, m)
	}
	if got := metric(t, m, "qoslint_devices", "kind=host", "status=findings"); got != 1 {
		t.Errorf("run 2: hosts with findings = %v, want 1", got)
	}
	if got := metric(t, m, "qoslint_runs_total", "result=findings"); got != 1 {
		t.Errorf("run 2: runs with findings = %v, want 1", got)
	}
	text := string(get(t, base, "/drift", 200, "text/plain"))
	if !strings.Contains(text, "gpu01 (host, changed)") || !strings.Contains(text, "host-tos") {
		t.Errorf("/drift does not show gpu01's ToS change:\n%s", text)
	}
	var dj map[string]any
	if err := json.Unmarshal(get(t, base, "/drift?format=json", 200, "application/json"), &dj); err != nil {
		t.Errorf("/drift?format=json: %v", err)
	}
	get(t, base, "/drift?format=html", 200, "text/html")
	get(t, base, "/drift?format=markdown", 200, "text/markdown")
	get(t, base, "/drift?format=yaml", 400, "text/plain")

	// Between run 2 and 3: leaf02 loses power.
	if err := simFabric.Down("leaf02"); err != nil {
		t.Fatal(err)
	}
	next <- struct{}{}
	waitRun(t, ran) // run 3
	m = get(t, base, "/metrics", 200, "text/plain")
	if got := metric(t, m, "qoslint_devices", "kind=switch", "status=failed"); got != 1 {
		t.Errorf("run 3: failed switches = %v, want 1\n%s", got, m)
	}
	if metric(t, m, "qoslint_input_errors") < 1 || metric(t, m, "qoslint_runs_total", "result=incomplete") != 1 {
		t.Errorf("run 3: the failed switch is not an input error of an incomplete run\n%s", m)
	}
	if m := get(t, base, "/probe?target=leaf02", 200, "text/plain"); metric(t, m, "probe_success") != 0 || metric(t, m, "probe_duration_seconds") <= 0 {
		t.Errorf("probe of the switch that is down: probe_success is not 0\n%s", m)
	}
	if text := string(get(t, base, "/drift", 200, "text/plain")); !strings.Contains(text, "leaf02") {
		t.Errorf("/drift does not name leaf02, which was not audited:\n%s", text)
	}

	next <- struct{}{}
	waitRun(t, ran) // run 4: the oldest snapshot goes (--keep 3)
	if names := snapshotNames(t, stateDir); len(names) != 3 {
		t.Errorf("state dir keeps %v, want 3 snapshots", names)
	}
	if code := stop(); code != ExitOK {
		t.Errorf("serve exit %d", code)
	}
	if strings.Contains(errOut.String(), testPassword) {
		t.Error("the password leaked into the log")
	}
}

// probeChecks: /probe audits one device (blackbox style); no target is
// 400, a device the inventory lacks 404.
func probeChecks(t *testing.T, base string) {
	t.Helper()
	m := get(t, base, "/probe?target=gpu02", 200, "text/plain")
	if got := metric(t, m, "qoslint_devices", "kind=host", "status=ok"); got != 1 {
		t.Errorf("probe of gpu02: hosts ok = %v, want 1\n%s", got, m)
	}
	if got := metric(t, m, "qoslint_devices", "kind=switch", "status=ok"); got != 0 {
		t.Errorf("probe of gpu02 audited switches too: %v", got)
	}
	if metric(t, m, "qoslint_run_duration_seconds") < 0 {
		t.Error("probe without a duration")
	}
	// The blackbox exporter's own two gauges, with its HELP texts.
	if metric(t, m, "probe_success") != 1 || metric(t, m, "probe_duration_seconds") <= 0 ||
		!bytes.Contains(m, []byte("# HELP probe_success Displays whether or not the probe was a success\n")) ||
		!bytes.Contains(m, []byte("# HELP probe_duration_seconds Returns how long the probe took to complete in seconds\n")) {
		t.Errorf("probe of gpu02: no blackbox probe_success 1 and probe_duration_seconds\n%s", m)
	}
	get(t, base, "/probe", 400, "text/plain")
	get(t, base, "/probe?target=nosuch", 404, "text/plain")
	// A probe never counts as a scheduled run.
	if got := metric(t, get(t, base, "/metrics", 200, "text/plain"), "qoslint_runs_total", "result=ok"); got != 1 {
		t.Errorf("after the probes, runs ok = %v, want 1", got)
	}
}

func snapshotNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

func TestServeListen(t *testing.T) {
	for _, c := range []struct {
		addr   string
		remote bool
		ok     bool
	}{
		{"127.0.0.1:9753", false, true},
		{"[::1]:9753", false, true},
		{"localhost:9753", false, true},
		{":9753", false, false},
		{"0.0.0.0:9753", false, false},
		{"192.0.2.7:9753", false, false},
		{"192.0.2.7:9753", true, true},
		{"127.0.0.1", false, false}, // no port
	} {
		if err := checkListen(c.addr, c.remote); (err == nil) != c.ok {
			t.Errorf("checkListen(%q, %v) = %v, want ok %v", c.addr, c.remote, err, c.ok)
		}
	}
}

// Wrong settings stop serve before it listens or dials anything.
func TestServeBadSettings(t *testing.T) {
	inv := filepath.Join("../../../examples/clean-pod", "inventory.yaml")
	for _, c := range []struct {
		name string
		opt  ServeOptions
		want string
	}{
		{"remote", ServeOptions{LiveOptions: LiveOptions{Inventory: inv, Workers: 1}, Listen: "0.0.0.0:0"}, "--allow-remote"},
		{"keep", ServeOptions{LiveOptions: LiveOptions{Inventory: inv, Workers: 1}, Keep: 1}, "--keep 1"},
		{"inventory", ServeOptions{LiveOptions: LiveOptions{Inventory: "nosuch.yaml", Workers: 1}}, "nosuch.yaml"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var errOut bytes.Buffer
			c.opt.StateDir = t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if code := Serve(ctx, &errOut, c.opt); code != ExitInput || !strings.Contains(errOut.String(), c.want) {
				t.Errorf("exit %d, %q; want %d naming %q", code, errOut.String(), ExitInput, c.want)
			}
		})
	}
}

// lint --format prometheus stamps its run: the textfile collector's file
// says when it was written and how long the lint took.
func TestLintPrometheus(t *testing.T) {
	setClock(t, "2026-05-01") // noon of that day
	var out, errOut bytes.Buffer
	if code := Lint(&out, &errOut, "../../../examples/broken-pod", LintOptions{Format: "prometheus", FailOn: judge.Error}); code != ExitFindings {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	m := out.Bytes()
	if got, want := metric(t, m, "qoslint_last_run_timestamp_seconds"), float64(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC).Unix()); got != want {
		t.Errorf("timestamp %v, want %v", got, want)
	}
	if metric(t, m, "qoslint_findings", "severity=error") < 1 || metric(t, m, "qoslint_devices", "kind=switch", "status=findings") < 1 {
		t.Errorf("the broken example's findings are not in the metrics:\n%s", m)
	}
}

// TestServeOriginsBounded: origins intern their file names for the
// process (model/origin.go), so a name that changed with every run (a
// temporary directory) would grow serve's memory by a fabric's files each
// interval. Runs of an unchanged fabric add none.
func TestServeOriginsBounded(t *testing.T) {
	_, _, _, ran, next, stop, errOut := startServe(t)
	defer func() {
		if c := stop(); c != 0 {
			t.Errorf("serve exit %d: %s", c, errOut)
		}
	}()
	waitRun(t, ran)
	next <- struct{}{}
	waitRun(t, ran)
	after2 := qmodel.OriginSources()
	for run := 3; run <= 4; run++ {
		next <- struct{}{}
		waitRun(t, ran)
		if n := qmodel.OriginSources(); n != after2 {
			t.Fatalf("run %d: %d origin sources, %d after run 2", run, n, after2)
		}
	}
	if after2 < 100 {
		t.Errorf("%d origin sources after two audits of clean-pod: the audits read nothing?", after2)
	}
}
