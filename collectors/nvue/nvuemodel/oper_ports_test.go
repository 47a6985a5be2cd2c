package nvuemodel

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/source"
)

// TestOperPorts: the checked ports get their own views, each value at its
// row of its own file; unreadable ports stay marked; the status of a port
// the switch does not check, and the thresholds no port comparison
// reads, are notes.
func TestOperPorts(t *testing.T) {
	data, err := os.ReadFile("../testdata/roce_status_515.txt")
	if err != nil {
		t.Fatal(err)
	}
	parse := func(file string) *nvue.RoceShow {
		s, err := nvue.ParseRoceShow(file, data)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	sw, _ := cmdSwitch(t, roce515)
	sw.Name = "leaf01"
	OperPorts(sw, map[string]*nvue.RoceShow{
		"swp16": parse("devices/leaf01/roce-status/swp16.txt"),
		"swp2":  nil,
		"swp40": parse("devices/leaf01/roce-status/swp40.txt"),
	})
	if len(sw.OperPorts) != 2 {
		t.Fatalf("ports %v", sw.OperPorts)
	}
	if o, ok := sw.OperPorts["swp2"]; !ok || o != nil {
		t.Errorf("swp2 = %v, %v: want marked unreadable", o, ok)
	}
	o := sw.OperPorts["swp16"]
	at := func(line int) source.Pos { return source.Pos{File: "devices/leaf01/roce-status/swp16.txt", Line: line} }
	for _, c := range []struct {
		what string
		got  source.Pos
		line int
	}{
		{"mode", o.Mode.Value(o.File).Origin.Pos(), 20}, {"trust", o.Trust.Value(o.File).Origin.Pos(), 19}, {"pfc", o.PFC.Value(o.File).Origin.Pos(), 15},
		{"pfc rx", o.PFCRx.Value(o.File).Origin.Pos(), 16}, {"ecn", o.ECNTCs.Value(o.File).Origin.Pos(), 6},
		{"dscp 26", o.DSCPToSP[26].Value(o.File).Origin.Pos(), 27}, {"dscp 48", o.DSCPToSP[48].Value(o.File).Origin.Pos(), 26},
		{"sp 3", o.SPToTC[3].Value(o.File).Origin.Pos(), 34}, {"sp 6 scheduler", o.Sched[6].Value(o.File).Origin.Pos(), 33}, {"pools", o.PoolPos(), 36},
	} {
		if c.got != at(c.line) {
			t.Errorf("%s at %v, want line %d", c.what, c.got, c.line)
		}
	}
	if !o.PerInterface || o.Mode.V != "lossless" || o.Trust.V != "pcp,dscp" || !slices.Equal(o.PFC.V, []int{3}) || !o.PFCRx.V ||
		o.DSCPToSP[26].V != 3 || o.SPToTC[6].V != 6 || o.Sched[6].V != "strict" || o.Sched[3].V != "dwrr" || o.SchedBW[3] != 50 || len(o.Pools) != 4 {
		t.Errorf("view %+v", o)
	}
	var notes []string
	for _, n := range sw.Notes {
		notes = append(notes, n.Error())
	}
	want := []string{
		"devices/leaf01/roce-status: status of ports the switch does not check, not compared: swp40",
		"devices/leaf01/roce-status: the ports' ECN thresholds are not compared",
	}
	if len(notes) != len(want) {
		t.Fatalf("notes %q", notes)
	}
	for i, w := range want {
		if !strings.HasPrefix(notes[i], w) {
			t.Errorf("note %q, want %q…", notes[i], w)
		}
	}

	// No folder: no map, and nothing to say here (the reader says it).
	sw, _ = cmdSwitch(t, roce515)
	OperPorts(sw, nil)
	if sw.OperPorts != nil || len(sw.Notes) != 0 {
		t.Errorf("without the folder: %v %v", sw.OperPorts, sw.Notes)
	}
}

// The live collector asks exactly the ports the model checks.
func TestCheckedPorts(t *testing.T) {
	cfg, _, _ := nvue.ParseCommands("c.txt", []byte(roce515+"nv set interface bond1 bond member swp3-4\n"))
	got := CheckedPorts(cfg, nil)
	if len(got) != 31 || slices.Contains(got, "swp3") || !slices.Contains(got, "bond1") {
		t.Errorf("CheckedPorts = %q", got)
	}
	if got := CheckedPorts(cfg, []string{"swp5-6"}); !slices.Equal(got, []string{"swp5", "swp6"}) {
		t.Errorf("with the inventory's ports: %q", got)
	}
}

// TestOperPortsShareState: two ports that print the same view share what
// it prints, and each reads its rows at its own file.
func TestOperPortsShareState(t *testing.T) {
	data, err := os.ReadFile("../testdata/roce_status_515.txt")
	if err != nil {
		t.Fatal(err)
	}
	sw, _ := cmdSwitch(t, roce515)
	sw.Name = "leaf01"
	views := map[string]*nvue.RoceShow{}
	for _, p := range []string{"swp1", "swp16"} {
		s, err := nvue.ParseRoceShow("devices/leaf01/roce-status/"+p+".txt", data)
		if err != nil {
			t.Fatal(err)
		}
		views[p] = s
	}
	OperPorts(sw, views)
	a, b := sw.OperPorts["swp1"], sw.OperPorts["swp16"]
	if a == nil || b == nil || a.OperState != b.OperState {
		t.Fatalf("swp1 %+v, swp16 %+v: want one shared state", a, b)
	}
	if got := b.Mode.Value(b.File).Origin.Pos(); got != (source.Pos{File: "devices/leaf01/roce-status/swp16.txt", Line: 20}) {
		t.Errorf("swp16's mode at %v", got)
	}
	if got := a.PoolPos(); got != (source.Pos{File: "devices/leaf01/roce-status/swp1.txt", Line: 36}) {
		t.Errorf("swp1's pools at %v", got)
	}
}
