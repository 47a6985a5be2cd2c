package render

import (
	"testing"

	"github.com/qoslint/qoslint/checks"
)

// The trace's steps carry the marking chain's hop names, so a reader (and
// the HTML to come) names a hop one way in both.
func TestTraceStepsAreChainHops(t *testing.T) {
	for _, p := range [][2]string{
		{checks.StepToS, HopToS}, {checks.StepNICPriority, HopNICPriority}, {checks.StepNICPFC, HopNICPFC},
		{checks.StepNICECN, HopNICECN}, {checks.StepSwitchPriority, HopSwitchPriority},
		{checks.StepSwitchPFC, HopSwitchPFC}, {checks.StepSwitchTC, HopSwitchTC}, {checks.StepSwitchECN, HopSwitchECN},
		{checks.StepOK, string(HopOK)}, {checks.StepBroken, string(HopBroken)}, {checks.StepUnknown, string(HopUnknown)},
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
