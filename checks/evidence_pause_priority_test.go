package checks

import (
	"strconv"
	"strings"
	"testing"
)

var _ = register(evidencePausePriority, func(testing.TB) []checkCase {
	pfc34 := replace(gpu01Q0, "enabled     0   0   0   1   0", "enabled     0   0   0   1   1")
	return []checkCase{
		{name: "not collected is silent"},
		{name: "clean", edits: []edit{write(gpu01E0, cleanStats), write(dev("gpu02", "ethtool-S-ens1f1np1.txt"), storageStats)}},
		{name: "pause on 4", edits: []edit{write(gpu01E0, pause4Stats)},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "no configuration finding on this NIC explains it"},
		{name: "pause on 4 with PFC on 4", edits: []edit{write(gpu01E0, pause4Stats), pfc34},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "pause frames on a priority other than the RoCE priority; corroborates host-pfc on this NIC"},
		{name: "the other NIC's PFC finding corroborates nothing here", edits: []edit{write(gpu01E0, pause4Stats),
			replace(dev("gpu01", "mlnx_qos-ens1f1np1.txt"), "enabled     0   0   0   1   0", "enabled     0   0   0   1   1")},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "no configuration finding"},
		{name: "lossy policy: any pause", edits: []edit{write(gpu01E0, cleanStats), replace("inventory.hcl", `preset = "cumulus-default"`, "preset = \"cumulus-default\"\n  roce {\n    mode = \"lossy\"\n  }")},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "although the policy designs the fabric lossy"},
	}
})

func TestEvidencePausePriority(t *testing.T) {
	fs := evidencePausePriority.Run(fabric(t, write(gpu01E0, pause4Stats)))
	if len(fs) != 1 || fs[0].Actual != "priority 4: received 120, sent 0" || !strings.HasSuffix(fs[0].Source.String(), "ethtool-S-ens1f0np0.txt:"+strconv.Itoa(lineOf(pause4Stats, "rx_prio4_pause:"))) {
		t.Errorf("%+v", fs)
	}
}

// lineOf is the 1-based line of the first line of s containing sub.
func lineOf(s, sub string) int {
	for i, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return i + 1
		}
	}
	return 0
}

var _ = register(evidencePausePriority, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "pause grew on 4 in the interval", edits: []edit{write(gpu01E0, pause4Stats), write(gpu01E0Before, pause4Before), write(gpu01Interval, "30s\n")},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "in the last 30s: pause frames on a priority other than the RoCE priority"},
		{name: "large cumulative pause on 4, no growth", edits: []edit{write(gpu01E0, pause4Stats), write(gpu01E0Before, pause4Stats), write(gpu01Interval, "30s")}},
		{name: "no interval file: cumulative", edits: []edit{write(gpu01E0, pause4Stats), write(gpu01E0Before, pause4Stats)},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "pause frames on a priority"},
	}
})

func TestEvidenceHostDeltas(t *testing.T) {
	fs := evidencePausePriority.Run(fabric(t, write(gpu01E0, pause4Stats), write(gpu01E0Before, pause4Before), write(gpu01Interval, "30s")))
	if len(fs) != 1 || fs[0].Actual != "priority 4: received 100 (3.3/s), sent 0 (0.0/s)" {
		t.Errorf("%+v", fs)
	}
}

// Pause is PFC, not RoCE: without RDMA traffic the finding stays, but
// names only host-pfc.
var _ = register(evidencePausePriority, func(testing.TB) []checkCase {
	pcp := replace(gpu01Q0, "Priority trust state: dscp", "Priority trust state: pcp")
	pfc34 := replace(gpu01Q0, "enabled     0   0   0   1   0", "enabled     0   0   0   1   1")
	return []checkCase{
		{name: "RDMA present: the classification findings count", edits: []edit{write(gpu01E0, pause4Stats), pcp},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "; corroborates host-trust on this NIC"},
		{name: "no RDMA: trust pcp explains nothing", edits: []edit{write(gpu01E0, withRDMA(pause4Stats, 0, 0)), pcp},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "the NIC carried no RDMA traffic (its vPort RDMA counters are 0), so no RoCE was paused: PFC is on, and used, for other traffic; no configuration finding on this NIC explains it"},
		{name: "no RDMA: PFC on 4 explains it", edits: []edit{write(gpu01E0, withRDMA(pause4Stats, 0, 0)), pcp, pfc34},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "for other traffic; corroborates host-pfc on this NIC"},
	}
})
