package checks

import (
	"fmt"
	"testing"
)

// cable300 is the inventory edit that asks for 300 m of cable.
var cable300 = replace("inventory.hcl", "preset = \"cumulus-default\"", "preset = \"cumulus-default\"\n  pfc {\n    cable_length = 300\n  }")

var _ = register(pfcCableLength, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean: qos roce's 100 m and leaf02's ROCE_PFC 100 m"},
		{name: "qos roce cable-length raised on every switch", edits: []edit{
			appendTo(spine02C, "nv set qos roce cable-length 1000\n"),
			replace(spine01Y, "        mode: lossless\n", "        cable-length: 1000\n        mode: lossless\n"),
			replace(leaf01Y, "        mode: lossless\n", "        cable-length: 1000\n        mode: lossless\n"),
			replace(leaf02Y, "          cable-length: 100\n", "          cable-length: 1000\n")}},
		{name: "the policy asks for 300 m", edits: []edit{cable300},
			want: []string{"error leaf01 swp1-32", "error leaf02 swp1-32", "error spine01 swp1-32", "error spine02 swp1-32"},
			msg:  "sized for 100 m of cable, shorter than the policy's 300 m"},
		{name: "a PFC profile without cable-length gets 10 m (5.18 YAML)", edits: []edit{replace(leaf02Y, "          cable-length: 100\n", "")},
			want: []string{"error leaf02 swp1-32"}, msg: "sized for 10 m"},
		{name: "one switch differs from the fabric", edits: []edit{appendTo(spine02C, "nv set qos pfc default-global cable-length 150\n")},
			want: []string{"warning spine02 swp1-32"}, msg: "differs from the 100 m of leaf01, leaf02, spine01"},
		{name: "a lossy switch has no PFC to size", edits: []edit{replace(spine01Y, "mode: lossless", "mode: lossy"),
			appendTo(spine02C, "nv set qos roce mode lossy\n")}},
	}
})

func TestCableLengthFix(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edits []edit
		want  Change
	}{
		{"qos roce", []edit{cable300}, Change{Kind: NVUE, Path: []string{"qos", "roce", "cable-length"}, Value: "300"}},
		{"explicit profile", []edit{cable300}, Change{Kind: NVUE, Path: []string{"qos", "pfc", "ROCE_PFC", "cable-length"}, Value: "300", Old: "100", HasOld: true}},
	} {
		f := fabric(t, tc.edits...)
		found := false
		for _, fd := range pfcCableLength.Run(f) {
			for _, c := range fd.Changes {
				found = found || fmt.Sprint(c) == fmt.Sprint(tc.want)
			}
		}
		if !found {
			t.Errorf("%s: no change %+v", tc.name, tc.want)
		}
	}
}
