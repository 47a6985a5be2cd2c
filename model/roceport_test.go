package model

import (
	"net/netip"
	"testing"
)

// The kernel's own example values (include/rdma/ib_verbs.h formulas):
// lqpn 0x1A2, rqpn 0x3B7 give flow label 0x610CE and port 53462.
func TestRoCEv2SourcePort(t *testing.T) {
	for _, tc := range []struct {
		l, r uint32
		fl   uint32
		port uint16
	}{
		{0x1A2, 0x3B7, 0x610CE, 53462},
		{0x3B7, 0x1A2, 0x610CE, 53462}, // symmetric: both ends send with it
		{0, 0x3B7, 0, 0xC000},
		// The widest QPNs: 0xFFFFFF² needs both folds (>>20, >>40); the
		// values were worked out by hand from the kernel's formula.
		{0xFFFFFF, 0xFFFFFF, 0xFFF1E, 65313},
	} {
		if fl := RoCEv2FlowLabel(tc.l, tc.r); fl != tc.fl {
			t.Errorf("flow label(%#x, %#x) = %#x, want %#x", tc.l, tc.r, fl, tc.fl)
		}
		if p := RoCEv2SourcePort(tc.l, tc.r); p != tc.port {
			t.Errorf("port(%#x, %#x) = %d, want %d", tc.l, tc.r, p, tc.port)
		}
	}
}

func TestModelECMPMember(t *testing.T) {
	a, b := netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("10.0.1.1")
	all := map[string]bool{"source-ip": true, "destination-ip": true, "source-port": true, "destination-port": true, "ip-protocol": true}
	noPort := map[string]bool{"source-ip": true, "destination-ip": true, "destination-port": true, "ip-protocol": true}
	used := map[int]bool{}
	for p := uint16(0xC000); p < 0xC000+64; p++ {
		tu := ECMPTuple{Src: a, Dst: b, SrcPort: p, DstPort: 4791, Protocol: 17}
		m := ModelECMPMember(all, tu, 4)
		if m < 0 || m >= 4 {
			t.Fatalf("member %d of 4", m)
		}
		used[m] = true
		// Without source-port, every port of the pair takes one member.
		if got, want := ModelECMPMember(noPort, tu, 4), ModelECMPMember(noPort, ECMPTuple{Src: a, Dst: b, DstPort: 4791, Protocol: 17}, 4); got != want {
			t.Fatalf("port %d moved the flow without source-port in the hash", p)
		}
	}
	if len(used) != 4 {
		t.Errorf("64 source ports used members %v of 4", used)
	}
	if ModelECMPMember(all, ECMPTuple{}, 1) != 0 {
		t.Error("one next hop")
	}
}
