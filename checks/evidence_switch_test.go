package checks

// The switches' gNMI counters the switch evidence check tests build, and
// the tests of evidence_switch.go, which several evidence checks use.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// gnmiQueue is one notification of gnmi-counters.json for an egress queue,
// in the layout collectors/gnmi writes.
func gnmiQueue(port string, queue int, ecn, drops uint64) string {
	return fmt.Sprintf(`{"timestamp":"1700000000000000000","prefix":{"elem":[{"name":"qos"},{"name":"interfaces"},{"name":"interface","key":{"interface-id":%q}},{"name":"output"},{"name":"queues"},{"name":"queue","key":{"name":"%d"}},{"name":"state"}]},"update":[{"path":{"elem":[{"name":"ecn-marked-pkts"}]},"val":{"uintVal":"%d"}},{"path":{"elem":[{"name":"no-buffer-uc-dropped-pkts"}]},"val":{"uintVal":"%d"}},{"path":{"elem":[{"name":"transmit-pkts"}]},"val":{"uintVal":"1000"}}]}`,
		port, queue, ecn, drops)
}

func gnmiFile(lines ...string) string { return "[\n  " + strings.Join(lines, ",\n  ") + "\n]\n" }

var spine01Counters = dev("spine01", "gnmi-counters.json")

// The switch evidence checks read gnmi-counters.json through the offline
// collector and the model, like any capture.
// healthyGNMI: marks and no drops on the RoCE queue.
var healthyGNMI = gnmiFile(gnmiQueue("swp1", 0, 0, 0), gnmiQueue("swp1", 3, 4792, 0), gnmiQueue("swp2", 3, 10, 0))

// The switch evidence checks have no counters to read until the gNMI
// collector lands; their logic is tested on counters built by hand.
func TestEvidenceSwitchSilent(t *testing.T) {
	f := fabric(t, write(gpu01E0, prio0Stats))
	if fs := append(evidenceLosslessDrops.Run(f), evidenceECNQueue.Run(f)...); len(fs) != 0 {
		t.Errorf("switch evidence without switch counters: %+v", fs)
	}
}

func TestEvidenceSwitchLogic(t *testing.T) {
	counters := func(drops3, ecn0 uint64) *model.SwitchCounters {
		pos := source.Pos{File: "devices/leaf01/gnmi-counters.json", Line: 7}
		pc := &model.SwitchPortCounters{}
		pc.Drops[3] = model.Explicit(drops3, pos)
		pc.ECNMarked[0] = model.Explicit(ecn0, pos)
		pc.ECNMarked[3] = model.Explicit(uint64(5000), pos)
		return &model.SwitchCounters{File: pos.File, Ports: map[string]*model.SwitchPortCounters{"swp1": pc}}
	}
	f := fabric(t)
	sw := f.SwitchByName("leaf01")
	if fs := append(losslessDrops(newRun(f), sw, counters(0, 0)), ecnQueue(newRun(f), sw, counters(0, 0))...); len(fs) != 0 {
		t.Errorf("clean counters: %+v", fs)
	}
	fs := losslessDrops(newRun(f), sw, counters(12, 0))
	if len(fs) != 1 || fs[0].Interface != "swp1" || !strings.Contains(fs[0].Message, "the lossless queue 3 (switch-priority 3) dropped 12 packets; no configuration finding") {
		t.Errorf("drops: %+v", fs)
	}
	fs = ecnQueue(newRun(f), sw, counters(0, 40))
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "queue 0 ECN-marked 40 packets, but RoCE (switch-priority 3) uses queue 3") {
		t.Errorf("ecn: %+v", fs)
	}
	// A broken queue map on the switch is what the drops corroborate.
	f = fabric(t, appendTo(spine02C, "nv set qos egress-queue-mapping default-global switch-priority 3 traffic-class 0\n"))
	sw = f.SwitchByName("spine02")
	c := counters(0, 0)
	c.Ports["swp1"].Drops[0] = model.Explicit(uint64(9), source.Pos{File: "g", Line: 1})
	fs = losslessDrops(newRun(f), sw, c)
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "corroborates switch-queue-map on this port") {
		t.Errorf("corroborated drops: %+v", fs)
	}
}
