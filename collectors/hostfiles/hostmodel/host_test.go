package hostmodel

import (
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/model"
)

// netarbiter's output (att/netarbiter nvmf/OUTPUTSAMPLE.setup-nic-lossless-layer3.sh.md): trust dscp, default map, PFC on 3.
const mlnxQosDSCP = `DCBX mode: OS controlled
Priority trust state: dscp
dscp2prio mapping:
	prio:0 dscp:07,06,05,04,03,02,01,00,
	prio:1 dscp:15,14,13,12,11,10,09,08,
	prio:2 dscp:23,22,21,20,19,18,17,16,
	prio:3 dscp:31,30,29,28,27,26,25,24,
	prio:4 dscp:39,38,37,36,35,34,33,32,
	prio:5 dscp:47,46,45,44,43,42,41,40,
	prio:6 dscp:55,54,53,52,51,50,49,48,
	prio:7 dscp:63,62,61,60,59,58,57,56,
Cable len: 7
PFC configuration:
	priority    0   1   2   3   4   5   6   7
	enabled     0   0   0   1   0   0   0   0   
tc: 0 ratelimit: unlimited, tsa: vendor
	 priority:  1
tc: 1 ratelimit: unlimited, tsa: vendor
	 priority:  0
tc: 3 ratelimit: unlimited, tsa: vendor
	 priority:  3
`

// The Mellanox/mlnx-tools commit 52a4791 message output: trust pcp, no PFC.
const mlnxQosPCP = `DCBX mode: OS controlled
Priority trust state: pcp
default priority:
Receive buffer size (bytes): 0,187200,0,0,0,0,0,0,max_buffer_size=2044224
Cable len: 7
PFC configuration:
	priority    0   1   2   3   4   5   6   7
	enabled     0   0   0   0   0   0   0   0
	buffer      1   1   1   1   1   1   1   1
tc: 0 ratelimit: unlimited, tsa: vendor
	 priority:  1
`

func qos(t *testing.T, src string) *hostfiles.MlnxQos {
	t.Helper()
	q, err := hostfiles.ParseMlnxQos("mlnx_qos-eth0.txt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func nccl(t *testing.T, src string) *hostfiles.NCCLConf {
	t.Helper()
	c, err := hostfiles.ParseNCCLConf("nccl.conf", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestHostNIC(t *testing.T) {
	tc106 := &hostfiles.TrafficClass{File: "traffic_class", Global: 106}
	unset := &hostfiles.TrafficClass{File: "traffic_class", Global: -1}
	for _, tc := range []struct {
		name    string
		qos     string
		nccl    string
		forced  *hostfiles.TrafficClass
		trust   string
		dscp26  int
		pfc3    bool
		tos     int
		via     string
		tosKnow bool
	}{
		{"dscp, NCCL_IB_TC", mlnxQosDSCP, "NCCL_IB_TC=106\n", unset, "dscp", 3, true, 106, "NCCL_IB_TC", true},
		{"forced tclass wins over NCCL", mlnxQosDSCP, "NCCL_IB_TC=26\n", tc106, "dscp", 3, true, 106, "traffic_class", true},
		{"NCCL default 0", mlnxQosDSCP, "NCCL_IB_HCA=mlx5_0\n", unset, "dscp", 3, true, 0, "default", true},
		{"nccl.conf not collected", mlnxQosPCP, "", unset, "pcp", 3, false, 0, "unknown", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hc := &collectors.HostCapture{Name: "gpu01", NICs: []*collectors.NICCapture{{
				Netdev: "eth0", IBDev: "mlx5_0", Port: 1, Qos: qos(t, tc.qos),
				Sysfs: &hostfiles.Sysfs{TrafficClass: tc.forced},
			}}}
			if tc.nccl != "" {
				hc.NCCL = nccl(t, tc.nccl)
			}
			h := Host(hc)
			n := h.NICs[0]
			if n.Trust.V != tc.trust || n.DSCP.At(26).V != tc.dscp26 || n.PFC.At(3).V != tc.pfc3 {
				t.Errorf("trust %s, 26→%d, PFC3 %v", n.Trust.V, n.DSCP.At(26).V, n.PFC.At(3).V)
			}
			if n.ToS.Known != tc.tosKnow || (tc.tosKnow && (n.ToS.V != tc.tos || n.ToS.Via != tc.via)) {
				t.Errorf("ToS %+v, want %d via %s", n.ToS, tc.tos, tc.via)
			}
		})
	}
}

// mlnx_qos prints "dscp2prio mapping:" and its entries whenever trust is
// dscp (Mellanox/mlnx-tools python/mlnx_qos pretty_print), so a trust-dscp
// capture without them was filtered: the map is not collected, not the
// DSCP>>3 default. With trust pcp the tool prints no map at all, and the
// 2017 original printed neither trust nor map.
func TestHostDSCPMapPresence(t *testing.T) {
	for _, tc := range []struct {
		name, out string
		known     bool // DSCP 26 known
		dscp26    int
		missing   string // part of DSCPMissing, "" for none
	}{
		{"trust dscp, block filtered out", "DCBX mode: OS controlled\nPriority trust state: dscp\nCable len: 7\n", false, 0, `no "dscp2prio mapping:" block`},
		{"trust dscp, header only", "Priority trust state: dscp\ndscp2prio mapping:\nCable len: 7\n", false, 0, "block with no entry"},
		{"trust dscp, full block", mlnxQosDSCP, true, 3, ""},
		{"trust pcp prints no map", mlnxQosPCP, true, 3, ""},
		{"2017 original: no trust, no map", "PFC configuration:\n\tpriority    0   1   2   3   4   5   6   7\n\tenabled     0   0   0   1   0   0   0   0\n", true, 3, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := Host(&collectors.HostCapture{Name: "h", NICs: []*collectors.NICCapture{{Netdev: "eth0", Qos: qos(t, tc.out)}}})
			n := h.NICs[0]
			if n.DSCP.At(26).Known != tc.known || n.DSCP.At(26).V != tc.dscp26 {
				t.Errorf("DSCP 26 = %+v, want known %v %d", n.DSCP.At(26), tc.known, tc.dscp26)
			}
			if (tc.missing == "") != (n.DSCPMissing == "") || !strings.Contains(n.DSCPMissing, tc.missing) {
				t.Errorf("DSCPMissing = %q, want %q", n.DSCPMissing, tc.missing)
			}
			if tc.missing != "" && (len(h.Notes) != 1 || h.Notes[0].File != "mlnx_qos-eth0.txt" || h.Notes[0].Msg != n.DSCPMissing) {
				t.Errorf("notes = %v", h.Notes)
			}
		})
	}
}

// The builder copies the RoCE types as the files print them, so the
// model's names must be the parser's strings.
func TestRoCETypesAgree(t *testing.T) {
	if model.RoCEv1 != hostfiles.RoCEv1 || model.RoCEv2 != hostfiles.RoCEv2 {
		t.Errorf("model RoCE types %q, %q; hostfiles %q, %q", model.RoCEv1, model.RoCEv2, hostfiles.RoCEv1, hostfiles.RoCEv2)
	}
}
