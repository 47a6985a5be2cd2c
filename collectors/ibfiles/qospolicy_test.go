package ibfiles

import (
	"strings"
	"testing"
)

// Fixtures: testdata/qos-policy-ulps.conf is in the shape of
// linux-rdma/opensm doc/QoS_management_in_OpenSM.txt §6 (simplified
// policy), testdata/qos-policy-full.conf in that of §5 (full policy).

func TestQoSPolicyULPs(t *testing.T) {
	p, err := ParseQoSPolicy("qos-policy.conf", read(t, "qos-policy-ulps.conf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.ULPs) != 13 || len(p.Levels) != 0 || len(p.Skipped) != 0 {
		t.Fatalf("%d rules, %d levels, skipped %v", len(p.ULPs), len(p.Levels), p.Skipped)
	}
	for i, want := range []ULPRule{
		{Match: "default", ULP: "default", SL: 1, Line: 5},
		{Match: "sdp, port-num 30000", ULP: "sdp", SL: 0, Line: 6},
	} {
		if p.ULPs[i] != want {
			t.Errorf("rule %d = %+v, want %+v", i, p.ULPs[i], want)
		}
	}
	if r := p.ULPs[6]; r.Match != "ipoib, pkey 0x0001" || r.SL != 0 || r.Line != 11 {
		t.Errorf("ipoib pkey rule = %+v", r)
	}
	if r := p.ULPs[9]; r.Match != "any, pkey 0x0ABC" || r.SL != 6 {
		t.Errorf("ANY rule (the lexer is case-insensitive) = %+v", r)
	}
}

func TestQoSPolicyFull(t *testing.T) {
	p, err := ParseQoSPolicy("qos-policy.conf", read(t, "qos-policy-full.conf"))
	if err != nil {
		t.Fatal(err)
	}
	want := []QoSLevel{{Name: "Default", SL: 3, Line: 22, SLLine: 25}, {Name: "WholeSet", SL: 1, Line: 27, SLLine: 29}}
	if len(p.Levels) != 2 || p.Levels[0] != want[0] || p.Levels[1] != want[1] {
		t.Errorf("levels = %+v, want %+v", p.Levels, want)
	}
	if got := strings.Join(p.Skipped, "; "); got != "port-groups at line 6; qos-setup at line 18; qos-match-rules at line 37" {
		t.Errorf("skipped = %q", got)
	}
}

func TestQoSPolicyErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"qos-ulps\n default : 16\nend-qos-ulps\n", "qos-policy.conf:2: SL \"16\": want 0-15"},
		{"qos-ulps\n default 1\nend-qos-ulps\n", "qos-policy.conf:2: \"default 1\": want <ULP>"},
		{"qos-ulps\n nfs : 1\nend-qos-ulps\n", "qos-policy.conf:2: \"nfs\": want a ULP"},
		{"qos-ulps\n any : 1\nend-qos-ulps\n", "qos-policy.conf:2: \"any\": any takes a criterion"},
		{"qos-ulps\n default, pkey 1 : 1\nend-qos-ulps\n", "default takes no criterion"},
		{"\nqos-ulps\n default : 1\n", "qos-policy.conf:2: qos-ulps has no end-qos-ulps"},
		{"qos-levels\n qos-level\n  sl: x\n", "qos-policy.conf:3: sl \"x\": want 0-15"},
		{"qos-levels\n name: DEFAULT\nend-qos-levels\n", "qos-policy.conf:2: \"name: DEFAULT\" outside a qos-level"},
		{"qos-levels\n qos-level\nend-qos-levels\n", "qos-policy.conf:3: end-qos-levels before end-qos-level"},
		{"qos-levels\n qos-level\n qos-level\n", "qos-policy.conf:3: qos-level inside"},
		{"qos-levels\n end-qos-level\n", "end-qos-level without qos-level"},
		{"qos-levels\n qos-level\n  sl 1\n", "want key: value"},
		{"default : 1\n", "qos-policy.conf:1: \"default : 1\": want a section"},
	} {
		_, err := ParseQoSPolicy("qos-policy.conf", []byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.in, err, tc.want)
		}
	}
}
