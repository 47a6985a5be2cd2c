package trace

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

// routeHop is one switch of a route: RoCE enters by in, leaves by out.
type routeHop struct{ sw, in, out string }

// tracePaths is every ECMP path between two NICs, judged.
func tracePaths(f *model.Fabric, src, dst Endpoint) ([]TracePath, error) {
	sl, err := nicLeaf(f, src)
	if err != nil {
		return nil, err
	}
	dl, err := nicLeaf(f, dst)
	if err != nil {
		return nil, err
	}
	routes := [][]routeHop{{{sl.Device, sl.Port, dl.Port}}}
	if sl.Device != dl.Device {
		routes = spineRoutes(f, sl, dl)
		if len(routes) == 0 {
			return nil, fmt.Errorf("LLDP shows no spine linked to both %s (%s) and %s (%s): no path to trace", sl.Device, src, dl.Device, dst)
		}
	}
	var out []TracePath
	for _, rt := range routes {
		path := TracePath{Broken: -1}
		if len(rt) == 3 {
			path.Via = rt[1].sw
		}
		path.Hops = append(path.Hops, srcNICHop(f, src))
		for _, h := range rt {
			path.Hops = append(path.Hops, switchHop(f, h))
		}
		path.Hops = append(path.Hops, dstNICHop(f, dst))
		path.Broken, path.Check = firstBroken(path.Hops)
		out = append(out, path)
	}
	return out, nil
}

// spineRoutes are the routes leaf sl → spine → leaf dl, one per pair of
// cables (parallel cables are paths of their own for ECMP), sorted by
// spine and ports.
func spineRoutes(f *model.Fabric, sl, dl model.LinkEnd) [][]routeHop {
	var out [][]routeHop
	for _, up := range f.Links {
		leafEnd, spineEnd, ok := up.End(sl.Device)
		if !ok || spineEnd.Kind != layout.KindSwitch {
			continue
		}
		if sw := f.SwitchByName(spineEnd.Device); sw == nil || sw.Role != "spine" {
			continue
		}
		for _, down := range f.Links {
			spineOut, leafIn, ok := down.End(spineEnd.Device)
			if !ok || leafIn.Device != dl.Device {
				continue
			}
			out = append(out, []routeHop{{sl.Device, sl.Port, leafEnd.Port},
				{spineEnd.Device, spineEnd.Port, spineOut.Port}, {dl.Device, leafIn.Port, dl.Port}})
		}
	}
	slices.SortFunc(out, func(a, b []routeHop) int {
		return cmp.Or(cmp.Compare(a[1].sw, b[1].sw), cmp.Compare(a[0].out, b[0].out), cmp.Compare(a[2].in, b[2].in))
	})
	return out
}

// firstBroken is the first hop with a broken step, and that step's check
// (RoCE's steps come before the CNP's in each hop).
func firstBroken(hops []TraceHop) (int, string) {
	for i, h := range hops {
		for _, s := range h.Steps {
			if s.Status == StepBroken {
				return i, s.Check
			}
		}
	}
	return -1, ""
}
