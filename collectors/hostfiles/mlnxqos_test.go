package hostfiles

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// defaultDSCP is the firmware table every real output shows: prio = dscp>>3.
func defaultDSCP() map[int]int {
	m := map[int]int{}
	for d := range 64 {
		m[d] = d >> 3
	}
	return m
}

func dscpRange(m map[int]int, lo, hi, prio int) map[int]int {
	for d := lo; d <= hi; d++ {
		m[d] = prio
	}
	return m
}

var noTC = [8]int{-1, -1, -1, -1, -1, -1, -1, -1}

func vendorTC(tc, line int, prios ...int) TC {
	return TC{TC: tc, RateLimit: "unlimited", TSA: "vendor", Priorities: prios, Line: line}
}

func etsTC(tc, bw, line int, prios ...int) TC {
	return TC{TC: tc, RateLimit: "unlimited", TSA: "ets", BW: bw, Priorities: prios, Line: line}
}

func TestParseMlnxQosFiles(t *testing.T) {
	tests := []struct {
		file string
		want MlnxQos
	}{
		{
			// Mellanox/mlnx-tools commit 52a4791 message, 2023,
			// empty "default priority:" and max_buffer_size=.
			file: "real_2023_52a4791.txt",
			want: MlnxQos{
				DCBXMode: "OS controlled", Trust: "pcp", TrustLine: 3,
				BufferSizes: []int{0, 187200, 0, 0, 0, 0, 0, 0}, MaxBufferSize: 2044224,
				CableLen: 7, HasPFC: true, PFCLine: 9,
				PrioBuffer: []int{1, 1, 1, 1, 1, 1, 1, 1},
				TCs:        []TC{vendorTC(0, 11, 1), vendorTC(1, 13, 0), vendorTC(2, 15, 2), vendorTC(7, 18, 7)},
				PrioTC:     [8]int{1, 0, 2, -1, -1, -1, -1, 7},
			},
		},
		{
			// att/netarbiter nvmf/OUTPUTSAMPLE.setup-nic-lossless-layer3.sh.md, no buffer line or row; the
			// shell trace lines around it are ignored.
			file: "real_netarbiter.txt",
			want: MlnxQos{
				DCBXMode: "OS controlled", Trust: "dscp", TrustLine: 3,
				DSCP2Prio: defaultDSCP(), DSCP2PrioLine: 4,
				CableLen: 7, HasPFC: true, PFCLine: 16,
				PFC:    [8]bool{3: true},
				TCs:    []TC{vendorTC(0, 17, 1), vendorTC(1, 19, 0), vendorTC(2, 21, 2), vendorTC(3, 23, 3)},
				PrioTC: [8]int{1, 0, 2, 3, -1, -1, -1, -1},
			},
		},
		{
			// DOCA 3.2.0 ConnectX-5 blog post (unattributed, not verified), DCBX
			// negotiated ETS (the "..." elides prio 1-6 in the source).
			file: "real_blog_cx5_doca320.txt",
			want: MlnxQos{
				DCBXMode: "Firmware controlled", Trust: "dscp", TrustLine: 2,
				DSCP2Prio: dscpRange(dscpRange(map[int]int{}, 0, 7, 0), 56, 63, 7), DSCP2PrioLine: 3,
				BufferSizes: []int{130944, 130944, 0, 0, 0, 0, 0, 0}, MaxBufferSize: 262016,
				CableLen: 7, HasPFC: true, PFCLine: 11, PFC: [8]bool{3: true},
				PrioBuffer: []int{0, 0, 0, 1, 0, 0, 0, 0},
				TCs:        []TC{etsTC(0, 50, 13, 0, 1, 2, 4, 5, 7), etsTC(3, 50, 20, 3), vendorTC(6, 22, 6)},
				PrioTC:     [8]int{0, 0, 0, 3, 0, 0, 6, 0},
			},
		},
		{
			// Mellanox community "mlnx-qos" (MLNX_OFED 4.2), mirrored at
			// https://cnblogs.com/bandaoyu/p/16752209.html;
			// the web copy collapsed the tabs and added blank lines.
			file: "real_mellanox_community_ofed42.txt",
			want: MlnxQos{
				DCBXMode: "OS controlled", Trust: "dscp", TrustLine: 4,
				DSCP2Prio: defaultDSCP(), DSCP2PrioLine: 5,
				CableLen: 10, HasPFC: true, PFCLine: 17,
				PFC: [8]bool{true, false, true, false, false, false, true, true},
				TCs: []TC{etsTC(0, 10, 19, 1), etsTC(1, 10, 23, 0), etsTC(2, 10, 27, 2), etsTC(3, 10, 31, 3),
					etsTC(4, 10, 35, 4), etsTC(5, 10, 39, 5),
					{TC: 6, RateLimit: "unlimited", TSA: "strict", Priorities: []int{6}, Line: 43},
					etsTC(7, 40, 47, 7)},
				PrioTC: [8]int{1, 0, 2, 3, 4, 5, 6, 7},
			},
		},
		{
			// spidernet-io/spiderpool docs/usage/roce-qos.md, a grep of the output.
			file: "real_spiderpool_excerpt.txt",
			want: MlnxQos{
				Trust: "dscp", TrustLine: 1, CableLen: -1,
				HasPFC: true, PFCLine: 4, PFC: [8]bool{5: true},
				PrioBuffer: []int{0, 0, 0, 0, 0, 1, 0, 0},
				PrioTC:     noTC,
			},
		},
		{
			// Built from the 2021-05..2023-05 print statements: total_size=,
			// a non-empty default priority block, 16 DSCPs of priority 3
			// wrapped over two lines, Gbps rate limits, python3 TC order.
			file: "constructed_2021_total_size.txt",
			want: MlnxQos{
				DCBXMode: "OS controlled", Trust: "dscp", TrustLine: 2,
				DSCP2Prio: dscpRange(map[int]int{0: 0, 46: 5, 48: 6}, 24, 39, 3), DSCP2PrioLine: 3,
				BufferSizes: []int{130944, 130944, 0, 0, 0, 0, 0, 0}, MaxBufferSize: 1048576,
				CableLen: 7, HasPFC: true, PFCLine: 15, PFC: [8]bool{3: true},
				PrioBuffer: []int{0, 0, 0, 1, 0, 0, 0, 0},
				TCs: []TC{etsTC(1, 20, 17, 0),
					{TC: 0, RateLimit: "12.5 Gbps", TSA: "ets", BW: 10, Priorities: []int{1}, Line: 19},
					etsTC(2, 10, 21, 2), etsTC(3, 50, 23, 3), etsTC(4, 10, 25, 4, 5),
					{TC: 6, RateLimit: "100.0 Gbps", TSA: "strict", Priorities: []int{6, 7}, Line: 28}},
				PrioTC: [8]int{1, 0, 2, 3, 4, 4, 6, 6},
			},
		},
		{
			// lldpad banner, trust and buffers not supported, `-a` prints a
			// TC without priorities.
			file: "constructed_not_supported.txt",
			want: MlnxQos{
				DCBXMode: "Firmware controlled", Trust: "none", TrustLine: 6,
				CableLen: 7, HasPFC: true, PFCLine: 10,
				TCs: []TC{vendorTC(0, 11, 1), vendorTC(1, 13, 0), vendorTC(2, 15, 2), vendorTC(3, 17, 3),
					vendorTC(4, 19, 4), vendorTC(5, 21, 5), vendorTC(6, 23, 6, 7),
					{TC: 7, RateLimit: "unlimited", TSA: "unknown", Line: 26}},
				PrioTC: [8]int{1, 0, 2, 3, 4, 5, 6, 6},
				Notes: []string{
					"****** WARNING: lldpad service is running and may overwrite your settings ******",
					"Priority trust state is not supported on your system",
					"Buffers commands are not supported on your system",
				},
			},
		},
		{
			// No rate limit: pretty_print drops the "tc: N ratelimit: R,
			// tsa: " prefix, so the TC numbers are unknown.
			file: "constructed_ratelimit_unsupported.txt",
			want: MlnxQos{
				DCBXMode: "OS controlled", Trust: "pcp", TrustLine: 3,
				BufferSizes: []int{262016, 0, 0, 0, 0, 0, 0, 0},
				CableLen:    7, HasPFC: true, PFCLine: 8, PFC: [8]bool{3: true},
				PrioBuffer: []int{0, 0, 0, 0, 0, 0, 0, 0},
				TCs: []TC{
					{TC: -1, TSA: "vendor", Priorities: []int{1}, Line: 10},
					{TC: -1, TSA: "ets", BW: 50, Priorities: []int{0, 2, 3}, Line: 12},
					{TC: -1, TSA: "strict", Priorities: []int{4, 5, 6, 7}, Line: 16},
				},
				PrioTC: noTC,
				Notes:  []string{"Rate limit is not supported on your system!"},
			},
		},
		{
			// The original 2017 tool (80fb22e): PFC and tc blocks only.
			file: "constructed_2017_original.txt",
			want: MlnxQos{
				CableLen: -1, HasPFC: true, PFCLine: 3, PFC: [8]bool{3: true},
				TCs:    []TC{{TC: 0, RateLimit: "unlimited", TSA: "strict", Priorities: []int{0, 1, 2, 3, 4, 5, 6, 7}, Line: 4}},
				PrioTC: [8]int{},
			},
		},
		{
			file: "constructed_ets_unsupported_crlf.txt",
			want: MlnxQos{
				DCBXMode: "OS controlled", Trust: "pcp", TrustLine: 3,
				CableLen: 0, HasPFC: true, PFCLine: 8,
				TCs:    []TC{{TC: 0, RateLimit: "unlimited", TSA: "strict", Priorities: []int{0, 1, 2, 3, 4, 5, 6, 7}, Line: 9}},
				PrioTC: [8]int{},
				Notes:  []string{"ETS features are not supported on your system"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			name := "mlnx_qos/" + tt.file
			got, err := ParseMlnxQos(name, readTestdata(t, name))
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want
			want.File = name
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("got  %+v\nwant %+v", *got, want)
			}
		})
	}
}

func TestParseMlnxQosVariants(t *testing.T) {
	t.Run("unknown lines are skipped and keep the block", func(t *testing.T) {
		in := "DCBX mode: OS controlled\nSome future line: 5\nPriority trust state: pcp\n" +
			"PFC configuration:\n\tpriority    0   1   2   3   4   5   6   7\n\tenabled     0   0   0   1   0   0   0   0   \n" +
			"tc: 0 ratelimit: unlimited, tsa: vendor\n\tqueue depth: 4\n\t priority:  1\n"
		q, err := ParseMlnxQos("f", []byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if q.Trust != "pcp" || q.TrustLine != 3 || q.PrioTC[1] != 0 || q.PFCLine != 6 {
			t.Errorf("got %+v", q)
		}
	})
	t.Run("compact rows", func(t *testing.T) {
		q, err := ParseMlnxQos("f", []byte("PFC configuration:\nenabled00010000\nbuffer00010000\n"))
		if err != nil {
			t.Fatal(err)
		}
		if q.PFC != [8]bool{3: true} || !reflect.DeepEqual(q.PrioBuffer, []int{0, 0, 0, 1, 0, 0, 0, 0}) {
			t.Errorf("got %+v", q)
		}
	})
	t.Run("dscp in any order, same mapping repeated", func(t *testing.T) {
		in := "dscp2prio mapping:\n\tprio:3 dscp:26,24,\n\tprio:3 dscp:26,\n\tprio:0 dscp:5,\n"
		q, err := ParseMlnxQos("f", []byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(q.DSCP2Prio, map[int]int{24: 3, 26: 3, 5: 0}) {
			t.Errorf("got %v", q.DSCP2Prio)
		}
	})
	t.Run("empty dscp2prio block", func(t *testing.T) {
		q, err := ParseMlnxQos("f", []byte("Priority trust state: dscp\ndscp2prio mapping:\nCable len: 7\n"))
		if err != nil {
			t.Fatal(err)
		}
		if q.DSCP2Prio == nil || len(q.DSCP2Prio) != 0 || q.CableLen != 7 {
			t.Errorf("got %+v", q)
		}
	})
}

func TestParseMlnxQosErrors(t *testing.T) {
	pfc := "PFC configuration:\n\tenabled     0   0   0   1   0   0   0   0   \n"
	tests := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"empty", "", 1, "empty"},
		{"blank", "\n \n\t\n", 1, "empty"},
		{"command not found", "bash: mlnx_qos: command not found\n", 1, "no known line"},
		{"netlink error", "\nNetlink error\n", 2, "no known line"},
		{"only a note", "Rate limit is not supported on your system!\n", 1, "no known line"},
		{"dscp > 63", "Priority trust state: dscp\ndscp2prio mapping:\n\tprio:0 dscp:07,64,\n", 3, "0..63"},
		{"dscp not a number", "dscp2prio mapping:\n\tprio:0 dscp:07,x6,\n", 2, "0..63"},
		{"prio > 7", "dscp2prio mapping:\n\tprio:8 dscp:01,\n", 2, "0..7"},
		{"dscp twice", "dscp2prio mapping:\n\tprio:0 dscp:01,\n\tprio:1 dscp:01,\n", 3, "mapped to priority 0 and 1"},
		{"dscp line outside block", "Priority trust state: pcp\n\tprio:0 dscp:01,\n", 2, "outside the dscp2prio"},
		{"dscp line under default", "dscp2prio mapping:\n\tprio:0 dscp:00,\ndefault priority:\n\tprio:0 dscp:01,\n", 4, "outside the dscp2prio"},
		{"default prio outside block", "dscp2prio mapping:\n\tprio:3\n", 2, "outside the default priority"},
		{"default prio > 7", "default priority:\n\tprio:9\n", 2, "0..7"},
		{"malformed prio", "dscp2prio mapping:\n\tprio:1 pcp:3\n", 2, "malformed prio"},
		{"enabled 7 digits", "PFC configuration:\n\tenabled     0   0   0   1   0   0   0\n", 2, "8 digits"},
		{"enabled 9 digits", "\tenabled     0 0 0 1 0 0 0 0 0\n", 1, "8 digits"},
		{"enabled digit 2", "\tenabled     0 0 0 2 0 0 0 0\n", 1, "8 digits"},
		{"enabled text", "\tenabled     yes\n", 1, "8 digits"},
		{"buffer row 8", pfc + "\tbuffer 0 0 0 0 0 0 0 8\n", 3, "0..7"},
		{"buffer row short", pfc + "\tbuffer 0 0 0\n", 3, "8 buffers"},
		{"malformed tc", pfc + "tc: 0 ratelimit: fast, tsa: ets\n", 3, "malformed tc"},
		{"tc bad tsa", pfc + "tc: 0 ratelimit: unlimited, tsa: wrr\n", 3, "malformed tsa"},
		{"tc 8", pfc + "tc: 8 ratelimit: unlimited, tsa: vendor\n", 3, "0..7"},
		{"bw 101", pfc + "tc: 1 ratelimit: unlimited, tsa: ets, bw: 101%\n", 3, "malformed tsa"},
		{"tc twice", pfc + "tc: 1 ratelimit: unlimited, tsa: vendor\n\t priority:  0\ntc: 1 ratelimit: unlimited, tsa: vendor\n", 5, "twice"},
		{"priority outside tc", pfc + "\t priority:  3\n", 3, "outside a tc block"},
		{"priority after section", pfc + "tc: 0 ratelimit: unlimited, tsa: vendor\nCable len: 7\n\t priority:  3\n", 5, "outside a tc block"},
		{"priority 9", pfc + "tc: 0 ratelimit: unlimited, tsa: vendor\n\t priority:  9\n", 4, "0..7"},
		{"priority twice", pfc + "tc: 0 ratelimit: unlimited, tsa: vendor\n\t priority:  1\ntc: 1 ratelimit: unlimited, tsa: vendor\n\t priority:  1\n", 6, "twice"},
		{"bad trust", "Priority trust state: maybe\n", 1, "pcp, dscp or none"},
		{"empty dcbx", "DCBX mode:\n", 1, "empty DCBX"},
		{"cable len", "Cable len: seven\n", 1, "cable len"},
		{"cable len big", "Cable len: 70000\n", 1, "cable len"},
		{"buffer sizes 7", "Receive buffer size (bytes): 1,2,3,4,5,6,7,\n", 1, "want 8"},
		{"buffer suffix", "Receive buffer size (bytes): 0,0,0,0,0,0,0,0,buffer_total=5\n", 1, "unknown suffix"},
		{"buffer size text", "Receive buffer size (bytes): 0,0,0,0,0,0,0,x,\n", 1, "bad size"},
		{"two outputs", "DCBX mode: OS controlled\nPriority trust state: pcp\nDCBX mode: OS controlled\n", 3, "second"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := ParseMlnxQos("host1/mlnx_qos_eth0.txt", []byte(tt.in))
			if err == nil {
				t.Fatalf("no error, got %+v", q)
			}
			var se *source.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %T %v is not a *source.Error", err, err)
			}
			if se.File != "host1/mlnx_qos_eth0.txt" || se.Line != tt.line || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("got %s:%d %q, want line %d containing %q", se.File, se.Line, se.Msg, tt.line, tt.msg)
			}
		})
	}
}
