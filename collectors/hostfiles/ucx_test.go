package hostfiles

import (
	"strings"
	"testing"
)

// The shapes follow openucx/ucx config/ucx.conf (sections whose first
// line is a "CPU model=" filter) and the inih rules of
// src/ucs/config/ini.c; the values are ours.
func TestParseUCXConf(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		vars  map[string]string
		cond  map[string]string // name → filter
		plain map[string]bool
		notes []int
	}{
		{name: "bare", in: "UCX_IB_TRAFFIC_CLASS=106\n", vars: map[string]string{"UCX_IB_TRAFFIC_CLASS": "106"}, plain: map[string]bool{"UCX_IB_TRAFFIC_CLASS": true}},
		{name: "spaces colon comments", in: "; c\n# c\n\nUCX_IB_SL : 3 ; three\nUCX_IB_TRAFFIC_CLASS = auto;x\n",
			vars: map[string]string{"UCX_IB_SL": "3", "UCX_IB_TRAFFIC_CLASS": "auto;x"}, plain: map[string]bool{"UCX_IB_SL": false}},
		{name: "later wins", in: "UCX_IB_TRAFFIC_CLASS=26\nA=1\nUCX_IB_TRAFFIC_CLASS=106\n", vars: map[string]string{"UCX_IB_TRAFFIC_CLASS": "106", "A": "1"}, notes: []int{3}},
		{name: "filtered section", in: "UCX_IB_SL=3\n[Grace Hopper]\nCPU model=Grace\nUCX_IB_TRAFFIC_CLASS=26\n[Other]\nUCX_IB_SL=4\n",
			vars: map[string]string{"UCX_IB_SL": "4"}, cond: map[string]string{"UCX_IB_TRAFFIC_CLASS": "CPU model=Grace"}, notes: []int{6}},
		{name: "filter in first section", in: "CPU vendor=AMD\nUCX_IB_SL=3\n", vars: map[string]string{}, cond: map[string]string{"UCX_IB_SL": "CPU vendor=AMD"}},
		{name: "continuation replaces", in: "UCX_IB_TRAFFIC_CLASS=26\n  106\n", vars: map[string]string{"UCX_IB_TRAFFIC_CLASS": "106"}, notes: []int{2}},
		{name: "junk lines", in: "hello\n[broken\nUCX_IB_SL=3\n", vars: map[string]string{"UCX_IB_SL": "3"}, notes: []int{1, 2}},
		{name: "overlong", in: "UCX_X=" + strings.Repeat("a", 200) + "\nUCX_IB_SL=3\n", vars: map[string]string{"UCX_IB_SL": "3"}, notes: []int{1}},
		{name: "bom crlf", in: "\ufeffUCX_IB_SL=3\r\n", vars: map[string]string{"UCX_IB_SL": "3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseUCXConf("ucx.conf", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Vars) != len(tt.vars) {
				t.Errorf("vars %v, want %v", c.Vars, tt.vars)
			}
			for k, v := range tt.vars {
				if c.Vars[k].Value != v {
					t.Errorf("%s = %q, want %q", k, c.Vars[k].Value, v)
				}
			}
			for k, want := range tt.plain {
				if c.Plain[k] != want {
					t.Errorf("plain[%s] = %v", k, c.Plain[k])
				}
			}
			if len(c.Conditional) != len(tt.cond) {
				t.Errorf("conditional %v, want %v", c.Conditional, tt.cond)
			}
			for k, f := range tt.cond {
				if c.Conditional[k].Filter != f {
					t.Errorf("%s filter %q, want %q", k, c.Conditional[k].Filter, f)
				}
			}
			var lines []int
			for _, n := range c.Notes {
				lines = append(lines, n.Line)
			}
			if len(lines) != len(tt.notes) || (len(lines) > 0 && lines[0] != tt.notes[0]) {
				t.Errorf("notes %+v, want lines %v", c.Notes, tt.notes)
			}
		})
	}
	if _, err := ParseUCXConf("ucx.conf", []byte("UCX_IB_SL=3\n\x00")); err == nil || !strings.Contains(err.Error(), "ucx.conf:2") {
		t.Errorf("NUL: %v", err)
	}
}

// The values openucx/ucx src/ucs/config/parser.c accepts for
// UCX_IB_TRAFFIC_CLASS (ucs_config_sscanf_ulunits).
func TestUCXULUnits(t *testing.T) {
	tests := []struct {
		in       string
		n        uint64
		auto, ok bool
	}{
		{"auto", 0, true, true}, {"AUTO", 0, true, true}, {"106", 106, false, true},
		{" 26", 26, false, true}, {"106abc", 106, false, true}, {"", 0, false, false},
		{"x", 0, false, false}, {"inf", ^uint64(0), false, true},
	}
	for _, tt := range tests {
		n, auto, ok := UCXULUnits(tt.in)
		if n != tt.n || auto != tt.auto || ok != tt.ok {
			t.Errorf("UCXULUnits(%q) = %d %v %v", tt.in, n, auto, ok)
		}
	}
}

// default_roce_tos as drivers/infiniband/core/cma_configfs.c prints it.
func TestParseRoCEToS(t *testing.T) {
	for in, want := range map[string]int{"106\n": 106, "0\n": 0, "255": 255} {
		if v, err := ParseRoCEToS("f", []byte(in)); err != nil || v != want {
			t.Errorf("%q: %d %v", in, v, err)
		}
	}
	for _, in := range []string{"", "256\n", "-1\n", "x\n", "1\n2\n", "0106\n"} {
		if _, err := ParseRoCEToS("f", []byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

func FuzzParseUCXConf(f *testing.F) {
	addTestdataSeeds(f, "ucx_conf")
	for _, s := range []string{"", "UCX_IB_SL=3\n", "[a]\nCPU model=x\nUCX_A=1\n  2\n", "[x\n;c\n a\n", "A:b ; c\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseUCXConf(fuzzFile, data)
		if err != nil {
			checkParseErr(t, err)
			return
		}
		lines := strings.Count(string(data), "\n") + 1
		for k, v := range c.Vars {
			if v.Line < 1 || v.Line > lines || strings.ContainsAny(v.Value, "\n") || !strings.Contains(string(data), k) {
				t.Fatalf("bad var %q %+v", k, v)
			}
		}
		for _, n := range c.Notes {
			if n.Line < 1 || n.Line > lines || n.Msg == "" {
				t.Fatalf("bad note %+v", n)
			}
		}
	})
}

func FuzzParseRoCEToS(f *testing.F) {
	for _, s := range []string{"106\n", "0\n", "256\n", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseRoCEToS(fuzzFile, data)
		if err != nil {
			checkParseErr(t, err)
			return
		}
		if v < 0 || v > 255 {
			t.Fatalf("ToS %d", v)
		}
	})
}
