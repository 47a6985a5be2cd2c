package app

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/qoslint/qoslint/checks/drift"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/render"
	"github.com/qoslint/qoslint/render/driftfmt"
)

// Content types of serve's endpoints. /metrics negotiates its own
// (promhttp: the text format 0.0.4 unless the scraper asks otherwise).
const (
	ctText     = "text/plain; charset=utf-8"
	ctHTML     = "text/html; charset=utf-8"
	ctJSON     = "application/json"
	ctMarkdown = "text/markdown; charset=utf-8"
	// ctMetrics is the text exposition format
	// (https://prometheus.io/docs/instrumenting/exposition_formats/).
	ctMetrics = "text/plain; version=0.0.4; charset=utf-8"
)

var driftTypes = map[string]string{"text": ctText, "json": ctJSON, "markdown": ctMarkdown, "html": ctHTML}

func (s *server) mux() *http.ServeMux {
	m := http.NewServeMux()
	m.Handle("GET /metrics", promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{}))
	m.HandleFunc("GET /probe", s.probe)
	m.HandleFunc("GET /report", s.htmlReport)
	m.HandleFunc("GET /drift", s.drift)
	m.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", ctText)
		fmt.Fprintln(w, "ok")
	})
	return m
}

// reply writes body with its content type, or the error as plain text.
func reply(w http.ResponseWriter, code int, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

func replyText(w http.ResponseWriter, code int, format string, args ...any) {
	reply(w, code, ctText, []byte(fmt.Sprintf(format, args...)+"\n"))
}

// htmlReport is the latest run's HTML report.
func (s *server) htmlReport(w http.ResponseWriter, _ *http.Request) {
	r := s.report()
	if r == nil {
		replyText(w, http.StatusServiceUnavailable, "no run has finished yet")
		return
	}
	var b bytes.Buffer
	if err := render.HTML(&b, r); err != nil {
		replyText(w, http.StatusInternalServerError, "rendering the report: %v", err)
		return
	}
	reply(w, http.StatusOK, ctHTML, b.Bytes())
}

// drift is what changed between the last two runs, as `qoslint drift`
// prints it (?format=text|json|markdown|html).
func (s *server) drift(w http.ResponseWriter, req *http.Request) {
	format := req.URL.Query().Get("format")
	if format == "" {
		format = "text"
	}
	write, ok := driftfmt.Formatters()[format]
	if !ok {
		replyText(w, http.StatusBadRequest, "unknown format %q (one of %v)", format, driftfmt.FormatNames())
		return
	}
	old, cur, oldName, curName, n, err := s.state.lastTwo()
	switch {
	case err != nil:
		replyText(w, http.StatusInternalServerError, "reading the snapshots: %v", err)
		return
	case n < 2:
		replyText(w, http.StatusServiceUnavailable, "%d run(s) kept so far: /drift compares the last two", n)
		return
	}
	d := drift.Diff(old, cur, cur.Policy.Inventory())
	d.Old.Source, d.New.Source = oldName, curName
	var b bytes.Buffer
	if err := write(&b, d); err != nil {
		replyText(w, http.StatusInternalServerError, "writing the drift: %v", err)
		return
	}
	reply(w, http.StatusOK, driftTypes[format], b.Bytes())
}

// probe audits one device on demand and answers with its metrics, as the
// blackbox exporter's /probe?target= does
// (https://github.com/prometheus/blackbox_exporter#prometheus-configuration):
// 400 without a target, 404 for a device the inventory does not name. It
// waits for a scheduled run in flight, and neither publishes its report
// nor keeps a snapshot.
func (s *server) probe(w http.ResponseWriter, req *http.Request) {
	target := req.URL.Query().Get("target")
	if target == "" {
		replyText(w, http.StatusBadRequest, "target parameter is missing: /probe?target=<device>")
		return
	}
	inv, err := inventory.LoadFile(s.opt.Inventory)
	if err != nil {
		replyText(w, http.StatusInternalServerError, "the inventory could not be read; see qoslint's log")
		printLoadError(s.errOut, err)
		return
	}
	one, ok := deviceOnly(inv, target)
	if !ok {
		replyText(w, http.StatusNotFound, "no device %q in the inventory", target)
		return
	}
	ctx, cancel := scrapeContext(req)
	defer cancel()
	if !s.acquire(ctx) {
		replyText(w, http.StatusServiceUnavailable, "timed out waiting for the run in flight")
		return
	}
	start := time.Now()
	r, a, ok := s.audit(ctx, one)
	s.release()
	// probe_success and probe_duration_seconds are the blackbox
	// exporter's own two gauges, names and HELP texts as in
	// prometheus/blackbox_exporter prober/handler.go (Name: "probe_success",
	// Help: "Displays whether or not the probe was a success"; Name:
	// "probe_duration_seconds", Help: "Returns how long the probe took to
	// complete in seconds"), so that an alert on probe_success == 0 works
	// unchanged. Success is that the device was collected and every file
	// of it read: findings have their own metrics. A probe that could not
	// run answers 200 with probe_success 0, as the blackbox exporter does.
	success := prometheus.NewGauge(prometheus.GaugeOpts{Name: "probe_success", Help: "Displays whether or not the probe was a success"})
	duration := prometheus.NewGauge(prometheus.GaugeOpts{Name: "probe_duration_seconds", Help: "Returns how long the probe took to complete in seconds"})
	duration.Set(time.Since(start).Seconds())
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(success, duration)
	if ok {
		if len(a.failures) == 0 && len(r.Errors) == 0 {
			success.Set(1)
		}
		reg.MustRegister(render.ReportCollector{Report: func() *render.Report { return r }})
	} else {
		fmt.Fprintf(s.errOut, "qoslint: /probe?target=%s could not run\n", target)
	}
	var b bytes.Buffer
	if err := render.WriteMetrics(&b, reg); err != nil {
		replyText(w, http.StatusInternalServerError, "writing the metrics: %v", err)
		return
	}
	reply(w, http.StatusOK, ctMetrics, b.Bytes())
}

// deviceOnly is inv with the one device named target.
func deviceOnly(inv *inventory.Inventory, target string) (*inventory.Inventory, bool) {
	one := *inv
	one.Switches, one.Hosts = nil, nil
	for _, sw := range inv.Switches {
		if sw.Name == target {
			one.Switches = append(one.Switches, sw)
		}
	}
	for _, h := range inv.Hosts {
		if h.Name == target {
			one.Hosts = append(one.Hosts, h)
		}
	}
	return &one, len(one.Switches)+len(one.Hosts) > 0
}

// scrapeContext bounds a probe by the scrape timeout Prometheus sends
// (X-Prometheus-Scrape-Timeout-Seconds, as the blackbox exporter reads it),
// less half a second to answer in time.
func scrapeContext(req *http.Request) (context.Context, context.CancelFunc) {
	if v, err := strconv.ParseFloat(req.Header.Get("X-Prometheus-Scrape-Timeout-Seconds"), 64); err == nil && v > 1 {
		return context.WithTimeout(req.Context(), time.Duration((v-0.5)*float64(time.Second)))
	}
	return context.WithCancel(req.Context())
}
