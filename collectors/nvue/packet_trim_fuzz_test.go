package nvue

import (
	"reflect"
	"testing"
)

func FuzzParsePacketTrimShow(f *testing.F) {
	addSeeds(f,
		"Egress Eligibility TC-to-Interface Information\n===\nNo Data\n",
		"Port-Level SP to DSCP Remark Information\n===\n Profile  Interface  SP  DSCP\n -------  ---------  --  ----\n p  swp1  x  1\n",
		"      operational  applied\n----  -----------  -------\nremark\ndscp  11\n  x\nsession-info\n",
		"bash: nv: command not found\n",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		const file = "sw/nv-show-packet-trim.txt"
		ps, err := ParsePacketTrimShow(file, data)
		if err != nil {
			checkError(t, err, file)
			return
		}
		n := lineCount(data)
		if ps.File != file || ps.Leaves == nil {
			t.Fatalf("result %+v: want file %q and non-nil leaves", ps, file)
		}
		for k, fld := range ps.Leaves {
			if k == "" || fld.Line < 1 || fld.Line > n {
				t.Fatalf("leaf %q at line %d (of %d)", k, fld.Line, n)
			}
		}
		for _, e := range ps.Eligibility {
			if e.TC < 0 || e.TC > 7 || e.Interfaces == "" || e.Line <= ps.EligibilityLine || e.Line > n {
				t.Fatalf("eligibility row %+v (table at %d, of %d)", e, ps.EligibilityLine, n)
			}
		}
		for _, r := range ps.Remarks {
			if r.SP < 0 || r.SP > 7 || r.DSCP < 0 || r.DSCP > 63 || r.Profile == "" || r.Interface == "" || r.Line <= ps.RemarkLine || r.Line > n {
				t.Fatalf("remark row %+v (table at %d, of %d)", r, ps.RemarkLine, n)
			}
		}
		again, err := ParsePacketTrimShow(file, data)
		if err != nil || !reflect.DeepEqual(ps, again) {
			t.Fatalf("second parse differs: %v", err)
		}
	})
}

func FuzzParseRemarkShow(f *testing.F) {
	addSeeds(f,
		"Profile  Rewrite  Summary\n-------  -------  -------\n         l3       x\n",
		"Profile  Rewrite  Summary\n-------  -------  -------\ng  l3  SP->PCP/DSCP mapping configuration: 9,x\n",
		"No Data\n",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		const file = "sw/nv-show-qos-remark.txt"
		rs, err := ParseRemarkShow(file, data)
		if err != nil {
			checkError(t, err, file)
			return
		}
		n := lineCount(data)
		for _, p := range rs.Profiles {
			if p.Profile == "" || p.Line < 1 || p.Line > n {
				t.Fatalf("profile %+v (of %d lines)", p, n)
			}
			if sps, ok := p.MappedSPs(); ok {
				for _, sp := range sps {
					if sp < 0 || sp > 7 {
						t.Fatalf("profile %s maps switch priority %d", p.Profile, sp)
					}
				}
			}
		}
		again, err := ParseRemarkShow(file, data)
		if err != nil || !reflect.DeepEqual(rs, again) {
			t.Fatalf("second parse differs: %v", err)
		}
	})
}
