package checks

import (
	"testing"
)

var _ = register(evidenceDCQCN, func(testing.TB) []checkCase {
	npOff := replace(dev("gpu01", "sysfs/class/net/ens1f0np0/ecn/roce_np/enable/3"), "1", "0")
	noCNP := hw(map[string]uint64{"np_ecn_marked_roce_packets": 52118, "np_cnp_sent": 0, "rp_cnp_handled": 9000, "rp_cnp_ignored": 0})
	return []checkCase{
		{name: "not collected is silent", edits: []edit{write(gpu01E0, cleanStats)}},
		{name: "marks answered", edits: hw(map[string]uint64{"np_ecn_marked_roce_packets": 52118903, "np_cnp_sent": 2261950, "rp_cnp_handled": 1804477, "rp_cnp_ignored": 0})},
		{name: "marks, no CNP", edits: noCNP, want: []string{"error gpu01 ens1f0np0"},
			msg: "the NIC received 52118 CE-marked RoCE packets and sent no CNP: the DCQCN notification point is off on the priority they arrive on; no configuration finding"},
		{name: "marks, no CNP, NP off in the configuration", edits: cat(noCNP, []edit{npOff}), want: []string{"error gpu01 ens1f0np0"},
			msg: "(roce_np/enable/3 is 0); corroborates host-ecn on this NIC"},
		{name: "a few marks may be a race", edits: hw(map[string]uint64{"np_ecn_marked_roce_packets": 99, "np_cnp_sent": 0})},
		{name: "congestion counters absent (no cc_query_allowed)", edits: hw(map[string]uint64{"out_of_sequence": 0})},
		{name: "CNPs ignored", edits: hw(map[string]uint64{"rp_cnp_handled": 100, "rp_cnp_ignored": 900}), want: []string{"warning gpu01 ens1f0np0"},
			msg: "the DCQCN reaction point ignored 900 CNPs (90% of those received)"},
		{name: "a few ignored next to many handled", edits: hw(map[string]uint64{"rp_cnp_handled": 100000, "rp_cnp_ignored": 500})},
		{name: "marks long ago, none in the interval", edits: cat(noCNP, hwBefore(map[string]uint64{"np_ecn_marked_roce_packets": 52118, "np_cnp_sent": 0}),
			[]edit{write(gpu01Interval, "30s\n")})},
		{name: "marks in the interval", edits: cat(noCNP, hwBefore(map[string]uint64{"np_ecn_marked_roce_packets": 118, "np_cnp_sent": 0}),
			[]edit{write(gpu01Interval, "30s\n")}), want: []string{"error gpu01 ens1f0np0"}, msg: "in the last 30s: the NIC received 52000 CE-marked"},
	}
})

// dcqcnNoCNP: 52118 marked packets answered by no CNP.
var dcqcnNoCNP = hw(map[string]uint64{"np_ecn_marked_roce_packets": 52118, "np_cnp_sent": 0, "rp_cnp_handled": 9000, "rp_cnp_ignored": 0})

func TestEvidenceDCQCN(t *testing.T) {
	fs := evidenceDCQCN.Run(fabric(t, dcqcnNoCNP...))
	if len(fs) != 1 || fs[0].Actual != "np_ecn_marked_roce_packets 52118, np_cnp_sent 0" || fs[0].Source.String() != hwFile("np_ecn_marked_roce_packets")+":1" {
		t.Errorf("%+v", fs)
	}
}
