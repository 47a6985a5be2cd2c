package checks

import "testing"

// JudgeLinkMTU is the rule link-mtu and the drift share: two switch ports
// equal, a switch port at least its host NIC's. Its cases follow the
// check's Doc; the examples' cables are in link_test.go and the broken
// pod (defect 21: spine01 swp1 9000 against leaf01 swp31 9216).
func TestJudgeLinkMTU(t *testing.T) {
	sw := func(m int) LinkMTUEnd { return LinkMTUEnd{MTU: m, Switch: true} }
	host := func(m int) LinkMTUEnd { return LinkMTUEnd{MTU: m} }
	for _, tc := range []struct {
		name   string
		a, b   LinkMTUEnd
		ok     bool
		low    int
		reason string
	}{
		{"equal switch ports", sw(9216), sw(9216), true, 0, ""},
		{"switch ports differ, b lower", sw(9216), sw(9000), false, 1,
			"the switch ports' MTUs differ (9216 and 9000): frames the larger end sends are dropped by the other"},
		{"switch ports differ, a lower", sw(9000), sw(9216), false, 0,
			"the switch ports' MTUs differ (9000 and 9216): frames the larger end sends are dropped by the other"},
		{"host below its switch port", host(4200), sw(9216), true, 0, ""},
		{"host equal to its switch port", host(9216), sw(9216), true, 0, ""},
		{"switch port below its host", host(9000), sw(4200), false, 1,
			"switch port MTU 4200 is below the host's 9000: the host's full-size frames are dropped"},
		{"switch port below its host, switch first", sw(4200), host(9000), false, 0,
			"switch port MTU 4200 is below the host's 9000: the host's full-size frames are dropped"},
		// Host to host (no switch between) is no pair this rule knows.
		{"two hosts", host(1500), host(9000), true, 0, ""},
	} {
		j, low := JudgeLinkMTU(tc.a, tc.b)
		if j.OK != tc.ok || (!j.OK && (low != tc.low || j.Reason != tc.reason || j.Severity != Error)) {
			t.Errorf("%s: %+v low %d, want ok %v low %d %q", tc.name, j, low, tc.ok, tc.low, tc.reason)
		}
	}
}
