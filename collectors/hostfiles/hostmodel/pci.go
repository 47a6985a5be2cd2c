package hostmodel

import (
	"maps"
	"slices"
	"sync"

	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/intern"
	"github.com/qoslint/qoslint/model"
)

// pciDevices is lspci's functions in the model's terms, in lspci's order;
// nil (not collected) stays nil, as host-acs tells the two apart.
func pciDevices(in []*hostfiles.PCIDevice) []*model.PCIDevice {
	if in == nil {
		return nil
	}
	var key intern.Key
	for _, d := range in {
		key.Str(d.Addr).Int(d.Domain).Int(d.Bus).Int(d.Dev).Int(d.Fn).Str(d.Class).Str(d.Desc).Int(d.Line).Str(d.PortType).
			Bool(d.HasBus).Int(d.Secondary).Int(d.Subordinate).Bool(d.ACSCtl != nil).Int(d.ACSLine).Str(d.Driver).Bool(d.AccessDenied)
		for _, k := range slices.Sorted(maps.Keys(d.ACSCtl)) {
			key.Str(k).Bool(d.ACSCtl[k])
		}
		key.Str("")
	}
	return pciShared.Share(&key, func() []*model.PCIDevice { return newPCIDevices(in) })
}

// pciShared holds one list of functions per lspci output, but for the
// file's name: the hosts of a fabric are a few models of server, each
// printing the same tree, and a list each was 1.3 kB a host (clean-pod's
// eight functions). The model reads the lists and never changes them.
var pciShared = intern.Table[[]*model.PCIDevice]{Max: 1024}

func newPCIDevices(in []*hostfiles.PCIDevice) []*model.PCIDevice {
	// The parser's strings are cut from the whole file's text: copied,
	// the model keeps only what it holds, not every host's lspci.txt (at
	// TestLintScale's size, the texts kept were a sixth of the model);
	// interned, hosts alike share one copy.
	c := intern.String
	out := make([]*model.PCIDevice, len(in))
	for i, d := range in {
		acs := acsFlags(d.ACSCtl)
		out[i] = &model.PCIDevice{Addr: c(d.Addr), Domain: d.Domain, Bus: d.Bus, Dev: d.Dev, Fn: d.Fn,
			Class: c(d.Class), Desc: c(d.Desc), Line: d.Line, PortType: c(d.PortType),
			HasBus: d.HasBus, Secondary: d.Secondary, Subordinate: d.Subordinate,
			ACSCtl: acs, ACSLine: d.ACSLine, Driver: c(d.Driver), AccessDenied: d.AccessDenied}
	}
	return out
}

// acsShared holds one read-only ACSCtl map per set of the seven flags
// lspci prints (model.ACSFlagOrder), keyed by which are printed and which
// are on: a host's bridges print a few sets, and a map each was a twentieth
// of TestLintScale's heap. A map with any other name is copied.
var acsShared struct {
	sync.Mutex
	m map[uint16]map[string]bool
}

func acsFlags(in map[string]bool) map[string]bool {
	if in == nil {
		return nil
	}
	var key uint16
	for k, v := range in {
		i := slices.Index(model.ACSFlagOrder, k)
		if i < 0 {
			out := make(map[string]bool, len(in))
			for k, v := range in {
				out[intern.String(k)] = v
			}
			return out
		}
		key |= 1 << i
		if v {
			key |= 1 << (8 + i)
		}
	}
	acsShared.Lock()
	defer acsShared.Unlock()
	if m, ok := acsShared.m[key]; ok {
		return m
	}
	m := make(map[string]bool, len(in))
	for k, v := range in {
		m[intern.String(k)] = v
	}
	if acsShared.m == nil {
		acsShared.m = map[uint16]map[string]bool{}
	}
	acsShared.m[key] = m
	return m
}
