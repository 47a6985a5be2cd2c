package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/trace"
	"github.com/qoslint/qoslint/render"
)

// traceResult is a one-leaf path whose leaf is broken and whose
// destination NIC was not read, every text field set to text.
func traceResult(text string) *trace.TraceResult {
	step := func(name, status string) trace.TraceStep {
		return trace.TraceStep{Name: name, Dir: trace.DirRoCE, Port: text, Status: status, Label: text,
			Reason: text, Source: text, Check: text}
	}
	return &trace.TraceResult{
		Src: trace.Endpoint{Host: text, NIC: text}, Dst: trace.Endpoint{Host: "gpu02", NIC: text},
		DSCP: 26, ToS: 104, Priority: 3, TC: 3, CNPDSCP: 48, CNPPriority: 6, Lossless: true,
		Pairs: []trace.TracePair{{
			Src: trace.Endpoint{Host: text, NIC: text}, Dst: trace.Endpoint{Host: "gpu02", NIC: text},
			Paths: []trace.TracePath{{Via: text, Broken: 1, Check: text, Hops: []trace.TraceHop{
				{Device: text, Kind: "host", Role: "source", Out: text, Steps: []trace.TraceStep{step(trace.StepToS, trace.StepOK)}},
				{Device: text, Kind: "switch", Role: "leaf", In: text, Out: text, Steps: []trace.TraceStep{step(trace.StepSwitchPriority, trace.StepBroken)}},
				{Device: "gpu02", Kind: "host", Role: "destination", In: text, Steps: []trace.TraceStep{step(trace.StepNICPFC, trace.StepUnknown)}},
			}}},
		}},
	}
}

func renderTraceHTML(t *testing.T, r *trace.TraceResult) string {
	t.Helper()
	var b bytes.Buffer
	if err := render.TraceHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The trace page loads nothing and runs nothing, as the report does.
func TestTraceHTMLSelfContained(t *testing.T) {
	page := renderTraceHTML(t, traceResult("swp1"))
	if bad := externalRefs(page); len(bad) > 0 {
		t.Errorf("the page refers outside itself: %q", bad)
	}
	if !strings.Contains(page, `content="default-src 'none'; style-src 'unsafe-inline'"`) {
		t.Error("the page must forbid every fetch")
	}
	if err := offlineMarkup(page); err != nil {
		t.Error(err)
	}
	for _, want := range []string{
		`<div class="hop broken first-broken" id="pair-1-path-1-hop-1" data-hop="1" data-device="swp1" data-kind="switch" data-role="leaf" data-status="broken" data-first-broken="true" data-check="swp1">`,
		`<div class="hop unknown" id="pair-1-path-1-hop-2" data-hop="2" data-device="gpu02"`,
		`<section class="path broken" id="pair-1-path-1" data-status="broken" data-via="swp1" data-broken="swp1" data-check="swp1">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("no %s in\n%s", want, page)
		}
	}
}

func TestTraceHTMLEscapes(t *testing.T) {
	page := renderTraceHTML(t, traceResult(`<script>alert(1)</script><img src=x onerror=alert(2)>"'&`))
	if err := offlineMarkup(page); err != nil {
		t.Error(err)
	}
	// The escaped text still reads "src=" as text, so externalRefs (a
	// plain string search) does not apply: offlineMarkup reads the tags.
	if strings.Contains(page, "<script") || strings.Contains(page, "<img") {
		t.Errorf("device text reached the page unescaped:\n%s", page)
	}
}

// FuzzTraceHTML puts arbitrary text in every field the trace page prints:
// none of it may become markup, and the page renders the same bytes twice.
func FuzzTraceHTML(f *testing.F) {
	for _, s := range []string{"swp1", `<b>x</b>`, `"><svg onload=x>`, "</title></style><script>", "https://example.invalid/ url(http://x)", "gpu01:ens1f0np0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		page := renderTraceHTML(t, traceResult(text))
		if err := offlineMarkup(page); err != nil {
			t.Fatal(err)
		}
		if renderTraceHTML(t, traceResult(text)) != page {
			t.Fatal("two renderings differ")
		}
	})
}
