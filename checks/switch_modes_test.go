package checks

import (
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/collectors/nvue/nvuemodel"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
)

// modeFabric is one 5.15 switch from NVUE commands under a policy.
func modeFabric(t *testing.T, pol policy.Policy, cmds string) *model.Fabric {
	t.Helper()
	cfg, errs, _ := nvue.ParseCommands("leaf01/nv-config-commands.txt", []byte(cmds))
	if len(errs) > 0 || cfg == nil {
		t.Fatal(errs)
	}
	cfg.Version = "Cumulus Linux 5.15.0"
	sw, probs := nvuemodel.Switch("leaf01", "leaf", cfg, nil, nil)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	return &model.Fabric{Policy: pol, Switches: []*model.Switch{sw}}
}

func switchFindings(f *model.Fabric) []string {
	var out []string
	for _, c := range []*Check{switchRoCEMode, switchTrust, switchDSCPMap, switchPFC, switchQueueMap, switchECN, switchCNP} {
		for _, fd := range c.Run(f) {
			out = append(out, c.ID+" "+fd.Severity.String()+" "+fd.Interface+": "+fd.Message)
		}
	}
	return out
}

// A lossy-multi-tc policy that follows the CL 5.15 profile (CumulusNetworks/docs
// content/cumulus-linux-515/.../RDMA-over-Converged-Ethernet-RoCE.md): DSCP 5
// → switch priority 3 → traffic class 3 with ECN, CNP DSCP 48 → 0.
func multiTCPolicy() policy.Policy {
	p, _ := policy.Preset(policy.DefaultPreset)
	p.RoCE = policy.RoCEPolicy{DSCP: []int{5}, Priority: 3, TrafficClass: 3, Mode: "lossy-multi-tc"}
	p.CNP = policy.CNPPolicy{DSCP: 48, Priority: 0}
	return p
}

func TestLossyMultiTCPolicy(t *testing.T) {
	base := "nv set interface swp1-4 type swp\nnv set qos roce state enabled\n"
	t.Run("correct switch passes", func(t *testing.T) {
		if got := switchFindings(modeFabric(t, multiTCPolicy(), base+"nv set qos roce mode lossy-multi-tc\n")); len(got) > 0 {
			t.Errorf("findings:\n%s", strings.Join(got, "\n"))
		}
	})
	t.Run("lossy switch fails with an error", func(t *testing.T) {
		got := switchFindings(modeFabric(t, multiTCPolicy(), base+"nv set qos roce mode lossy\n"))
		joined := strings.Join(got, "\n")
		if !strings.Contains(joined, "switch-roce-mode error : RoCE mode is lossy, not lossy-multi-tc") {
			t.Errorf("findings:\n%s", joined)
		}
	})
	t.Run("lossless policy on a lossy-multi-tc switch: no PFC", func(t *testing.T) {
		p, _ := policy.Preset(policy.DefaultPreset)
		got := strings.Join(switchFindings(modeFabric(t, p, base+"nv set qos roce mode lossy-multi-tc\n")), "\n")
		for _, w := range []string{"switch-roce-mode error : RoCE mode is lossy-multi-tc: no PFC", "DSCP 26 maps to switch-priority 4", "switch-pfc error"} {
			if !strings.Contains(got, w) {
				t.Errorf("missing %q in:\n%s", w, got)
			}
		}
	})
}

// The guide's my-red-profile (QoS518 Port Groups, ECN) marks traffic classes
// 1 and 2 only: RoCE on 3 is unmarked on swp1,swp2 and nowhere else.
func TestECNProfileReplaces(t *testing.T) {
	p, _ := policy.Preset(policy.DefaultPreset)
	f := modeFabric(t, p, "nv set interface swp1-4 type swp\nnv set qos roce mode lossless\nnv set qos roce state enabled\n"+
		"nv set qos congestion-control my-red-profile traffic-class 1,2 min-threshold 40000\n"+
		"nv set qos congestion-control my-red-profile traffic-class 1,2 max-threshold 200000\n"+
		"nv set interface swp1,swp2 qos congestion-control profile my-red-profile\n")
	got := switchECN.Run(f)
	if len(got) != 1 || got[0].Interface != "swp1-2" || !strings.Contains(got[0].Actual, "my-red-profile") {
		t.Fatalf("findings %+v", got)
	}
	// A scheduler profile that does not list the CNP class 6 leaves it best
	// effort (QoS518: the classes list2 omits are scheduled "on a best-effort
	// basis"), so switch-cnp reports it on that port only.
	f = modeFabric(t, p, "nv set interface swp1-4 type swp\nnv set qos roce mode lossless\nnv set qos roce state enabled\n"+
		"nv set qos egress-scheduler list1 traffic-class 0,3 mode dwrr\nnv set interface swp1 qos egress-scheduler profile list1\n")
	cnp := switchCNP.Run(f)
	if len(cnp) != 1 || cnp[0].Interface != "swp1" || !strings.Contains(cnp[0].Actual, "best effort") {
		t.Fatalf("cnp findings %+v", cnp)
	}
}

func TestPolicyModesAgreeWithModel(t *testing.T) {
	if len(policy.RoCEModes) != len(model.RoCEModes) {
		t.Fatal("mode lists differ")
	}
	for _, m := range policy.RoCEModes {
		if !model.IsRoCEMode(m) || (policy.RoCEPolicy{Mode: m}).Lossless() != model.LosslessMode(m) {
			t.Errorf("mode %s: inventory and model disagree", m)
		}
	}
}

// Each table disagreement of `nv show qos roce` is anchored at its own row.
func TestOperDriftRows(t *testing.T) {
	const show = "devices/leaf01/nv-show-qos-roce.txt"
	for _, c := range []struct {
		name, old, new, msg string
		line                int
	}{
		{"ETS row", "    3  3            3              DWRR-50%", "    3  3            0              DWRR-50%", "switch-priority 3 to traffic-class 0", 41},
		{"scheduler weight", "    3  3            3              DWRR-50%", "    3  3            3              DWRR-30%", "schedules traffic-class 3 dwrr 30%", 41},
		{"ECN classes", "  enabled-tc        0,3", "  enabled-tc        0", "ECN on traffic-class 0", 12},
		{"threshold beyond rounding", "  min-threshold     146.48 KB", "  min-threshold     146.40 KB", "ECN min-threshold", 13},
	} {
		t.Run(c.name, func(t *testing.T) {
			fs := switchRoCEMode.Run(fabric(t, replace(show, c.old, c.new)))
			if len(fs) != 1 || !strings.Contains(fs[0].Message, c.msg) || fs[0].Source.Line != c.line || fs[0].Source.File != show {
				t.Fatalf("findings %+v", fs)
			}
		})
	}
	t.Run("display rounding is not drift", func(t *testing.T) {
		// 146.48 KB and 1.43 MB are how NVUE prints 150000 and 1500000.
		if fs := switchRoCEMode.Run(fabric(t)); len(fs) != 0 {
			t.Fatalf("findings %+v", fs)
		}
	})
}
