package model

import (
	"cmp"
	"slices"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
)

// RailNIC is a host's k-th NIC: NIC k belongs to rail k.
type RailNIC struct {
	Netdev string
	// From is where the order comes from: the inventory's nics, or the
	// line of ibdev2netdev.txt that names the NIC.
	From source.Pos
}

// Rails is the inventory's rail rule with each host's NIC order; nil when
// the inventory sets none.
type Rails struct {
	// Groups[k] are the leaves of rail k.
	Groups [][]string
	Pos    source.Pos
	// NICs are each host's NICs in rail order; a host absent has no order
	// (neither inventory nics nor ibdev2netdev.txt).
	NICs map[string][]RailNIC
}

// BuildRails orders each host's NICs: the inventory's nics as written
// (the operator's word), else ibdev2netdev.txt's order, which follows the
// mlx5_N numbering of the PCI functions (a host's NIC order in every
// rail-optimised design: NIC k of each server on leaf k).
func BuildRails(f *Fabric, inv *inventory.Inventory, c *collectors.Capture) {
	if inv.Policy.Rails == nil {
		return
	}
	r := &Rails{Groups: inv.Policy.Rails, Pos: inv.Policy.Pos["rails.groups"], NICs: map[string][]RailNIC{}}
	captured := map[string]*collectors.HostCapture{}
	for _, hc := range c.Hosts {
		captured[hc.Name] = hc
	}
	for _, h := range inv.Hosts {
		var nics []RailNIC
		if len(h.NICs) > 0 {
			for _, n := range h.NICs {
				nics = append(nics, RailNIC{Netdev: n, From: h.Pos})
			}
		} else if hc := captured[h.Name]; hc != nil {
			// The parser sorts by netdev; the file's order is the line's.
			devs := slices.Clone(hc.IBDevs)
			slices.SortStableFunc(devs, func(a, b hostfiles.IBDev) int { return cmp.Compare(a.Line, b.Line) })
			seen := map[string]bool{}
			for _, d := range devs {
				if d.Netdev != "" && !seen[d.Netdev] {
					seen[d.Netdev] = true
					nics = append(nics, RailNIC{Netdev: d.Netdev,
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
