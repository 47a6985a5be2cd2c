package checks

import (
	"testing"
)

const dscpPrio3 = "prio:3 dscp:31,30,29,28,27,26,25,24,"

var _ = register(hostDSCPMap, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "26 moved to 4", edits: []edit{
			replace(gpu01Q0, dscpPrio3, "prio:3 dscp:31,30,29,28,27,25,24,"),
			replace(gpu01Q0, "prio:4 dscp:39,38,37,36,35,34,33,32,", "prio:4 dscp:26,39,38,37,36,35,34,33,\n\tprio:4 dscp:32,")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "the switches map it to switch-priority 3"},
		{name: "26 missing from the table", edits: []edit{replace(gpu01Q0, dscpPrio3, "prio:3 dscp:31,30,29,28,27,25,24,")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "not in the NIC's dscp2prio table"},
		{name: "switches disagree too", edits: []edit{
			replace(gpu01Q0, dscpPrio3, "prio:3 dscp:31,30,29,28,27,25,24,"),
			replace(gpu01Q0, "prio:0 dscp:07,06,05,04,03,02,01,00,", "prio:0 dscp:26,07,06,05,04,03,02,01,\n\tprio:0 dscp:00,"),
			appendTo(spine02C, "nv set qos mapping default-global dscp 26 switch-priority 0\n")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "the switches disagree: switch-priority 0 on spine02; 3 on leaf01, leaf02, spine01"},
		{name: "pcp NICs are host-trust's", edits: []edit{replace(gpu01Q0, "Priority trust state: dscp", "Priority trust state: pcp")}},
	}
})
