package render

import (
	"io"
	"sort"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"

	"github.com/qoslint/qoslint/internal/buildinfo"
)

// The metric names follow the Prometheus naming guide
// (https://prometheus.io/docs/practices/naming/): one application prefix,
// base units (seconds), a _timestamp_seconds suffix for a Unix time, no
// _total on gauges, and an _info metric of value 1 for build labels
// (https://prometheus.io/docs/instrumenting/writing_exporters/#target-labels-not-static-scraped-labels).
const (
	MetricFindings       = "qoslint_findings"
	MetricFindingsWaived = "qoslint_findings_waived"
	MetricDevices        = "qoslint_devices"
	MetricInputErrors    = "qoslint_input_errors"
	MetricLastRun        = "qoslint_last_run_timestamp_seconds"
	MetricRunDuration    = "qoslint_run_duration_seconds"
	MetricBuildInfo      = "qoslint_build_info"
)

// Device statuses of qoslint_devices. Every kind × status pair is always
// exported, zeros included, so that an alert on "failed" sees 0 rather
// than no data when all is well.
const (
	DeviceOK         = "ok"         // audited, no finding that is not waived
	DeviceFindings   = "findings"   // audited, with findings that are not waived
	DeviceIncomplete = "incomplete" // some of its files could not be read
	DeviceFailed     = "failed"     // not collected at all (unreachable, login, timeout)
)

// NotAudited starts the input error of a device a live audit could not
// collect; qoslint_devices counts such a device as failed.
const NotAudited = "not audited: "

// RunInfo is when the run that made a report started and how long it took.
type RunInfo struct {
	Start    time.Time
	Duration time.Duration
}

// BuildInfo gives the labels of qoslint_build_info; tests replace it so
// goldens do not depend on the toolchain.
var BuildInfo = func() (version, revision, goVersion string) {
	bi := buildinfo.Read()
	return bi.Version, bi.Revision, bi.GoVersion
}

var (
	descFindings = prometheus.NewDesc(MetricFindings,
		"Findings that are not waived, by device, check and severity.",
		[]string{"fabric", "device", "check", "severity"}, nil)
	descWaived = prometheus.NewDesc(MetricFindingsWaived,
		"Waived findings, by device, check and severity; they never fail a gate.",
		[]string{"fabric", "device", "check", "severity"}, nil)
	descDevices = prometheus.NewDesc(MetricDevices,
		"Devices of the inventory by kind and status (ok, findings, incomplete, failed).",
		[]string{"fabric", "kind", "status"}, nil)
	descInputErrors = prometheus.NewDesc(MetricInputErrors,
		"Input errors: devices not collected, files that could not be read; the report is incomplete when above 0.",
		[]string{"fabric"}, nil)
	descLastRun = prometheus.NewDesc(MetricLastRun,
		"When the last run finished, in seconds since the Unix epoch.",
		[]string{"fabric"}, nil)
	descDuration = prometheus.NewDesc(MetricRunDuration,
		"How long the last run took, collection included.",
		[]string{"fabric"}, nil)
	descBuildInfo = prometheus.NewDesc(MetricBuildInfo,
		"qoslint's version, VCS revision and Go version; always 1.",
		[]string{"version", "revision", "goversion"}, nil)
)

// ReportCollector exports a report as Prometheus metrics. Report is asked
// on every scrape; nil (no run yet) exports nothing.
type ReportCollector struct {
	Report func() *Report
}

// Describe implements prometheus.Collector.
func (c ReportCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descFindings, descWaived, descDevices, descInputErrors, descLastRun, descDuration} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c ReportCollector) Collect(ch chan<- prometheus.Metric) {
	r := c.Report()
	if r == nil {
		return
	}
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		// A label value that is not UTF-8 fails the scrape with its
		// cause rather than panicking the process.
		m, err := prometheus.NewConstMetric(d, prometheus.GaugeValue, v, labels...)
		if err != nil {
			m = prometheus.NewInvalidMetric(d, err)
		}
		ch <- m
	}
	for k, n := range findingCounts(r) {
		d := descFindings
		if k.waived {
			d = descWaived
		}
		gauge(d, float64(n), r.Fabric, k.device, k.check, k.severity)
	}
	statuses := deviceStatuses(r)
	for _, kind := range []string{"host", "switch"} {
		for _, st := range []string{DeviceOK, DeviceFindings, DeviceIncomplete, DeviceFailed} {
			gauge(descDevices, float64(statuses[[2]string{kind, st}]), r.Fabric, kind, st)
		}
	}
	gauge(descInputErrors, float64(len(r.Errors)), r.Fabric)
	if r.Run != nil {
		end := r.Run.Start.Add(r.Run.Duration)
		gauge(descLastRun, float64(end.UnixNano())/1e9, r.Fabric)
		gauge(descDuration, r.Run.Duration.Seconds(), r.Fabric)
	}
}

// BuildInfoCollector exports qoslint_build_info.
type BuildInfoCollector struct{}

// Describe implements prometheus.Collector.
func (BuildInfoCollector) Describe(ch chan<- *prometheus.Desc) { ch <- descBuildInfo }

// Collect implements prometheus.Collector.
func (BuildInfoCollector) Collect(ch chan<- prometheus.Metric) {
	v, rev, gov := BuildInfo()
	ch <- prometheus.MustNewConstMetric(descBuildInfo, prometheus.GaugeValue, 1, v, rev, gov)
}

type findingKey struct {
	device, check, severity string
	waived                  bool
}

// findingCounts counts findings per device, check and severity: an
// interface label would multiply the series by every port of the fabric
// (https://prometheus.io/docs/practices/naming/#labels warns against
// unbounded label values); the report names the interfaces.
func findingCounts(r *Report) map[findingKey]int {
	out := map[findingKey]int{}
	for _, f := range r.Findings {
		out[findingKey{f.Device, f.Check, f.Severity.String(), f.Waived}]++
	}
	return out
}

// deviceStatuses counts the report's devices by kind and status. A device
// with an input error starting NotAudited failed; one with any other input
// error is incomplete, whatever its findings.
func deviceStatuses(r *Report) map[[2]string]int {
	failed, incomplete, found := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, e := range r.Errors {
		if strings.HasPrefix(e.Msg, NotAudited) && e.Pos.File == "" {
			failed[e.Device] = true
		} else {
			incomplete[e.Device] = true
		}
	}
	for _, f := range r.Findings {
		if !f.Waived {
			found[f.Device] = true
		}
	}
	out := map[[2]string]int{}
	for _, d := range r.Devices {
		st := DeviceOK
		switch {
		case failed[d.Name]:
			st = DeviceFailed
		case incomplete[d.Name]:
			st = DeviceIncomplete
		case found[d.Name]:
			st = DeviceFindings
		}
		out[[2]string{d.Kind, st}]++
	}
	return out
}

// WriteMetrics gathers reg and writes the text exposition format
// (https://prometheus.io/docs/instrumenting/exposition_formats/), families
// and series sorted, as prometheus.WriteToTextfile writes a file for the
// node_exporter textfile collector.
func WriteMetrics(w io.Writer, reg prometheus.Gatherer) error {
	mfs, err := reg.Gather()
	if err != nil {
		return err
	}
	sort.Slice(mfs, func(i, j int) bool { return mfs[i].GetName() < mfs[j].GetName() })
	for _, mf := range mfs {
		if _, err := expfmt.MetricFamilyToText(w, mf); err != nil {
			return err
		}
	}
	return nil
}

// Prometheus writes the report as Prometheus metrics, for the
// node_exporter textfile collector (--format prometheus).
func Prometheus(w io.Writer, r *Report) error {
	reg := prometheus.NewPedanticRegistry()
	if err := reg.Register(ReportCollector{Report: func() *Report { return r }}); err != nil {
		return err
	}
	if err := reg.Register(BuildInfoCollector{}); err != nil {
		return err
	}
	return WriteMetrics(w, reg)
}
