package hostfiles

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// qosSemantic is what a round trip through the current layout keeps: no
// line numbers, an empty dscp2prio block the same as none (both mean the
// firmware table to the model), tc blocks in printed (sorted) order.
func qosSemantic(q *MlnxQos) MlnxQos {
	c := *q
	c.TrustLine, c.DSCP2PrioLine, c.PFCLine = 0, 0, 0
	if len(c.DSCP2Prio) == 0 {
		c.DSCP2Prio = nil
	}
	c.TCs = nil
	for _, tc := range sortedTCs(q.TCs) {
		tc.Line = 0
		if len(tc.Priorities) == 0 {
			tc.Priorities = nil
		}
		c.TCs = append(c.TCs, tc)
	}
	return c
}

// qosLost names the fields that differ between a and b once line numbers
// are ignored, but agree semantically: what an older layout cannot keep.
func qosLost(a, b *MlnxQos) []string {
	var lost []string
	if (a.DSCP2Prio == nil) != (b.DSCP2Prio == nil) {
		lost = append(lost, "DSCP2Prio nil/empty")
	}
	strip := func(tcs []TC) []TC {
		var out []TC
		for _, tc := range tcs {
			tc.Line = 0
			out = append(out, tc)
		}
		return out
	}
	if !reflect.DeepEqual(strip(a.TCs), strip(b.TCs)) {
		lost = append(lost, "TC order")
	}
	return lost
}

// mlnxQosInputs lists every mlnx_qos capture the package knows: testdata and
// the example fabrics.
func mlnxQosInputs(t testing.TB) []string {
	files, err := filepath.Glob("testdata/mlnx_qos/*")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := filepath.Glob("../../examples/*/devices/*/mlnx_qos-*.txt")
	if err != nil || len(ex) == 0 {
		t.Fatalf("no example captures: %v", err)
	}
	return append(files, ex...)
}

func TestFormatMlnxQosRoundTrip(t *testing.T) {
	// Files from older layouts, and what their round trip cannot keep.
	lost := map[string][]string{
		// python2-era dict order: tc blocks printed 1, 0, 2, ...
		"testdata/mlnx_qos/constructed_2021_total_size.txt": {"TC order"},
		// a grep excerpt: trust dscp without its dscp2prio block, which
		// pretty_print always prints under trust dscp.
		"testdata/mlnx_qos/real_spiderpool_excerpt.txt": {"DSCP2Prio nil/empty"},
	}
	for _, name := range mlnxQosInputs(t) {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			q, err := ParseMlnxQos(name, data)
			if err != nil {
				t.Fatal(err)
			}
			out := FormatMlnxQos(q)
			back, err := ParseMlnxQos(name, out)
			if err != nil {
				t.Fatalf("formatted output does not parse: %v\n%s", err, out)
			}
			if a, b := qosSemantic(q), qosSemantic(back); !reflect.DeepEqual(a, b) {
				t.Errorf("round trip changed the state:\n got %+v\nwant %+v\n%s", b, a, out)
			}
			if got := qosLost(q, back); !reflect.DeepEqual(got, lost[name]) {
				t.Errorf("lost %q, want %q", got, lost[name])
			}
			if again := FormatMlnxQos(back); !bytes.Equal(again, out) {
				t.Errorf("format is not a fixed point:\n%s\nvs\n%s", out, again)
			}
		})
	}
}

func TestFormatMlnxQosByteIdentical(t *testing.T) {
	// Captures FormatMlnxQos cannot reproduce byte for byte, and why.
	differ := map[string]string{
		// 2021-05..2024-11 layout: "default priority:" and total_size=.
		"broken-pod/devices/gpu03/mlnx_qos-ens1f0np0.txt": "default priority / total_size",
		"broken-pod/devices/gpu03/mlnx_qos-ens1f1np1.txt": "default priority / total_size",
		"clean-pod/devices/gpu03/mlnx_qos-ens1f0np0.txt":  "default priority / total_size",
		"clean-pod/devices/gpu03/mlnx_qos-ens1f1np1.txt":  "default priority / total_size",
		"mixed-pod/devices/gpu03/mlnx_qos-ens1f0np0.txt":  "default priority / total_size", // clean-pod's
		"mixed-pod/devices/gpu03/mlnx_qos-ens1f1np1.txt":  "default priority / total_size",
		// The Kubernetes examples carry clean-pod's host files.
		"k8s-pod/devices/gpu03/mlnx_qos-ens1f0np0.txt":    "default priority / total_size",
		"k8s-pod/devices/gpu03/mlnx_qos-ens1f1np1.txt":    "default priority / total_size",
		"k8s-broken/devices/gpu03/mlnx_qos-ens1f0np0.txt": "default priority / total_size",
		"k8s-broken/devices/gpu03/mlnx_qos-ens1f1np1.txt": "default priority / total_size",
		// The SONiC examples carry clean-pod's host files too.
		"sonic-pod/devices/gpu03/mlnx_qos-ens1f0np0.txt":   "default priority / total_size",
		"sonic-pod/devices/gpu03/mlnx_qos-ens1f1np1.txt":   "default priority / total_size",
		"sonic-mixed/devices/gpu03/mlnx_qos-ens1f0np0.txt": "default priority / total_size",
		"sonic-mixed/devices/gpu03/mlnx_qos-ens1f1np1.txt": "default priority / total_size",
		// DSCP 26 was moved to priority 4 last, so the APP table lists it
		// first ("prio:4 dscp:26,39,..."); the map keeps no order.
		"broken-pod/devices/gpu02/mlnx_qos-ens1f1np1.txt": "DSCP order",
		// DSCP 5 and 6 moved to priority 3, listed first as the moved
		// DSCP 30 and 40 are in published captures ("prio:6
		// dscp:30,55,...", "prio:5 dscp:40,47,...").
		"spectrumx-pod/devices/gpu01/mlnx_qos-ens1f0np0.txt": "DSCP order",
		"spectrumx-pod/devices/gpu01/mlnx_qos-ens1f1np1.txt": "DSCP order",
		"spectrumx-pod/devices/gpu02/mlnx_qos-ens1f0np0.txt": "DSCP order",
		"spectrumx-pod/devices/gpu02/mlnx_qos-ens1f1np1.txt": "DSCP order",
	}
	ex, _ := filepath.Glob("../../examples/*/devices/*/mlnx_qos-*.txt")
	identical := 0
	for _, name := range ex {
		rel := strings.TrimPrefix(name, "../../examples/")
		t.Run(rel, func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			q, err := ParseMlnxQos(name, data)
			if err != nil {
				t.Fatal(err)
			}
			out := FormatMlnxQos(q)
			_, want := differ[rel]
			if same := bytes.Equal(out, data); same == want {
				t.Errorf("byte-identical = %v, want %v (%s)\n--- got\n%s--- file\n%s", same, !want, differ[rel], out, data)
			} else if same {
				identical++
			}
		})
	}
	if identical < 10 {
		t.Errorf("only %d captures reproduced byte for byte", identical)
	}
}

// TestFormatMlnxQosPrint pins the print statements on a state no real
// capture has: wrapped dscp lines, rate limits, bare and empty tc blocks.
func TestFormatMlnxQosPrint(t *testing.T) {
	q := &MlnxQos{
		DCBXMode: "OS controlled", Trust: "dscp",
		DSCP2Prio:   dscpRange(map[int]int{0: 0, 48: 6, 70: 1, 5: 9}, 24, 39, 3),
		BufferSizes: []int{130944, 130944, 0, 0, 0, 0, 0, 0}, MaxBufferSize: 262016,
		CableLen: 7, HasPFC: true, PFC: [8]bool{3: true},
		PrioBuffer: []int{0, 0, 0, 1, 0, 0, 0, 0},
		TCs: []TC{
			{TC: 6, RateLimit: "100.0 Gbps", TSA: "strict", Priorities: []int{7, 6}},
			{TC: 0, RateLimit: "12.5 Gbps", TSA: "ets", BW: 50, Priorities: []int{5, 4, 2, 1, 0}},
			{TC: 3, TSA: "ets", BW: 50, Priorities: []int{3}},
			{TC: 7, RateLimit: "unlimited", TSA: "cbs"},
		},
		Notes: []string{
			"****** WARNING: lldpad service is running and may overwrite your settings ******",
			"Buffers commands are not supported on your system",
		},
	}
	want := "****** WARNING: lldpad service is running and may overwrite your settings ******\n\n" +
		"Buffers commands are not supported on your system\n" +
		"DCBX mode: OS controlled\n" +
		"Priority trust state: dscp\n" +
		"dscp2prio mapping:\n" +
		"\tprio:0 dscp:00,\n" +
		"\tprio:3 dscp:39,38,37,36,35,34,33,32,\n" +
		"\tprio:3 dscp:31,30,29,28,27,26,25,24,\n" +
		"\tprio:6 dscp:48,\n" +
		"Receive buffer size (bytes): 130944,130944,0,0,0,0,0,0,max_buffer_size=262016\n" +
		"Cable len: 7\n" +
		"PFC configuration:\n" +
		"\tpriority    0   1   2   3   4   5   6   7\n" +
		"\tenabled     0   0   0   1   0   0   0   0   \n" +
		"\tbuffer      0   0   0   1   0   0   0   0   \n" +
		"tc: 0 ratelimit: 12.5 Gbps, tsa: ets, bw: 50%\n" +
		"\t priority:  0\n\t priority:  1\n\t priority:  2\n\t priority:  4\n\t priority:  5\n" +
		"tc: 3 ratelimit: unlimited, tsa: ets, bw: 50%\n" +
		"\t priority:  3\n" +
		"tc: 6 ratelimit: 100.0 Gbps, tsa: strict\n" +
		"\t priority:  6\n\t priority:  7\n" +
		"tc: 7 ratelimit: unlimited, tsa: unknown\n"
	if got := string(FormatMlnxQos(q)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}

	t.Run("rate limit not supported: bare tsa lines", func(t *testing.T) {
		name := "mlnx_qos/constructed_ratelimit_unsupported.txt"
		q, err := ParseMlnxQos(name, readTestdata(t, name))
		if err != nil {
			t.Fatal(err)
		}
		got := string(FormatMlnxQos(q))
		if !strings.Contains(got, "\tbuffer      0   0   0   0   0   0   0   0   \nvendor\n\t priority:  1\nets, bw: 50%\n") ||
			!strings.Contains(got, "Receive buffer size (bytes): 262016,0,0,0,0,0,0,0,\n") {
			t.Errorf("got\n%s", got)
		}
	})
	t.Run("2017 layout: only what it printed", func(t *testing.T) {
		name := "mlnx_qos/constructed_2017_original.txt"
		data := readTestdata(t, name)
		q, err := ParseMlnxQos(name, data)
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatMlnxQos(q); !bytes.Equal(got, data) {
			t.Errorf("got\n%s\nwant\n%s", got, data)
		}
	})
}

func TestFormatMlnxQosDSCPWrap(t *testing.T) {
	// 17 DSCPs on one priority: printAppSelector cuts 24 characters (8
	// DSCPs) a line.
	m := map[int]int{}
	for d := range 17 {
		m[d] = 2
	}
	got := string(FormatMlnxQos(&MlnxQos{Trust: "dscp", DSCP2Prio: m, CableLen: -1}))
	want := "Priority trust state: dscp\ndscp2prio mapping:\n" +
		"\tprio:2 dscp:16,15,14,13,12,11,10,09,\n" +
		"\tprio:2 dscp:08,07,06,05,04,03,02,01,\n" +
		"\tprio:2 dscp:00,\n" +
		"PFC configuration:\n\tpriority    0   1   2   3   4   5   6   7\n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	for _, line := range strings.Split(got, "\n") {
		if rest, ok := strings.CutPrefix(line, "\tprio:2 dscp:"); ok && len(rest) > 24 {
			t.Errorf("line %q is longer than printAppSelector's 24 characters", line)
		}
	}
}

func TestSortedTCsKeepsInput(t *testing.T) {
	in := []TC{{TC: 2, Priorities: []int{3, 1}}, {TC: -1, Priorities: []int{0}}, {TC: 0}}
	out := sortedTCs(in)
	if in[0].Priorities[0] != 3 || in[0].TC != 2 {
		t.Errorf("sortedTCs changed its input: %+v", in)
	}
	got := []int{out[0].TC, out[1].TC, out[2].TC}
	if !sort.IntsAreSorted(got) || !reflect.DeepEqual(out[2].Priorities, []int{1, 3}) {
		t.Errorf("got %+v", out)
	}
}
