package fabric

import (
	"io/fs"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/internal/fixture"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/inventory"
)

// TestSwitchNotCollected: what the switch OS's builder adds to the files
// a switch lacks (the packet-trim view of a switch that trims) survives
// the capture's own list, which buildSwitch sets first.
func TestSwitchNotCollected(t *testing.T) {
	const trimFile = "devices/leaf01/" + layout.PacketTrimShowFile
	for _, tc := range []struct {
		name    string
		overlay fstest.MapFS
		want    bool
	}{
		{"collected", nil, false},
		{"missing", fstest.MapFS{fixture.DeleteList: {Data: []byte(trimFile + "\n")}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var overlay fs.FS // nil: the example as shipped
			if tc.overlay != nil {
				overlay = tc.overlay
			}
			dir := fixture.Build(t, "../../examples/spectrumx-pod", overlay)
			inv, err := inventory.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			f := Build(inv, offline.Collect(dir, inv))
			sw := f.SwitchByName("leaf01")
			if sw == nil || sw.Trim == nil || !sw.Trim.Enabled.V {
				t.Fatalf("leaf01 of spectrumx-pod must trim packets: %+v", sw)
			}
			if got := slices.Contains(sw.NotCollected, layout.PacketTrimShowFile); got != tc.want {
				t.Errorf("NotCollected = %q; %s listed: %v, want %v", sw.NotCollected, layout.PacketTrimShowFile, got, tc.want)
			}
		})
	}
}
