package trace

import (
	"testing"

	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
)

// NICPriority walks a NIC as host-trust and host-dscp-map judge it: no
// mlnx_qos is unknown, a wrong trust stops at host-trust, a NIC whose
// dscp2prio the policy does not judge passes there, and the RoCE DSCP's
// entry decides the rest. The marking chain and the trace both read the
// stage's Check to tell these apart.
func TestNICPriority(t *testing.T) {
	p, _ := policy.Preset(policy.DefaultPreset)
	dscp := p.RoCE.DSCP[0]
	nic := func(trust string, prio int) *model.NIC {
		n := &model.NIC{Netdev: "eth0", QosFile: "mlnx_qos-eth0.txt", Trust: model.Value[string]{V: trust, Known: true}}
		n.DSCP.Set(dscp, model.Value[int]{V: prio, Known: true})
		return n
	}
	missing := nic("dscp", 0)
	missing.QosFile = ""
	unmapped := nic("dscp", 0)
	unmapped.DSCPMissing = "no dscp2prio block"
	for _, tc := range []struct {
		name    string
		n       *model.NIC
		check   string
		unknown bool
		broken  bool
	}{
		{"not collected", missing, "host-dscp-map", true, false},
		{"trusts pcp", nic("pcp", p.RoCE.Priority), "host-trust", false, true},
		{"dscp2prio missing", unmapped, "host-dscp-map", true, false},
		{"wrong priority", nic("dscp", 0), "host-dscp-map", false, true},
		{"right priority", nic("dscp", p.RoCE.Priority), "host-dscp-map", false, false},
	} {
		st := NICPriority(p, tc.n)
		if st.Check != tc.check || (st.Unknown != "") != tc.unknown || st.Broken() != tc.broken {
			t.Errorf("%s: %+v, want check %s unknown %v broken %v", tc.name, st, tc.check, tc.unknown, tc.broken)
		}
	}
	p.Trust = "pcp"
	if st := NICPriority(p, nic("pcp", 0)); st.Check != "host-trust" || !st.Verdict.OK {
		t.Errorf("PCP policy, NIC trusting pcp: %+v, want host-trust passed", st)
	}
}

// A stage is broken only on an error verdict: PFC also on another priority
// is a warning and keeps RoCE's mark, as the chain draws it.
func TestSwitchPFCBroken(t *testing.T) {
	p, _ := policy.Preset(policy.DefaultPreset)
	on := func(prios ...int) *model.QoS {
		q := &model.QoS{PFCRx: model.Value[bool]{V: true, Known: true}, PFCTx: model.Value[bool]{V: true, Known: true}}
		for _, pr := range prios {
			q.PFC[pr] = model.Value[bool]{V: true, Known: true}
		}
		return q
	}
	if st := SwitchPFC(p, on(p.RoCE.Priority, 0)); st.PFC.Verdict.OK || st.PFC.Broken() {
		t.Errorf("PFC also on 0: %+v, want a warning that is not broken", st.PFC)
	}
	if st := SwitchPFC(p, on(0)); !st.PFC.Broken() {
		t.Errorf("PFC on 0 only: %+v, want broken", st.PFC)
	}
	q := on(p.RoCE.Priority)
	q.PFCRx.V = false
	if st := SwitchPFC(p, q); !st.Rx.Broken() || st.Tx.Broken() || st.PFC.Broken() {
		t.Errorf("rx off: %+v", st)
	}
}
