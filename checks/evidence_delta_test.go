package checks

import (
	"strings"
	"testing"
)

// Two samples (the .before files and counters-interval.txt): the evidence
// checks judge the growth during the interval, not the totals.
var (
	gpu01E0Before = dev("gpu01", "ethtool-S-ens1f0np0.before.txt")
	gpu01Interval = dev("gpu01", "counters-interval.txt")
	spine01Before = dev("spine01", "gnmi-counters.before.json")
	spine01Iv     = dev("spine01", "counters-interval.txt")
)

// pause4Before is pause4Stats 30s earlier: 20 pause frames on priority 4
// before, 120 after: 100 in 30s.
var pause4Before = strings.Replace(pause4Stats, "rx_prio4_pause: 120\n", "rx_prio4_pause: 20\n", 1)

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

var _ = register(evidenceRoCEPriority, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "bytes on 0 long ago, none in the interval", edits: []edit{write(gpu01E0, prio0Stats), write(gpu01E0Before, prio0Stats), write(gpu01Interval, "1m")}},
		{name: "bytes on 0 during the interval", edits: []edit{write(gpu01E0, prio0Stats), write(gpu01E0Before, cleanStats), write(gpu01Interval, "1m")},
			// prio 0 grew from 2 MiB to 655 GiB, prio 3 counters went down: reset, taken as they are.
			want: []string{"error gpu01 ens1f0np0"}, msg: "in the last 1m0s: RoCE-sized traffic left on priority 0"},
	}
})

var _ = register(evidenceLosslessDrops, func(testing.TB) []checkCase {
	dropped := gnmiFile(gnmiQueue("swp1", 3, 4792, 17))
	return []checkCase{
		{name: "drops long ago, none in the interval", edits: []edit{write(spine01Counters, dropped), write(spine01Before, dropped), write(spine01Iv, "10s")}},
		{name: "drops in the interval", edits: []edit{write(spine01Counters, dropped), write(spine01Before, gnmiFile(gnmiQueue("swp1", 3, 4000, 7))), write(spine01Iv, "10s")},
			want: []string{"error spine01 swp1"}, msg: "in the last 10s: the lossless queue 3 (switch-priority 3) dropped 10 packets (1.0/s)"},
	}
})

var _ = register(evidenceECNQueue, func(testing.TB) []checkCase {
	marked := gnmiFile(gnmiQueue("swp1", 0, 900, 0))
	return []checkCase{
		{name: "marks on 0 long ago", edits: []edit{write(spine01Counters, marked), write(spine01Before, marked), write(spine01Iv, "10s")}},
		{name: "marks on 0 after a reset", edits: []edit{write(spine01Counters, marked), write(spine01Before, gnmiFile(gnmiQueue("swp1", 0, 5000, 0))), write(spine01Iv, "10s")},
			want: []string{"warning spine01 swp1"}, msg: "in the last 10s: queue 0 ECN-marked 900 packets (90.0/s)"},
	}
})
