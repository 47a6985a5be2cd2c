package nvue

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/internal/source"
)

// addSeeds adds every testdata file and every testdata/nvue_md example to f, plus
// extra inline inputs.
func addSeeds(f *testing.F, extra ...string) {
	for _, pattern := range []string{"testdata/*.*", "testdata/nvue_md/*.txt"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, name := range files {
			b, err := os.ReadFile(name)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
}

// checkError asserts the error contract: a *source.Error naming the file
// with a 1-based line.
func checkError(t *testing.T, err error, file string) {
	t.Helper()
	var se *source.Error
	if !errors.As(err, &se) {
		t.Fatalf("error %v (%T) is not a *source.Error", err, err)
	}
	if se.File != file || se.Line < 1 || se.Msg == "" {
		t.Fatalf("error %+v: want file %q, line ≥ 1 and a message", se, file)
	}
}

// checkTree asserts the tree invariants both config parsers promise.
func checkTree(t *testing.T, cfg *Config, format string, lines int) {
	t.Helper()
	if cfg.Root == nil || cfg.Root.Key != "" || cfg.Format != format {
		t.Fatalf("config %+v: want root with key \"\" and format %q", cfg, format)
	}
	var walk func(n *Node, depth int)
	walk = func(n *Node, depth int) {
		if n.Line < 1 || n.Line > lines {
			t.Fatalf("node %q has line %d, outside 1..%d", n.Key, n.Line, lines)
		}
		if depth > 0 && n.Key == "" {
			t.Fatalf("member with an empty key")
		}
		if n.IsLeaf && len(n.Children) > 0 {
			t.Fatalf("leaf %q has members", n.Key)
		}
		if !n.IsLeaf && n.Value != "" {
			t.Fatalf("object %q has value %q", n.Key, n.Value)
		}
		seen := map[string]bool{}
		for _, c := range n.Children {
			if seen[c.Key] {
				t.Fatalf("%q has two members %q", n.Key, c.Key)
			}
			seen[c.Key] = true
			walk(c, depth+1)
		}
	}
	walk(cfg.Root, 0)
}

func lineCount(data []byte) int { return strings.Count(string(data), "\n") + 1 }

func FuzzParseYAML(f *testing.F) {
	addSeeds(f,
		"header:\n  version: Cumulus Linux 5.14.0\nset:\n  qos:\n    roce:\n      mode: lossless\n",
		"- set:\n    a: {b: 1}\n- unset:\n    a:\n      b:\n",
		"- set:\n    qos:\n      roce: mode: lossless\n",
		"- set:\n    a: &x {b: 1}\n    c: *x\n",
		"- set: {}\n---\n- set: {}\n",
		"- set:\n    '': 1\n",
		"",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		const file = "sw/nv-config.yaml"
		cfg, err := ParseYAML(file, data)
		if err != nil {
			checkError(t, err, file)
			return
		}
		checkTree(t, cfg, "yaml", lineCount(data))
		again, err := ParseYAML(file, data)
		if err != nil || !reflect.DeepEqual(cfg, again) {
			t.Fatalf("second parse differs: %v", err)
		}
	})
}

func FuzzParseCommands(f *testing.F) {
	addSeeds(f,
		docsCommands,
		"nv set qos roce mode lossy\nnv unset qos roce mode lossy\n",
		"nv set qos pfc p switch-priority 3\nnv set qos pfc p switch-priority 3 x\nnv set qos pfc p\n",
		"nv set a b ''\nnv set a b c\nnv unset a b c\n",
		"nv set x 'unterminated\n",
		"nv set system message \"a \\\"b\\\" c\" # comment\r\n",
		"cumulus@leaf3:mgmt:~$ nv config show -o commands\n",
		// Multi-line values as NVUE prints them (shell.go cites the source).
		"nv set system message pre-login '####\n#  NVIDIA Cumulus'\"'\"' latest\n####'\nnv set system hostname leaf01\n",
		"nv set system config snippet snmp-config content 'agentAddress udp:161\n# Cumulus specific\nview   systemonly  included   .1.3.6.1.4.1.40310.1\n'\n",
		"#!/bin/bash\n# NVUE CLI Configuration for leaf01\n#====\n# QoS\n#====\nnv set qos roce mode lossless\n\nnv config apply\n",
		// Broken lines: one bad line among good ones, a quote that pairs
		// with a later one, a line continuation, CRLF.
		"nv set qos roce mode lossless\nnv set system aaa user cumulus hashed-password '*\nnv set qos roce state enabled\n",
		"nv set a b 'x\nnv set c d 'y z'\nnv set e f g\n",
		"nv set interface swp1 \\\n  link mtu 9216\nError: x\nnv\nnv frobnicate\nnv config save\n",
		"nv set a b 'x\r\ny'\r\nnv set c d e\r\n",
		"root@leaf01:~# nv set qos roce mode 'lossy\nnv set qos roce mode lossless\n",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		const file = "sw/nv-config-commands.txt"
		cfg, errs, notes := ParseCommands(file, data)
		lines := lineCount(data)
		seen := map[int]bool{}
		for _, list := range [][]*source.Error{errs, notes} {
			last := 0
			for _, e := range list {
				checkError(t, e, file)
				if e.Msg == "empty configuration" {
					continue // about the file, at line 1
				}
				if e.Line > lines || e.Line <= last || seen[e.Line] {
					t.Fatalf("%v: line out of order, outside 1..%d or reported twice", e, lines)
				}
				last = e.Line
				seen[e.Line] = true
			}
		}
		if cfg == nil {
			if len(errs) == 0 {
				t.Fatal("no configuration and no error")
			}
		} else {
			checkTree(t, cfg, "commands", lines)
			if cfg.Version != "" || cfg.Header != nil {
				t.Fatalf("commands have no header, got %q %v", cfg.Version, cfg.Header)
			}
		}
		again, errs2, notes2 := ParseCommands(file, data)
		if !reflect.DeepEqual(cfg, again) || !reflect.DeepEqual(errs, errs2) || !reflect.DeepEqual(notes, notes2) {
			t.Fatal("second parse differs")
		}
		// Apply is the strict reader of the same grammar: it refuses
		// whatever ParseCommands found unreadable, and builds the same
		// tree from what it accepts.
		var applied Config
		err := applied.Apply(file, data)
		empty := cfg == nil && len(errs) == 1 && errs[0].Msg == "empty configuration"
		if err == nil && len(errs) > 0 && !empty {
			t.Fatalf("Apply accepts what ParseCommands refuses: %v", errs)
		}
		if err != nil {
			checkError(t, err, file)
		} else if cfg != nil && !reflect.DeepEqual(cfg.Root, applied.Root) {
			t.Fatal("Apply and ParseCommands build different trees")
		}
	})
}

func FuzzParseRoceShow(f *testing.F) {
	addSeeds(f,
		"RoCE PCP/DSCP->SP mapping configurations\n===\nNo Data\n",
		"RoCE SP->TC mapping and ETS configurations\n===\n       switch-prio  traffic-class  scheduler-weight\n    -  -----------  -------------  ----------------\n    0  0            zero           DWRR-50%\n",
		"      operational  applied\n----  -----------  -------\nmode\npfc\n  pfc-priority  3\n    deeper  x\n",
		"bash: nv: command not found\n",
		"RoCE pool config\n===\n       name  mode  size  switch-priorities  traffic-class\n    -  ----  ----  ----  ---  ---\n    0  a  Dynamic  inf  0,x  -\n",
		"u@h:~$ nv show interface swp1 qos roce status\nRoCE Pool Status\n===\n        name  mode  pool-id  switch-priorities  traffic-class  size\n    --  ----  ----  -------  -----------------  -------------  ----\n    0   a     DYNAMIC  2  0,,1  -  1 MB\n",
		"u@h:~$ nv show interface  qos roce status\n",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		const file = "sw/nv-show-qos-roce.txt"
		rs, err := ParseRoceShow(file, data)
		if err != nil {
			checkError(t, err, file)
			return
		}
		n := lineCount(data)
		if rs.Interface != "" && (!rs.PerInterface || !strings.Contains(string(data), " "+rs.Interface+" ")) {
			t.Fatalf("interface %q not from a per-interface prompt (per-interface %v)", rs.Interface, rs.PerInterface)
		}
		if rs.File != file || rs.Leaves == nil {
			t.Fatalf("result %+v: want file %q and non-nil leaves", rs, file)
		}
		for k, fld := range rs.Leaves {
			if k == "" || fld.Line < 1 || fld.Line > n {
				t.Fatalf("leaf %q at line %d (of %d)", k, fld.Line, n)
			}
		}
		if (rs.DSCPToSP == nil) != (rs.MappingLine == 0) || (rs.DSCPToSP == nil) != (rs.PCPToSP == nil) {
			t.Fatalf("mapping table and its line disagree: %d %v %v", rs.MappingLine, rs.DSCPToSP, rs.PCPToSP)
		}
		if (rs.SPToTC == nil) != (rs.ETSLine == 0) || (rs.SPToTC == nil) != (rs.SPScheduler == nil) {
			t.Fatalf("ETS table and its line disagree: %d %v %v", rs.ETSLine, rs.SPToTC, rs.SPScheduler)
		}
		for d, ln := range rs.DSCPLines {
			if _, ok := rs.DSCPToSP[d]; !ok || ln <= rs.MappingLine || ln > n {
				t.Fatalf("DSCP %d row at line %d (table at %d, of %d)", d, ln, rs.MappingLine, n)
			}
		}
		for sp, ln := range rs.SPLines {
			if ln <= rs.ETSLine || ln > n {
				t.Fatalf("SP %d row at line %d (table at %d, of %d)", sp, ln, rs.ETSLine, n)
			}
		}
		for _, p := range rs.Pools {
			if p.Line <= rs.PoolLine || p.Line > n {
				t.Fatalf("pool %q at line %d (table at %d, of %d)", p.Name, p.Line, rs.PoolLine, n)
			}
		}
		again, err := ParseRoceShow(file, data)
		if err != nil || !reflect.DeepEqual(rs, again) {
			t.Fatalf("second parse differs: %v", err)
		}
	})
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"146.48 KB", "1.43 MB", "0 Bytes", "40000 B", "inf", "9.9.9 KB", "1e5 KB", ". KB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, ok := ParseSize(in)
		if !ok {
			return
		}
		if s.Bytes < 0 || s.Tol < 0 || s.Tol > s.Bytes+float64(1<<40) {
			t.Fatalf("ParseSize(%q) = %+v", in, s)
		}
	})
}
