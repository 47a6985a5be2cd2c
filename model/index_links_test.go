package model

import (
	"slices"
	"testing"

	"github.com/qoslint/qoslint/internal/layout"
)

// TestLinksOf: a device's links are those Link.End finds it on, in Links
// order, a link with both ends on the device once; the index follows a
// Links slice replaced after it was built.
func TestLinksOf(t *testing.T) {
	end := func(dev, port string) LinkEnd { return LinkEnd{Device: dev, Port: port, Kind: layout.KindSwitch} }
	links := []*Link{
		{A: end("leaf01", "swp1"), B: end("spine01", "swp1")},
		{A: end("leaf02", "swp1"), B: end("spine01", "swp2")},
		{A: end("leaf01", "swp2"), B: end("leaf01", "swp3")},
		{A: end("spine01", "swp3"), B: end("leaf01", "swp4")},
	}
	f := &Fabric{Links: links}
	f.Index()
	scan := func(dev string) []*Link {
		var out []*Link
		for _, l := range f.Links {
			if _, _, ok := l.End(dev); ok {
				out = append(out, l)
			}
		}
		return out
	}
	check := func() {
		t.Helper()
		for _, dev := range []string{"leaf01", "leaf02", "spine01", "gpu01"} {
			if got, want := f.LinksOf(dev), scan(dev); !slices.Equal(got, want) {
				t.Errorf("%s: %d links, want %d", dev, len(got), len(want))
			}
		}
	}
	check()
	f.Links = links[1:]
	check()
}
