package render

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

// Topology is the fabric's cabling as LLDP reported it (model.Fabric.Links),
// for the HTML report's topology view. Its verdicts are not here: they are
// the report's findings, read when the page is written, so waivers apply.
type Topology struct {
	// LLDP is false when no device's lldp.json was collected: the view
	// then says so instead of drawing a fabric it does not know.
	LLDP    bool
	Devices []TopoDevice
	Links   []TopoLink
}

// TopoDevice is one inventory device in its tier.
type TopoDevice struct {
	Name, Kind, Role string
	// Tier is 0 for a host, else model.Tier of the switch's role; a
	// switch role it does not rank is drawn with the leaves.
	Tier int
}

// TopoEnd is one end of a link; Port is the interface as the device names
// it, Bond the bond it is a member of ("" when none), which is what a
// finding on the bond names.
type TopoEnd struct{ Device, Port, Bond string }

// TopoLink is one cable. Upper is the end in the higher tier (the first by
// name when both are in one tier), so a link reads top-down as drawn.
type TopoLink struct {
	Upper, Lower TopoEnd
	// OneSided: only one end's LLDP reported it.
	OneSided bool
}

// ID is the link's stable name, "leaf01:swp1--gpu01:ens1f0np0".
func (l TopoLink) ID() string {
	return l.Upper.Device + ":" + l.Upper.Port + "--" + l.Lower.Device + ":" + l.Lower.Port
}

// BuildTopology reads the devices and LLDP links of a fabric.
func BuildTopology(f *model.Fabric) *Topology {
	t := &Topology{LLDP: len(f.LLDPFile) > 0}
	tiers := map[string]int{}
	bond := map[string]func(string) string{}
	for _, sw := range f.Switches {
		tier := max(model.Tier(sw.Role), 1)
		tiers[sw.Name] = tier
		t.Devices = append(t.Devices, TopoDevice{Name: sw.Name, Kind: layout.KindSwitch, Role: sw.Role, Tier: tier})
		bond[sw.Name] = func(port string) string {
			if p := sw.PortOf(port); p != port {
				return p
			}
			return ""
		}
	}
	for _, h := range f.Hosts {
		t.Devices = append(t.Devices, TopoDevice{Name: h.Name, Kind: layout.KindHost})
	}
	slices.SortFunc(t.Devices, func(a, b TopoDevice) int {
		return cmp.Or(cmp.Compare(b.Tier, a.Tier), compareNames(a.Name, b.Name))
	})
	end := func(e model.LinkEnd) TopoEnd {
		te := TopoEnd{Device: e.Device, Port: e.Port}
		if b := bond[e.Device]; b != nil {
			te.Bond = b(e.Port)
		}
		return te
	}
	for _, l := range f.Links {
		u, d := end(l.A), end(l.B)
		if tiers[d.Device] > tiers[u.Device] {
			u, d = d, u
		}
		t.Links = append(t.Links, TopoLink{Upper: u, Lower: d, OneSided: l.OneSided()})
	}
	slices.SortFunc(t.Links, func(a, b TopoLink) int { return cmp.Compare(a.ID(), b.ID()) })
	return t
}

// compareNames orders device names naturally (gpu2 before gpu10).
func compareNames(a, b string) int {
	switch {
	case model.NaturalLess(a, b):
		return -1
	case model.NaturalLess(b, a):
		return 1
	}
	return cmp.Compare(a, b)
}

// linkJudge gives each link its verdict from the report's findings: the
// worst severity of a topology check's finding (cabling, rail-alignment,
// link-mtu, link-qos, link-pfc) that is not waived and names one of its
// ends: the end's device and, in its interface list, the end's port or
// that port's bond. A device-wide finding names no link.
type linkJudge map[string][]checks.Finding // device → its topology findings

func newLinkJudge(fs []checks.Finding) linkJudge {
	j := linkJudge{}
	for _, f := range fs {
		if c := checks.Lookup(f.Check); c == nil || c.Kind != checks.KindTopology || f.Waived || f.Interface == "" {
			continue
		}
		j[f.Device] = append(j[f.Device], f)
	}
	return j
}

// judge is the link's verdict ("error", "warning", "info" or "ok") and the
// findings that make it, one line each.
func (j linkJudge) judge(l TopoLink) (string, []string) {
	verdict := "ok"
	var why []string
	for _, e := range []TopoEnd{l.Upper, l.Lower} {
		for _, f := range j[e.Device] {
			if !namesPort(f.Interface, e) {
				continue
			}
			sev := f.Severity.String()
			if sevRank[sev] > sevRank[verdict] {
				verdict = sev
			}
			why = append(why, fmt.Sprintf("%s %s %s:%s: %s", sev, f.Check, f.Device, f.Interface, f.Message))
		}
	}
	return verdict, why
}

func namesPort(iface string, e TopoEnd) bool {
	names, err := model.ExpandNames(iface)
	if err != nil {
		names = strings.Split(iface, ",")
	}
	return slices.Contains(names, e.Port) || e.Bond != "" && slices.Contains(names, e.Bond)
}
