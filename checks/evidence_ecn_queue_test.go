package checks

import (
	"fmt"
	"testing"
)

// gnmiPrio is one switch-priority notification with its pause counters.
func gnmiPrio(port string, prio int, in, out uint64) string {
	return fmt.Sprintf(`{"timestamp":"1700000000000000000","prefix":{"elem":[{"name":"qos"},{"name":"interfaces"},{"name":"interface","key":{"interface-id":%q}},{"name":"switch-priority","key":{"priority":"%d"}},{"name":"state"}]},"update":[{"path":{"elem":[{"name":"counters"},{"name":"in-pause-pkts"}]},"val":{"uintVal":"%d"}},{"path":{"elem":[{"name":"counters"},{"name":"out-pause-pkts"}]},"val":{"uintVal":"%d"}}]}`,
		port, prio, in, out)
}

var _ = register(evidenceECNQueue, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "healthy", edits: []edit{write(spine01Counters, healthyGNMI)}},
		{name: "marks on queue 0", edits: []edit{write(spine01Counters, gnmiFile(gnmiQueue("swp1", 0, 900, 0), gnmiQueue("swp1", 3, 0, 0)))},
			want: []string{"warning spine01 swp1"}},
		{name: "paused but never marked", edits: []edit{write(spine01Counters, gnmiFile(gnmiQueue("swp2", 3, 0, 0), gnmiPrio("swp2", 3, 40, 2)))},
			want: []string{"warning spine01 swp2"}, msg: "saw 42 pause frames but its queue 3 marked no ECN"},
		{name: "paused and marked", edits: []edit{write(spine01Counters, gnmiFile(gnmiQueue("swp2", 3, 7, 0), gnmiPrio("swp2", 3, 40, 2)))}},
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
