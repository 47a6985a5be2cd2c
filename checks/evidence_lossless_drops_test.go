package checks

import (
	"testing"
)

var _ = register(evidenceLosslessDrops, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "not collected"},
		{name: "healthy", edits: []edit{write(spine01Counters, healthyGNMI)}},
		{name: "drops on the RoCE queue", edits: []edit{write(spine01Counters, gnmiFile(gnmiQueue("swp1", 3, 4792, 17)))},
			want: []string{"error spine01 swp1"}},
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
