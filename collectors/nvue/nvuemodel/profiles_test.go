package nvuemodel

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/model"
)

// The expected values below are the documentation's own examples.
// QoS518 = CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-Switch-Ports/
// Quality-of-Service/_index.md ("Port Groups"); RoCE515/RoCE518 the RoCE pages.

func ecnTCs(q *model.QoS) []int { return setIdx(q.ECN[:]) }
func pfcSPs(q *model.QoS) []int { return setIdx(q.PFC[:]) }

func setIdx(vs []model.Value[bool]) []int {
	var out []int
	for i, v := range vs {
		if v.V {
			out = append(out, i)
		}
	}
	return out
}

func TestProfilesReplaceGlobal(t *testing.T) {
	base := "nv set qos roce mode lossless\nnv set qos roce state enabled\nnv set interface swp1-8 type swp\n"
	for _, c := range []struct {
		name, cfg, port string
		check           func(t *testing.T, q, global *model.QoS)
	}{
		{"my-red-profile: ECN only on the classes it lists", base +
			// QoS518, ECN: `my-red-profile.egress_queue_list = [1,2]`,
			// `ecn_enable = true`, 40000/200000, probability 10.
			"nv set qos congestion-control my-red-profile traffic-class 1,2 min-threshold 40000\n" +
			"nv set qos congestion-control my-red-profile traffic-class 1,2 max-threshold 200000\n" +
			"nv set qos congestion-control my-red-profile traffic-class 1,2 probability 10\n" +
			"nv set qos congestion-control my-red-profile traffic-class 1,2 red enable\n" +
			"nv set interface swp1,swp2 qos congestion-control profile my-red-profile\n", "swp1",
			func(t *testing.T, q, g *model.QoS) {
				if got := ecnTCs(q); !slices.Equal(got, []int{1, 2}) {
					t.Errorf("ECN on %v, want [1 2]", got)
				}
				if q.ECNMin[1].V != 40000 || q.ECNMax[2].V != 200000 {
					t.Errorf("thresholds %d/%d", q.ECNMin[1].V, q.ECNMax[2].V)
				}
				if !strings.Contains(q.ECN[3].Origin.Default(), "replaces default-global") {
					t.Errorf("TC 3 origin %q", q.ECN[3].Origin)
				}
				if got := ecnTCs(g); !slices.Equal(got, []int{0, 3}) {
					t.Errorf("global ECN on %v, want the RoCE [0 3]", got)
				}
			}},
		{"list2: unlisted classes best effort", base +
			// QoS518, Egress Scheduling: list2 egr_queue_2/5 = 50, 6 = 0 (strict).
			"nv set qos egress-scheduler list2 traffic-class 2,5,6 mode dwrr\n" +
			"nv set qos egress-scheduler list2 traffic-class 2,5 bw-percent 50\n" +
			"nv set qos egress-scheduler list2 traffic-class 6 mode strict\n" +
			"nv set interface swp1,swp3,swp18 qos egress-scheduler profile list2\n", "swp3",
			func(t *testing.T, q, g *model.QoS) {
				want := map[int]string{0: "dwrr 0", 1: "dwrr 0", 2: "dwrr 50", 3: "dwrr 0", 4: "dwrr 0", 5: "dwrr 50", 6: "strict", 7: "dwrr 0"}
				for tc, w := range want {
					got := q.Sched[tc].V
					if got == "dwrr" {
						got += " " + strconv.Itoa(q.SchedBW[tc].V)
					}
					if got != w {
						t.Errorf("TC %d = %s, want %s", tc, got, w)
					}
				}
				if g.SchedBW[3].V != 50 {
					t.Errorf("global TC 3 = %d, want the RoCE 50", g.SchedBW[3].V)
				}
			}},
		{"my_pfc_ports: PFC on 3 and 5, tx and rx automatic", base +
			// QoS518, PFC: "applies a PFC profile called my_pfc_ports for
			// egress queue 3 and 5"; "automatically enables PFC frame
			// transmit and PFC frame receive".
			"nv set qos pfc my_pfc_ports switch-priority 3,5\n" +
			"nv set interface swp1-4,swp6 qos pfc profile my_pfc_ports\n", "swp6",
			func(t *testing.T, q, g *model.QoS) {
				if got := pfcSPs(q); !slices.Equal(got, []int{3, 5}) {
					t.Errorf("PFC on %v", got)
				}
				if !q.PFCRx.V || !q.PFCTx.V {
					t.Error("rx/tx not enabled")
				}
			}},
		{"pfc profile without switch-priority: assumed none, said so", base +
			"nv set qos pfc p2 cable-length 50\nnv set interface swp1 qos pfc profile p2\n", "swp1",
			func(t *testing.T, q, g *model.QoS) {
				if len(pfcSPs(q)) != 0 || !strings.Contains(q.PFC[3].Origin.Default(), "not documented") {
					t.Errorf("PFC %v, origin %q", pfcSPs(q), q.PFC[3].Origin)
				}
			}},
		{"mapping profile without dscp entries: the default values", base +
			"nv set qos mapping customer1 trust l3\nnv set interface swp1 qos mapping profile customer1\n", "swp1",
			func(t *testing.T, q, g *model.QoS) {
				if q.Trust.V != "l3" || q.DSCP.At(26).V != 3 || q.DSCP.At(48).V != 6 || q.DSCP.At(22).V != 2 {
					t.Errorf("trust %s, 26→%d 48→%d 22→%d", q.Trust.V, q.DSCP.At(26).V, q.DSCP.At(48).V, q.DSCP.At(22).V)
				}
			}},
		{"unattributed ROCE_MAP/ROCE_PFC_PROF/ROCE_ECN_PROF config", "nv set qos roce enable on\nnv set qos roce mode lossless\n" +
			"nv set qos mapping ROCE_MAP trust both\nnv set qos mapping ROCE_MAP dscp 24 switch-priority 3\n" +
			"nv set qos mapping ROCE_MAP dscp 26 switch-priority 3\n" +
			"nv set qos egress-queue-mapping default-global switch-priority 3 traffic-class 3\n" +
			"nv set qos pfc ROCE_PFC_PROF switch-priority 3\nnv set qos pfc ROCE_PFC_PROF tx enable\nnv set qos pfc ROCE_PFC_PROF rx enable\n" +
			"nv set qos congestion-control ROCE_ECN_PROF traffic-class 3 ecn enable\n" +
			"nv set qos congestion-control ROCE_ECN_PROF traffic-class 3 min-threshold 150000\n" +
			"nv set qos congestion-control ROCE_ECN_PROF traffic-class 3 max-threshold 300000\n" +
			"nv set qos congestion-control ROCE_ECN_PROF traffic-class 3 probability 100\n" +
			"nv set interface swp12 type swp\nnv set interface swp12 qos mapping profile ROCE_MAP\n" +
			"nv set interface swp12 qos pfc profile ROCE_PFC_PROF\nnv set interface swp12 qos congestion-control profile ROCE_ECN_PROF\n", "swp12",
			func(t *testing.T, q, g *model.QoS) {
				if q.Trust.V != "both" || q.DSCP.At(26).V != 3 || q.DSCP.At(48).V != 6 {
					t.Errorf("mapping: %s 26→%d 48→%d", q.Trust.V, q.DSCP.At(26).V, q.DSCP.At(48).V)
				}
				if got := pfcSPs(q); !slices.Equal(got, []int{3}) {
					t.Errorf("PFC %v", got)
				}
				if got := ecnTCs(q); !slices.Equal(got, []int{3}) || q.ECNMax[3].V != 300000 {
					t.Errorf("ECN %v max %d", got, q.ECNMax[3].V)
				}
				if q.Sched[6].V != "strict" || q.TC[3].V != 3 {
					t.Error("scheduler and queue map are default-global's")
				}
			}},
		{"default-global listing a class enables ECN there; relative mode", base +
			// QoS518: "The commands enable ECN on egress queue 4, 5, and 7";
			// Dynamic ECN example: TC 3 relative 20/80.
			"nv set qos congestion-control default-global traffic-class 4,5,7 min-threshold 40000\n" +
			"nv set qos congestion-control default-global traffic-class 3 mode relative\n" +
			"nv set qos congestion-control default-global traffic-class 3 min-threshold-percent 20\n" +
			"nv set qos congestion-control default-global traffic-class 3 max-threshold-percent 80\n", "swp1",
			func(t *testing.T, q, g *model.QoS) {
				if got := ecnTCs(q); !slices.Equal(got, []int{0, 3, 4, 5, 7}) {
					t.Errorf("ECN %v", got)
				}
				if q.ECNMode[3].V != "relative" || q.ECNMinPct[3].V != 20 || q.ECNMaxPct[3].V != 80 || q.ECNMode[4].V != "absolute" {
					t.Errorf("mode %s %d-%d", q.ECNMode[3].V, q.ECNMinPct[3].V, q.ECNMaxPct[3].V)
				}
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sw, probs := cmdSwitch(t, c.cfg)
			if probs != "" {
				t.Fatal(probs)
			}
			q := sw.PortQoS.At(c.port)
			if q == nil {
				t.Fatalf("no port %s in %v", c.port, sw.Ports)
			}
			c.check(t, q, sw.Global)
		})
	}
}

// TestLossyMultiTCSwitch: a 5.15 switch in lossy-multi-tc mode gets the
// mode's tables with their sources in the origins.
func TestLossyMultiTCSwitch(t *testing.T) {
	sw, probs := yamlSwitch(t, strings.Replace(roce514, "mode: lossless", "mode: lossy-multi-tc", 1))
	if probs != "" {
		t.Fatal(probs)
	}
	q := sw.Global
	if q.DSCP.At(5).V != 3 || q.TC[4].V != 4 || q.PFC[3].V || q.ECN[0].V || !q.ECN[3].V || q.SchedBW[2].V != 18 || q.Sched[6].V != "dwrr" {
		t.Errorf("lossy-multi-tc global %+v", q)
	}
	if !strings.Contains(q.DSCP.At(5).Origin.Default(), "CL 5.15 lossy-multi-tc") {
		t.Errorf("origin %q", q.DSCP.At(5).Origin)
	}
	if sw.RoCE.Lossless() {
		t.Error("lossy-multi-tc is not lossless")
	}
}
