package fabric

import (
	"cmp"
	"slices"

	"github.com/qoslint/qoslint/model"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
)

// Rails orders each host's NICs: the inventory's nics as written
// (the operator's word), else ibdev2netdev.txt's order, which follows the
// mlx5_N numbering of the PCI functions (a host's NIC order in every
// rail-optimised design: NIC k of each server on leaf k).
func Rails(f *model.Fabric, inv *inventory.Inventory, c *collectors.Capture) {
	if inv.Policy.Rails == nil {
		return
	}
	r := &model.Rails{Groups: inv.Policy.Rails, Pos: inv.Policy.Pos["rails.groups"], NICs: map[string][]model.RailNIC{}}
	captured := map[string]*collectors.HostCapture{}
	for _, hc := range c.Hosts {
		captured[hc.Name] = hc
	}
	for _, h := range inv.Hosts {
		var nics []model.RailNIC
		if len(h.NICs) > 0 {
			for _, n := range h.NICs {
				nics = append(nics, model.RailNIC{Netdev: n, From: h.Pos})
			}
		} else if hc := captured[h.Name]; hc != nil {
			// The parser sorts by netdev; the file's order is the line's.
			devs := slices.Clone(hc.IBDevs)
			slices.SortStableFunc(devs, func(a, b hostfiles.IBDev) int { return cmp.Compare(a.Line, b.Line) })
			seen := map[string]bool{}
			for _, d := range devs {
				if d.Netdev != "" && !seen[d.Netdev] {
					seen[d.Netdev] = true
					nics = append(nics, model.RailNIC{Netdev: d.Netdev,
						From: source.Pos{File: layout.DeviceFile(h.Name, layout.IBDev2NetdevFile), Line: d.Line}})
				}
			}
		}
		if len(nics) > 0 {
			r.NICs[h.Name] = nics
		}
	}
	f.Rails = r
}
