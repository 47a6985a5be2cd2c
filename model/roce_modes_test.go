package model

import (
	"slices"
	"strings"
	"testing"
)

// TestModeTables: the lossy-multi-tc and dci-1 tables of the RoCE pages.
func TestModeTables(t *testing.T) {
	mt515, _ := ModeTable("lossy-multi-tc", "5.15")
	mt518, _ := ModeTable("lossy-multi-tc", "5.18")
	// RoCE515: 0,7,8,9,10,41..63 → 0; 1,2 → 1; 3,4 → 2; 5,6 → 3; 11..40 → 4.
	for d, sp := range map[int]int{0: 0, 1: 1, 4: 2, 6: 3, 26: 4, 40: 4, 41: 0, 48: 0, 63: 0} {
		if mt515.DSCP[d] != sp {
			t.Errorf("5.15 DSCP %d → %d, want %d", d, mt515.DSCP[d], sp)
		}
	}
	// RoCE518: 41..50 → 5.
	for d, sp := range map[int]int{41: 5, 48: 5, 50: 5, 51: 0, 26: 4} {
		if mt518.DSCP[d] != sp {
			t.Errorf("5.18 DSCP %d → %d, want %d", d, mt518.DSCP[d], sp)
		}
	}
	if !slices.Equal(mt515.ECN, []int{1, 2, 3}) || mt515.PFC != nil || mt515.ECNMin != 166912 || mt515.ECNProb != 5 {
		t.Errorf("5.15 leaves %+v", mt515)
	}
	if mt515.SchedBW != [8]int{4, 8, 18, 22, 22, 22, 4, 0} || mt515.TC != [8]int{0, 1, 2, 3, 4, 5, 6, 7} {
		t.Errorf("ETS %v %v", mt515.SchedBW, mt515.TC)
	}
	d, _ := ModeTable("dci-1", "5.18")
	if !slices.Equal(d.PFC, []int{3}) || !slices.Contains(d.ECN, 4) || !strings.Contains(d.Why["tc"], "not documented") {
		t.Errorf("dci-1 %+v", d)
	}
	if _, ok := ModeTable("bogus", ""); ok {
		t.Error("unknown mode accepted")
	}
	for _, m := range RoCEModes {
		if !IsRoCEMode(m.Mode) {
			t.Errorf("%s", m.Mode)
		}
	}
}
