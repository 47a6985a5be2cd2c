package hostmodel

import (
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/model"
)

// pciDevices is lspci's functions in the model's terms, in lspci's order;
// nil (not collected) stays nil, as host-acs tells the two apart.
func pciDevices(in []*hostfiles.PCIDevice) []*model.PCIDevice {
	if in == nil {
		return nil
	}
	// The parser's strings are cut from the whole file's text: copied,
	// the model keeps only what it holds, not every host's lspci.txt (at
	// TestLintScale's size, the texts kept were a sixth of the model);
	// interned, hosts alike share one copy.
	c := intern
	out := make([]*model.PCIDevice, len(in))
	for i, d := range in {
		var acs map[string]bool
		if d.ACSCtl != nil {
			acs = make(map[string]bool, len(d.ACSCtl))
			for k, v := range d.ACSCtl {
				acs[c(k)] = v
			}
		}
		out[i] = &model.PCIDevice{Addr: c(d.Addr), Domain: d.Domain, Bus: d.Bus, Dev: d.Dev, Fn: d.Fn,
			Class: c(d.Class), Desc: c(d.Desc), Line: d.Line, PortType: c(d.PortType),
			HasBus: d.HasBus, Secondary: d.Secondary, Subordinate: d.Subordinate,
			ACSCtl: acs, ACSLine: d.ACSLine, Driver: c(d.Driver), AccessDenied: d.AccessDenied}
	}
	return out
}
