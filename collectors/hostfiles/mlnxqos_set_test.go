package hostfiles

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

func readExample(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile("../../examples/" + rel)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func parseExample(t *testing.T, rel string) *MlnxQos {
	t.Helper()
	q, err := ParseMlnxQos(rel, readExample(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// The broken pod's defects, fixed with the mlnx_qos commands an operator
// would run, must print exactly what the clean pod's hosts print.
func TestMlnxQosFixConvergesOnCleanPod(t *testing.T) {
	clean := readExample(t, "clean-pod/devices/gpu01/mlnx_qos-ens1f0np0.txt")
	tests := []struct {
		name, file string
		fix        func(q *MlnxQos)
	}{
		{
			// gpu01 runs trust pcp: `mlnx_qos -i X --trust dscp`.
			name: "trust dscp", file: "broken-pod/devices/gpu01/mlnx_qos-ens1f0np0.txt",
			fix: func(q *MlnxQos) { q.SetTrust("dscp") },
		},
		{
			// gpu02 port 1 maps DSCP 26 to priority 4 and has PFC on 4:
			// `--dscp2prio set,26,3` and `--pfc 0,0,0,1,0,0,0,0`. The
			// prio→buffer row is the firmware's; it is set as the host
			// would show it once the buffers follow the PFC priority.
			name: "dscp 26 and pfc", file: "broken-pod/devices/gpu02/mlnx_qos-ens1f1np1.txt",
			fix: func(q *MlnxQos) {
				q.SetDSCP(26, 3)
				q.SetPFC([8]bool{3: true})
				q.PrioBuffer = []int{0, 0, 0, 1, 0, 0, 0, 0}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := parseExample(t, tt.file)
			tt.fix(q)
			if got := FormatMlnxQos(q); !bytes.Equal(got, clean) {
				t.Errorf("got\n%s\nwant\n%s", got, clean)
			}
		})
	}
}

func TestSetTrust(t *testing.T) {
	pcp := func() *MlnxQos { return &MlnxQos{Trust: "pcp", CableLen: -1} }
	t.Run("dscp on an empty table installs the firmware default", func(t *testing.T) {
		q := pcp()
		q.SetTrust("dscp")
		if q.Trust != "dscp" || !reflect.DeepEqual(q.DSCP2Prio, defaultDSCP()) {
			t.Errorf("got %+v", q)
		}
		// Same text as netarbiter's `mlnx_qos -i eth4 --trust dscp`
		// (att/netarbiter nvmf/OUTPUTSAMPLE.setup-nic-lossless-layer3.sh.md).
		out := string(FormatMlnxQos(q))
		if !strings.Contains(out, "dscp2prio mapping:\n\tprio:0 dscp:07,06,05,04,03,02,01,00,\n") ||
			!strings.Contains(out, "\tprio:7 dscp:63,62,61,60,59,58,57,56,\n") {
			t.Errorf("got\n%s", out)
		}
	})
	t.Run("dscp when entries exist changes nothing", func(t *testing.T) {
		q := &MlnxQos{Trust: "dscp", DSCP2Prio: map[int]int{26: 3}}
		q.SetTrust("dscp")
		if !reflect.DeepEqual(q.DSCP2Prio, map[int]int{26: 3}) {
			t.Errorf("got %v", q.DSCP2Prio)
		}
	})
	t.Run("no trust line: entries mean dscp already", func(t *testing.T) {
		q := &MlnxQos{DSCP2Prio: map[int]int{26: 3}}
		q.SetTrust("dscp")
		if q.Trust != "dscp" || !reflect.DeepEqual(q.DSCP2Prio, map[int]int{26: 3}) {
			t.Errorf("got %+v", q)
		}
	})
	t.Run("pcp deletes every DSCP entry", func(t *testing.T) {
		q := parseExample(t, "clean-pod/devices/gpu01/mlnx_qos-ens1f0np0.txt")
		q.SetTrust("pcp")
		if q.Trust != "pcp" || q.DSCP2Prio != nil {
			t.Errorf("got %+v", q)
		}
		want := readExample(t, "broken-pod/devices/gpu01/mlnx_qos-ens1f0np0.txt")
		if got := FormatMlnxQos(q); !bytes.Equal(got, want) {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("other values are refused", func(t *testing.T) {
		for _, v := range []string{"none", "DSCP", ""} {
			q := pcp()
			q.SetTrust(v)
			if !reflect.DeepEqual(q, pcp()) {
				t.Errorf("SetTrust(%q) changed %+v", v, q)
			}
		}
	})
}

func TestSetPFC(t *testing.T) {
	name := "mlnx_qos/constructed_2017_original.txt"
	q, err := ParseMlnxQos(name, readTestdata(t, name))
	if err != nil {
		t.Fatal(err)
	}
	q.SetPFC([8]bool{3: true, 4: true})
	if q.PFC != [8]bool{3: true, 4: true} || !q.HasPFC {
		t.Errorf("got %+v", q)
	}
	if !strings.Contains(string(FormatMlnxQos(q)), "\tenabled     0   0   0   1   1   0   0   0   \n") {
		t.Errorf("got\n%s", FormatMlnxQos(q))
	}
	// A capture without the row gets one.
	q = &MlnxQos{CableLen: -1}
	q.SetPFC([8]bool{3: true})
	back, err := ParseMlnxQos("f", FormatMlnxQos(q))
	if err != nil || !back.HasPFC || back.PFC != q.PFC {
		t.Errorf("got %+v, %v", back, err)
	}
}

func TestSetDSCP(t *testing.T) {
	t.Run("first entry turns trust to dscp", func(t *testing.T) {
		q := &MlnxQos{Trust: "pcp", CableLen: -1}
		q.SetDSCP(26, 3)
		if q.Trust != "dscp" || !reflect.DeepEqual(q.DSCP2Prio, map[int]int{26: 3}) {
			t.Errorf("got %+v", q)
		}
		if got := string(FormatMlnxQos(q)); !strings.Contains(got, "Priority trust state: dscp\ndscp2prio mapping:\n\tprio:3 dscp:26,\nPFC") {
			t.Errorf("got\n%s", got)
		}
	})
	t.Run("moves an existing entry", func(t *testing.T) {
		q := &MlnxQos{Trust: "dscp", DSCP2Prio: defaultDSCP()}
		q.SetDSCP(48, 3)
		want := defaultDSCP()
		want[48] = 3
		if !reflect.DeepEqual(q.DSCP2Prio, want) || q.Trust != "dscp" {
			t.Errorf("got %+v", q)
		}
	})
	t.Run("out of range is refused", func(t *testing.T) {
		for _, c := range [][2]int{{64, 0}, {-1, 0}, {0, 8}, {0, -1}} {
			q := &MlnxQos{Trust: "pcp"}
			q.SetDSCP(c[0], c[1])
			if q.Trust != "pcp" || q.DSCP2Prio != nil {
				t.Errorf("SetDSCP(%d, %d) changed %+v", c[0], c[1], q)
			}
		}
	})
}

func TestDelDSCP(t *testing.T) {
	t.Run("only a matching entry is deleted", func(t *testing.T) {
		q := &MlnxQos{Trust: "dscp", DSCP2Prio: map[int]int{26: 3, 48: 6}}
		q.DelDSCP(26, 4) // -ENOENT: 26 maps to 3
		q.DelDSCP(10, 1) // no such entry
		if !reflect.DeepEqual(q.DSCP2Prio, map[int]int{26: 3, 48: 6}) {
			t.Errorf("got %v", q.DSCP2Prio)
		}
		q.DelDSCP(26, 3)
		if !reflect.DeepEqual(q.DSCP2Prio, map[int]int{48: 6}) || q.Trust != "dscp" {
			t.Errorf("got %+v", q)
		}
	})
	t.Run("the last entry turns trust to pcp", func(t *testing.T) {
		q := &MlnxQos{Trust: "dscp", DSCP2Prio: map[int]int{48: 6}, CableLen: 7}
		q.DelDSCP(48, 6)
		if q.Trust != "pcp" || q.DSCP2Prio != nil {
			t.Errorf("got %+v", q)
		}
		if got := string(FormatMlnxQos(q)); strings.Contains(got, "dscp2prio") {
			t.Errorf("got\n%s", got)
		}
	})
	t.Run("nil table", func(t *testing.T) {
		q := &MlnxQos{Trust: "pcp"}
		q.DelDSCP(0, 0)
		if q.Trust != "pcp" || q.DSCP2Prio != nil {
			t.Errorf("got %+v", q)
		}
	})
}

func TestMlnxQosNil(t *testing.T) {
	var q *MlnxQos
	q.SetTrust("dscp")
	q.SetPFC([8]bool{3: true})
	q.SetDSCP(26, 3)
	q.DelDSCP(26, 3)
	if out := FormatMlnxQos(q); out != nil {
		t.Errorf("FormatMlnxQos(nil) = %q", out)
	}
}

// SetETS prints what mlnx_qos prints after --tsa/--tcbw, and refuses what
// mlnx_qos or the mlx5 driver refuse (python/mlnx_qos: "ETS BW for a
// strict/vendor TC must be 0"; mlx5e_dbcnl_validate_ets: ETS shares add up
// to 100).
func TestSetETS(t *testing.T) {
	rel := "clean-pod/devices/gpu01/mlnx_qos-ens1f0np0.txt"
	ets := [8]string{"ets", "vendor", "vendor", "strict", "vendor", "vendor", "strict", "vendor"}
	q := parseExample(t, rel)
	if !q.SetETS(ets, [8]int{100}) {
		t.Fatal("SetETS refused a valid list")
	}
	out := string(FormatMlnxQos(q))
	for _, want := range []string{"tc: 0 ratelimit: unlimited, tsa: ets, bw: 100%\n", "tc: 3 ratelimit: unlimited, tsa: strict\n", "tc: 6 ratelimit: unlimited, tsa: strict\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("after SetETS the output lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []struct {
		name string
		tsa  [8]string
		bw   [8]int
	}{
		{"sum not 100", ets, [8]int{50}},
		{"share on a strict class", ets, [8]int{50, 0, 0, 50}},
		{"unknown algorithm", [8]string{"wrr"}, [8]int{100}},
		{"share above 100", ets, [8]int{101}},
	} {
		q := parseExample(t, rel)
		before := FormatMlnxQos(q)
		if q.SetETS(bad.tsa, bad.bw) || !bytes.Equal(FormatMlnxQos(q), before) {
			t.Errorf("%s: SetETS accepted or changed the NIC", bad.name)
		}
	}
}
