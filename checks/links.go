package checks

import (
	"strings"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

// lldpNotCollected is one "not collected" finding per device without
// lldp.json: its links may be missing from the model, so the link checks
// do not guess them.
func lldpNotCollected(f *model.Fabric, what string) []Finding {
	var out []Finding
	// A host of an InfiniBand fabric without RoCE NICs has no Ethernet
	// link for these checks to judge.
	ibOnly := map[string]bool{}
	for _, h := range f.Hosts {
		ibOnly[h.Name] = f.IB != nil && len(h.NICs) == 0
	}
	for _, n := range f.DeviceNames() {
		if _, ok := f.LLDPFile[n]; !ok && !ibOnly[n] {
			out = append(out, notCollected(n, []string{layout.LLDPFile + " not collected"}, what))
		}
	}
	return out
}

// endName is "device:port", with the bond a switch member belongs to.
func endName(e model.LinkEnd, port string) string {
	if port != "" && port != e.Port {
		return e.Device + ":" + e.Port + " (" + port + ")"
	}
	return e.Device + ":" + e.Port
}

// linkSeen says how the link is known: from both ends, or from one.
func linkSeen(l *model.Link) string {
	var by []string
	for _, p := range l.Evidence() {
		by = append(by, p.String())
	}
	s := "LLDP " + strings.Join(by, ", ")
	if l.OneSided() {
		s += "; seen from one end only"
	}
	return s
}

// pfcOn lists the priorities a PFC table has on.
func pfcOn(pfc [8]model.Value[bool]) []int {
	var on []int
	for p, v := range pfc {
		if v.V {
			on = append(on, p)
		}
	}
	return on
}
