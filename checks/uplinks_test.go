package checks

import (
	"strings"
	"testing"
	"testing/fstest"
)

// edits applies several edits as one.
func edits(es ...edit) edit {
	return func(t *testing.T, fsys fstest.MapFS) {
		for _, e := range es {
			e(t, fsys)
		}
	}
}

// The fallback is never silent: the report's notes say which switch's
// group is approximated, and why.
func TestECMPGroupFallbackNote(t *testing.T) {
	f := fabric(t, remove(dev("leaf01", "lldp.json")))
	var notes []string
	for _, n := range f.Notes {
		if strings.Contains(n.Error(), "ECMP group") {
			notes = append(notes, n.Error())
		}
	}
	want := "leaf01: devices/leaf01/nv-config.yaml: ECMP group for adaptive routing not known from LLDP (lldp.json not collected): its routed ports swp31-32 stand in for it"
	if len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q, want %q", notes, want)
	}
	for _, sw := range f.Switches {
		g := sw.ECMPGroup
		if sw.Name != "leaf01" && (!g.FromLLDP || len(g.Ports) != 2) {
			t.Errorf("%s: group %+v, want two LLDP ports", sw.Name, g)
		}
	}
}
