package render

import (
	"testing"

	"github.com/qoslint/qoslint/checks/trace"
)

// The trace's steps carry the marking chain's hop names, so a reader (and
// the HTML to come) names a hop one way in both.
func TestTraceStepsAreChainHops(t *testing.T) {
	for _, p := range [][2]string{
		{trace.StepToS, HopToS}, {trace.StepNICPriority, HopNICPriority}, {trace.StepNICPFC, HopNICPFC},
		{trace.StepNICECN, HopNICECN}, {trace.StepSwitchPriority, HopSwitchPriority},
		{trace.StepSwitchPFC, HopSwitchPFC}, {trace.StepSwitchTC, HopSwitchTC}, {trace.StepSwitchECN, HopSwitchECN},
		{trace.StepOK, string(HopOK)}, {trace.StepBroken, string(HopBroken)}, {trace.StepUnknown, string(HopUnknown)},
	} {
		if p[0] != p[1] {
			t.Errorf("trace step %q, chain hop %q", p[0], p[1])
		}
	}
}

func TestTraceWriterFormats(t *testing.T) {
	for _, f := range TraceFormats {
		if _, err := TraceWriter(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if _, err := TraceWriter("xml"); err == nil || err.Error() != `--format "xml": text, json or html` {
		t.Errorf("xml: %v", err)
	}
}
