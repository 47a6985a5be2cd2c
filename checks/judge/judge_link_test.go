package judge

import (
	"testing"

	"github.com/qoslint/qoslint/model"
)

// LinkMTU is the rule link-mtu and the drift share, judged by what
// crosses a cable. RoCE's packets are at most its path MTU (4096) plus the
// 96 bytes iboe_get_mtu() (Linux include/rdma/ib_addr.h) budgets: 4192
// bytes from any host at 4192 or more. The examples' cables are in
// link_mtu_test.go and the broken pod (defect 21: spine01 swp1 9000 against
// leaf01 swp31 9216, hosts at 9000: info).
func TestJudgeLinkMTU(t *testing.T) {
	sw := func(m int) LinkMTUEnd { return LinkMTUEnd{MTU: m, Switch: true} }
	host := func(m int) LinkMTUEnd { return LinkMTUEnd{MTU: m} }
	hosts := func(mtus ...int) model.HostFrames {
		var hf model.HostFrames
		for _, m := range mtus {
			hf.Add(m)
		}
		return hf
	}
	at9000 := hosts(4200, 9000)
	for _, tc := range []struct {
		name   string
		a, b   LinkMTUEnd
		sent   model.HostFrames
		ok     bool
		sev    Severity
		low    int
		reason string
	}{
		{"equal switch ports", sw(9216), sw(9216), at9000, true, 0, 0, ""},
		// The case: no RoCE frame is bigger than the host MTU plus
		// headers, and no host sends above 9000.
		{"9216 and 9000 between switches, hosts at 9000 at most", sw(9216), sw(9000), at9000, false, Info, 1,
			"the switch ports' MTUs differ (9216 and 9000): nothing the hosts send is that large (RoCE packets at most 4192 bytes, host MTU at most 9000), so RoCE is not affected; equal MTUs on both ends are best practice (NetQ's link MTU consistency test)"},
		{"9000 and 9216, a lower", sw(9000), sw(9216), hosts(9216), false, Warning, 0,
			"the switch ports' MTUs differ (9000 and 9216): RoCE's packets (at most 4192 bytes) fit both ends, but the hosts' other frames above 9000 bytes (up to their MTU 9216) are dropped by the smaller end"},
		{"a switch end below RoCE's packets", sw(9216), sw(4000), at9000, false, Error, 1,
			"the switch ports' MTUs differ (9216 and 4000): RoCE packets of up to 4192 bytes (path MTU 4096 plus 96 bytes of headers) are dropped by the smaller end"},
		{"hosts at 2200 send 2144-byte RoCE packets", sw(9216), sw(2100), hosts(2200), false, Error, 1,
			"the switch ports' MTUs differ (9216 and 2100): RoCE packets of up to 2144 bytes (path MTU 2048 plus 96 bytes of headers) are dropped by the smaller end"},
		{"no host known: the larger end bounds what is sent", sw(9216), sw(9000), model.HostFrames{}, false, Warning, 1,
			"the switch ports' MTUs differ (9216 and 9000): RoCE's packets (at most 4192 bytes) fit both ends, but the hosts' other frames above 9000 bytes (up to their MTU 9216) are dropped by the smaller end"},
		{"host below its switch port", host(4200), sw(9216), at9000, true, 0, 0, ""},
		{"host equal to its switch port", host(9216), sw(9216), at9000, true, 0, 0, ""},
		{"switch port below its host, above RoCE", host(9000), sw(4200), at9000, false, Warning, 1,
			"switch port MTU 4200 is below the host's 9000: RoCE's packets (at most 4192 bytes) fit both ends, but the hosts' other frames above 4200 bytes (up to their MTU 9000) are dropped by the smaller end"},
		{"switch port below its host's RoCE packets, switch first", sw(4000), host(9000), at9000, false, Error, 0,
			"switch port MTU 4000 is below the host's 9000: RoCE packets of up to 4192 bytes (path MTU 4096 plus 96 bytes of headers) are dropped by the smaller end"},
		// Host to host (no switch between) is no pair this rule knows.
		{"two hosts", host(1500), host(9000), at9000, true, 0, 0, ""},
	} {
		j, low := LinkMTU(tc.a, tc.b, tc.sent)
		if j.OK != tc.ok || (!j.OK && (low != tc.low || j.Reason != tc.reason || j.Severity != tc.sev)) {
			t.Errorf("%s: %+v low %d, want ok %v %v low %d %q", tc.name, j, low, tc.ok, tc.sev, tc.low, tc.reason)
		}
	}
}

// RoCEPacketMax follows iboe_get_mtu(): 96 bytes of headers beside the
// largest IB MTU enum that fits.
func TestRoCEPacketMax(t *testing.T) {
	for mtu, want := range map[int]int{9000: 4192, 4200: 4192, 4192: 4192, 4191: 2144, 1500: 1120, 351: 0} {
		if got := model.RoCEPacketMax(mtu); got != want {
			t.Errorf("RoCEPacketMax(%d) = %d, want %d", mtu, got, want)
		}
	}
}
