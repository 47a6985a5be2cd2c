package checks

import (
	"fmt"
	"strings"
	"testing"
)

// gnmiQueue is one notification of gnmi-counters.json for an egress queue,
// in the layout collectors/gnmi writes.
func gnmiQueue(port string, queue int, ecn, drops uint64) string {
	return fmt.Sprintf(`{"timestamp":"1700000000000000000","prefix":{"elem":[{"name":"qos"},{"name":"interfaces"},{"name":"interface","key":{"interface-id":%q}},{"name":"output"},{"name":"queues"},{"name":"queue","key":{"name":"%d"}},{"name":"state"}]},"update":[{"path":{"elem":[{"name":"ecn-marked-pkts"}]},"val":{"uintVal":"%d"}},{"path":{"elem":[{"name":"no-buffer-uc-dropped-pkts"}]},"val":{"uintVal":"%d"}},{"path":{"elem":[{"name":"transmit-pkts"}]},"val":{"uintVal":"1000"}}]}`,
		port, queue, ecn, drops)
}

// gnmiPrio is one switch-priority notification with its pause counters.
func gnmiPrio(port string, prio int, in, out uint64) string {
	return fmt.Sprintf(`{"timestamp":"1700000000000000000","prefix":{"elem":[{"name":"qos"},{"name":"interfaces"},{"name":"interface","key":{"interface-id":%q}},{"name":"switch-priority","key":{"priority":"%d"}},{"name":"state"}]},"update":[{"path":{"elem":[{"name":"counters"},{"name":"in-pause-pkts"}]},"val":{"uintVal":"%d"}},{"path":{"elem":[{"name":"counters"},{"name":"out-pause-pkts"}]},"val":{"uintVal":"%d"}}]}`,
		port, prio, in, out)
}

func gnmiFile(lines ...string) string { return "[\n  " + strings.Join(lines, ",\n  ") + "\n]\n" }

var spine01Counters = dev("spine01", "gnmi-counters.json")

// The switch evidence checks read gnmi-counters.json through the offline
// collector and the model, like any capture.
// healthyGNMI: marks and no drops on the RoCE queue.
var healthyGNMI = gnmiFile(gnmiQueue("swp1", 0, 0, 0), gnmiQueue("swp1", 3, 4792, 0), gnmiQueue("swp2", 3, 10, 0))

var _ = register(evidenceLosslessDrops, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "not collected"},
		{name: "healthy", edits: []edit{write(spine01Counters, healthyGNMI)}},
		{name: "drops on the RoCE queue", edits: []edit{write(spine01Counters, gnmiFile(gnmiQueue("swp1", 3, 4792, 17)))},
			want: []string{"error spine01 swp1"}},
	}
})

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
