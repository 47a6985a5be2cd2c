package judge

import (
	"github.com/qoslint/qoslint/internal/layout"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/internal/source"
)

func TestJudgeHostETS(t *testing.T) {
	for _, tc := range []struct {
		want, tsa string
		bw        int
		ok        bool
	}{
		{"ets", "ets", 50, true},
		{"ets", "ets", 0, false},
		{"ets", "strict", 0, false},
		// mlx5's default: an equal share of the highest group (en_dcbnl.c).
		{"ets", "vendor", 0, true},
		{"strict", "strict", 0, true},
		{"strict", "ets", 50, false},
		{"strict", "vendor", 0, false},
		{"strict", "unknown", 0, false},
	} {
		p, _ := policy.Preset(policy.DefaultPreset)
		p.RoCE.HostTSA = tc.want
		if j := HostETS(p, 3, tc.tsa, tc.bw); j.OK != tc.ok || !j.OK && j.Severity != Warning {
			t.Errorf("policy %s, tc 3 %s bw %d: %+v, want OK %v", tc.want, tc.tsa, tc.bw, j, tc.ok)
		}
	}
}

// Under a PCP policy the control messages are classified by their PCP,
// NCCL_IB_SL's, which NCCL_IB_FIFO_TC does not change.
func TestJudgeNCCLFifoTCUnderPCP(t *testing.T) {
	p, _ := policy.Preset(policy.DefaultPreset)
	if !NCCLFifoTC(p, 0, true, "").Breaks() {
		t.Fatal("ToS 0 under the DSCP policy passes")
	}
	p.Trust = "pcp"
	if j := NCCLFifoTC(p, 0, true, ""); !j.OK {
		t.Errorf("PCP policy: %+v", j)
	}
}

// TestSwitchETSMinShare: lossy-multi-tc's documented profile gives the RoCE
// class DWRR-22% (CumulusNetworks/docs content/cumulus-linux-515/.../
// RDMA-over-Converged-Ethernet-RoCE.md), so its default minimum is not judged.
func TestSwitchETSMinShare(t *testing.T) {
	p, _ := policy.Preset(policy.DefaultPreset)
	if got := SwitchETSMinShare(p, ""); got != 50 {
		t.Errorf("lossless default %d, want 50", got)
	}
	p.RoCE.Mode = "lossy-multi-tc"
	if got := SwitchETSMinShare(p, ""); got != 0 {
		t.Errorf("lossy-multi-tc default %d, want 0", got)
	}
	if j := SwitchETSRoCE(p, "", "default-global", "dwrr", 22); !j.OK {
		t.Errorf("lossy-multi-tc 22%%: %s", j.Reason)
	}
	p.RoCE.MinBandwidth = 30
	p.Pos = map[string]source.Pos{"roce.min_bandwidth": {File: "inventory.yaml", Line: 4}}
	if j := SwitchETSRoCE(p, "", "default-global", "dwrr", 22); j.OK || !strings.Contains(j.Reason, "below the policy's 30%") {
		t.Errorf("written 30%%, share 22%%: %+v", j)
	}
	// SONiC has no RoCE scheduling default: the preset's 50% is not judged
	// there, a written one is.
	p, _ = policy.Preset(policy.DefaultPreset)
	if got := SwitchETSMinShare(p, layout.OSSONiC); got != 0 {
		t.Errorf("SONiC default %d, want 0", got)
	}
	p.Pos = map[string]source.Pos{"roce.min_bandwidth": {File: "inventory.yaml", Line: 4}}
	if got := SwitchETSMinShare(p, layout.OSSONiC); got != 50 {
		t.Errorf("SONiC with a written 50%%: %d", got)
	}
}
