package render_test

import (
	"bytes"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/render"
)

// Every golden of the prometheus format (the formatter loops here and in
// render_test.go included) is written with these build labels, so that it
// does not change with the Go toolchain.
func init() {
	render.BuildInfo = func() (string, string, string) { return "v1.2.3", "0123abcd", "go1.26.0" }
}

// runReport is handReport with a run on a fixed clock, and a device the
// live audit could not collect.
func runReport() *render.Report {
	r := handReport()
	r.Run = &render.RunInfo{Start: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC), Duration: 1500 * time.Millisecond}
	r.Devices = append(r.Devices, render.Device{Name: "spine01", Kind: "switch"})
	r.Errors = append(r.Errors, &source.Error{Device: "spine01", Msg: render.NotAudited + "ssh: handshake failed"})
	r.Normalize()
	return r
}

func TestPrometheusGolden(t *testing.T) {
	var b bytes.Buffer
	if err := render.Prometheus(&b, runReport()); err != nil {
		t.Fatal(err)
	}
	golden(t, "run.prometheus.golden", b.Bytes())
}

// parse reads the exposition format back with Prometheus's own parser.
func parse(t *testing.T, text []byte) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := p.TextToMetricFamilies(bytes.NewReader(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return mfs
}

// series is one family's samples keyed by their labels (name=value, sorted,
// comma separated).
func series(t *testing.T, mf *dto.MetricFamily, labels ...string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, m := range mf.GetMetric() {
		var kv, names []string
		for _, l := range m.GetLabel() {
			kv = append(kv, l.GetName()+"="+l.GetValue())
			names = append(names, l.GetName())
		}
		sort.Strings(kv)
		sort.Strings(names)
		want := append([]string(nil), labels...)
		sort.Strings(want)
		if strings.Join(names, ",") != strings.Join(want, ",") {
			t.Errorf("%s: labels %v, want %v", mf.GetName(), names, want)
		}
		out[strings.Join(kv, ",")] = m.GetGauge().GetValue()
	}
	return out
}

func TestPrometheusParsesBack(t *testing.T) {
	var b bytes.Buffer
	if err := render.Prometheus(&b, runReport()); err != nil {
		t.Fatal(err)
	}
	mfs := parse(t, b.Bytes())
	want := map[string]struct {
		labels []string
		values map[string]float64
	}{
		render.MetricFindings: {[]string{"fabric", "device", "check", "severity"}, map[string]float64{
			"check=switch-pfc,device=leaf01,fabric=hand-pod,severity=error":   1,
			"check=host-trust,device=gpu01,fabric=hand-pod,severity=error":    1,
			"check=host-ecn,device=gpu01,fabric=hand-pod,severity=warning":    1,
			"check=not-collected,device=leaf01,fabric=hand-pod,severity=info": 1,
			"check=waiver,device=(fabric),fabric=hand-pod,severity=warning":   1,
		}},
		render.MetricFindingsWaived: {[]string{"fabric", "device", "check", "severity"}, map[string]float64{
			"check=host-tos,device=gpu01,fabric=hand-pod,severity=error": 1,
		}},
		render.MetricDevices: {[]string{"fabric", "kind", "status"}, map[string]float64{
			"fabric=hand-pod,kind=host,status=ok": 0, "fabric=hand-pod,kind=host,status=findings": 0,
			"fabric=hand-pod,kind=host,status=incomplete": 1, "fabric=hand-pod,kind=host,status=failed": 0,
			"fabric=hand-pod,kind=switch,status=ok": 0, "fabric=hand-pod,kind=switch,status=findings": 1,
			"fabric=hand-pod,kind=switch,status=incomplete": 0, "fabric=hand-pod,kind=switch,status=failed": 1,
		}},
		render.MetricInputErrors: {[]string{"fabric"}, map[string]float64{"fabric=hand-pod": 4}},
		render.MetricLastRun:     {[]string{"fabric"}, map[string]float64{"fabric=hand-pod": float64(time.Date(2026, 3, 4, 5, 6, 8, 500e6, time.UTC).UnixMilli()) / 1e3}},
		render.MetricRunDuration: {[]string{"fabric"}, map[string]float64{"fabric=hand-pod": 1.5}},
		render.MetricBuildInfo:   {[]string{"version", "revision", "goversion"}, map[string]float64{"goversion=go1.26.0,revision=0123abcd,version=v1.2.3": 1}},
	}
	for name, w := range want {
		mf := mfs[name]
		if mf == nil {
			t.Errorf("no family %s", name)
			continue
		}
		if mf.GetType() != dto.MetricType_GAUGE || mf.GetHelp() == "" {
			t.Errorf("%s: type %v, help %q: want a gauge with help", name, mf.GetType(), mf.GetHelp())
		}
		got := series(t, mf, w.labels...)
		if len(got) != len(w.values) {
			t.Errorf("%s: %d series, want %d: %v", name, len(got), len(w.values), got)
		}
		for k, v := range w.values {
			if g, ok := got[k]; !ok || g != v {
				t.Errorf("%s{%s} = %v (present %v), want %v", name, k, g, ok, v)
			}
		}
	}
	if len(mfs) != len(want) {
		t.Errorf("%d families, want %d", len(mfs), len(want))
	}
}

// Before the first run of serve there is no report: only the build info.
func TestPrometheusNoReport(t *testing.T) {
	c := render.ReportCollector{Report: func() *render.Report { return nil }}
	ch := make(chan prometheus.Metric, 10)
	go func() { c.Collect(ch); close(ch) }()
	for m := range ch {
		t.Errorf("metric without a report: %v", m.Desc())
	}
}

// A report without a run (lint of a hand-built report) has no timestamp
// nor duration rather than a zero time.
func TestPrometheusWithoutRun(t *testing.T) {
	var b bytes.Buffer
	r := cleanReport()
	r.FailOn = judge.Error
	if err := render.Prometheus(&b, r); err != nil {
		t.Fatal(err)
	}
	mfs := parse(t, b.Bytes())
	for _, n := range []string{render.MetricLastRun, render.MetricRunDuration} {
		if mfs[n] != nil {
			t.Errorf("%s without a run", n)
		}
	}
	ok := series(t, mfs[render.MetricDevices], "fabric", "kind", "status")
	if ok["fabric=clean,kind=host,status=ok"] != 1 || ok["fabric=clean,kind=switch,status=ok"] != 1 {
		t.Errorf("clean devices: %v", ok)
	}
}

// A label value that is not UTF-8 is an error of the format, never a panic.
func TestPrometheusBadLabel(t *testing.T) {
	r := cleanReport()
	r.Fabric = "pod\xff"
	var b bytes.Buffer
	if err := render.Prometheus(&b, r); err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("err = %v, want one naming UTF-8", err)
	}
}
