package policy

import (
	"slices"
	"testing"
)

func TestPresetNames(t *testing.T) {
	want := []string{"cumulus-default", "cumulus-lossy-multi-tc", "custom-dscp46", "spectrum-x-ra2.0"}
	if got := PresetNames(); !slices.Equal(got, want) {
		t.Errorf("PresetNames() = %v, want %v", got, want)
	}
	if _, ok := Preset("nvidia"); ok {
		t.Error(`Preset("nvidia") found`)
	}
	// Each call is a fresh copy: a caller's change must not leak.
	p, _ := Preset(DefaultPreset)
	p.RoCE.DSCP[0] = 99
	p.ECMP.HashFields[0] = "x"
	if q, _ := Preset(DefaultPreset); q.RoCE.DSCP[0] != 26 || q.ECMP.HashFields[0] != "destination-ip" {
		t.Errorf("Preset shares slices: %+v", q)
	}
}

// TestRenamedPresets: no former preset name is a preset again (the
// inventory's TestRenamedPresets checks the error that names each).
func TestRenamedPresets(t *testing.T) {
	for name := range renamedPresets {
		if _, ok := Preset(name); ok {
			t.Errorf("%s is both a preset and a renamed one", name)
		}
	}
}
