package hostfiles

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/nvnum"
	"github.com/qoslint/qoslint/internal/source"
)

const fuzzFile = "hosts/gpu1/in.txt"

// checkParseErr asserts the error contract every parser shares.
func checkParseErr(t *testing.T, err error) {
	t.Helper()
	var se *source.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %T %v is not a *source.Error", err, err)
	}
	if se.File != fuzzFile || se.Line < 1 {
		t.Fatalf("error %v: want file %q and line >= 1", se, fuzzFile)
	}
}

// addTestdataSeeds adds every file of testdata/<dir> as a seed.
func addTestdataSeeds(f *testing.F, dir string) {
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

func FuzzParseMlnxQos(f *testing.F) {
	addTestdataSeeds(f, "mlnx_qos")
	for _, s := range []string{
		"",
		"mlnx_qos: command not found\n",
		"Netlink error\n",
		"dscp2prio mapping:\n\tprio:3 dscp:31,30,29,28,27,26,25,24,\n\tprio:3 dscp:39,38,\ndefault priority:\n\tprio:3\n",
		"PFC configuration:\n\tenabled     0   0   0   1   0   0   0   0   \nvendor\n\t priority:  1\n",
		"tc: 0 ratelimit: 25.0 Gbps, tsa: ets, bw: 100%\n\t priority:  0\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		q, err := ParseMlnxQos(fuzzFile, data)
		if err != nil {
			checkParseErr(t, err)
			return
		}
		for d, p := range q.DSCP2Prio {
			if d < 0 || d > 63 || p < 0 || p > 7 {
				t.Fatalf("DSCP2Prio[%d] = %d", d, p)
			}
		}
		for p, tc := range q.PrioTC {
			if tc < -1 || tc > 7 {
				t.Fatalf("PrioTC[%d] = %d", p, tc)
			}
		}
		for _, tc := range q.TCs {
			if tc.TC < -1 || tc.TC > 7 || tc.Line < 1 || tc.BW < 0 || tc.BW > 100 {
				t.Fatalf("bad TC %+v", tc)
			}
			for _, p := range tc.Priorities {
				if p < 0 || p > 7 {
					t.Fatalf("bad TC priority %+v", tc)
				}
			}
		}
		if q.HasPFC != (q.PFCLine > 0) || (q.Trust != "") != (q.TrustLine > 0) ||
			(q.DSCP2Prio != nil) != (q.DSCP2PrioLine > 0) {
			t.Fatalf("line numbers do not match presence: %+v", q)
		}
		if (q.BufferSizes != nil && len(q.BufferSizes) != 8) || (q.PrioBuffer != nil && len(q.PrioBuffer) != 8) {
			t.Fatalf("buffer lists must have 8 entries: %+v", q)
		}
		if q.CableLen < -1 || q.CableLen > 0xffff || q.File != fuzzFile {
			t.Fatalf("bad %+v", q)
		}
		again, err := ParseMlnxQos(fuzzFile, data)
		if err != nil || !reflect.DeepEqual(q, again) {
			t.Fatalf("not deterministic: %+v vs %+v (%v)", q, again, err)
		}
	})
}

func FuzzParseIBDev2Netdev(f *testing.F) {
	for _, s := range []string{
		"mlx5_2 port 1 ==> ens9f0np0 (Up)\n",
		"rocep1s0f1 port 1 ==> enp1s0f1np1 (Up)\nmlx5_0 port 1 ==> ens1f0np0 (Down)\n",
		"mlx5_0 port 1 <===> ens1f0np0\n",
		"0000:3b:00.0 mlx5_0 (MT4119 - MCX556A-ECAT) CX556A - ConnectX-5 QSFP28 fw 16.26.1040 port 1 (ACTIVE) ==> ens1f0 (Up)\n",
		" mlx5_1 (MT4119 - NA         )  fw 16.26.1040 port 1 (DOWN  ) ==> ens1f1 ()\n",
		"garbage\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		devs, err := ParseIBDev2Netdev(fuzzFile, data)
		if err != nil {
			checkParseErr(t, err)
			return
		}
		for i, d := range devs {
			if d.IBDev == "" || d.Netdev == "" || d.Port < 1 || d.Line < 1 {
				t.Fatalf("bad %+v", d)
			}
			if i > 0 && devs[i-1].Netdev > d.Netdev {
				t.Fatalf("not sorted: %+v", devs)
			}
		}
		again, _ := ParseIBDev2Netdev(fuzzFile, data)
		if !reflect.DeepEqual(devs, again) {
			t.Fatalf("not deterministic")
		}
	})
}

func FuzzParseNCCLConf(f *testing.F) {
	addTestdataSeeds(f, "nccl")
	for _, s := range []string{
		"NCCL_DEBUG=WARN\nNCCL_SOCKET_IFNAME==ens1f0\n",
		"# RoCE\nNCCL_IB_SL=5\nNCCL_IB_TC=136\nNCCL_IB_GID_INDEX=3\n",
		"export NCCL_IB_TC=106\n NCCL_IB_SL = 3 # x\nNCCL_IB_HCA=\"^mlx5_1\"\nNCCL_ALGO='Ring'\r\n",
		"NCCL_IB_TC=0106\nNCCL_IB_TC=0x68\nNCCL_IB_SL=08\nNCCL_IB_TC\n=5\n  # NCCL_X=1\n",
		"X=\"unterminated\n\rA=1\rB=2",
		"N\x00C\x00",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseNCCLConf(fuzzFile, data)
		if err != nil {
			checkParseErr(t, err)
			return
		}
		lines := strings.Split(string(data), "\n")
		for k, v := range c.Vars {
			// NCCL takes the name and value from that very line, cut to
			// 1023 bytes each.
			if k == "" || v.Line < 1 || v.Line > len(lines) || len(k) > 1023 || len(v.Value) > 1023 {
				t.Fatalf("bad var %q %+v", k, v)
			}
			if l := lines[v.Line-1]; !strings.HasPrefix(l, k) || !strings.Contains(l, v.Value) || l[0] == '#' {
				t.Fatalf("var %q %+v is not on line %q", k, v, l)
			}
			if n := nvnum.Strtoll(v.Value); n.Digits && !n.Overflow && nvnum.NCCLParamInt(v.Value, -1) != n.V {
				t.Fatalf("ncclInt and NCCLParamInt disagree on %q", v.Value)
			}
		}
		for i, n := range c.Notes {
			if n.Line < 1 || n.Line > len(lines) || n.Msg == "" || (i > 0 && c.Notes[i-1].Line > n.Line) {
				t.Fatalf("bad or unsorted note %d %+v in %+v", i, n, c.Notes)
			}
			if n.Key != "" && !strings.Contains(lines[n.Line-1], n.Key) {
				t.Fatalf("note %+v names a key that is not on its line", n)
			}
		}
		again, err := ParseNCCLConf(fuzzFile, data)
		if err != nil || !reflect.DeepEqual(c, again) {
			t.Fatalf("not deterministic")
		}
	})
}

func FuzzParseIPLink(f *testing.F) {
	for _, s := range []string{ipLinkCompact, ipLinkPretty, "[]", "{}", "[1]", "[{\"ifname\":\"a\",\"mtu\":1,\"operstate\":\"UP\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		links, err := ParseIPLink(fuzzFile, data)
		if err != nil {
			checkParseErr(t, err)
			return
		}
		if !sort.SliceIsSorted(links, func(a, b int) bool { return links[a].Name < links[b].Name }) {
			t.Fatalf("not sorted: %+v", links)
		}
		for _, l := range links {
			if l.Name == "" || l.OperState == "" || l.MTU < 0 || l.Line < 1 || l.Line > lineOf(data, len(data)) {
				t.Fatalf("bad %+v", l)
			}
		}
		again, _ := ParseIPLink(fuzzFile, data)
		if !reflect.DeepEqual(links, again) {
			t.Fatalf("not deterministic")
		}
	})
}

func FuzzParseTrafficClass(f *testing.F) {
	for _, s := range []string{
		"", "Global tclass=106\n", "Global tclass=160\n",
		"Global tclass=106\ndst_ip=10.0.0.0/8,tclass=106\n",
		"src_ip6=fe80:0000:0000:0000:0ac0:ebff:fe21:03da,dst_ip6=2001:0db8:0000:0000:0000:0000:0000:0001,tclass=0\n",
		"Global tclass=300\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tc, err := ParseTrafficClass(fuzzFile, data)
		if err != nil {
			checkParseErr(t, err)
			return
		}
		if tc.Global < -1 || tc.Global > 255 {
			t.Fatalf("Global = %d", tc.Global)
		}
		for _, r := range tc.Rules {
			if r.TClass < 0 || r.TClass > 255 || r.Match == "" || r.Line < 1 {
				t.Fatalf("bad rule %+v", r)
			}
		}
		again, _ := ParseTrafficClass(fuzzFile, data)
		if !reflect.DeepEqual(tc, again) {
			t.Fatalf("not deterministic")
		}
	})
}

func FuzzParseHWCounter(f *testing.F) {
	addTestdataSeeds(f, "hw_counters")
	for _, s := range []string{"", "\n", "1\n", "18446744073709551616\n", "-0\n", "１\n", "0\n0\n", "N/A (no PMA)\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseHWCounter(fuzzFile, data)
		if err != nil {
			checkParseErr(t, err)
			return
		}
		// What parses is a decimal that prints back as itself.
		if strings.TrimLeft(strings.TrimSpace(string(data)), "0") != strings.TrimLeft(strconv.FormatUint(v, 10), "0") {
			t.Fatalf("%q parsed as %d", data, v)
		}
	})
}

func FuzzParseRoCEType(f *testing.F) {
	addTestdataSeeds(f, "roce_type")
	for _, s := range []string{"", "\n", "RoCE v2", "RoCE v2\n\n", "RoCE v1\n", "IB/RoCE v1\nRoCE v2\n", "(null)\n", " RoCE v2\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseRoCEType(fuzzFile, data)
		if err != nil {
			checkParseErr(t, err)
			return
		}
		// What parses is one of the two strings, printed back byte for byte.
		if (v != RoCEv1 && v != RoCEv2) || strings.TrimSuffix(string(data), "\n") != v {
			t.Fatalf("%q parsed as %q", data, v)
		}
	})
}
