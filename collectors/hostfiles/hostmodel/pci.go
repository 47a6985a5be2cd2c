package hostmodel

import (
	"maps"

	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/model"
)

// pciDevices is lspci's functions in the model's terms, in lspci's order;
// nil (not collected) stays nil, as host-acs tells the two apart.
func pciDevices(in []*hostfiles.PCIDevice) []*model.PCIDevice {
	if in == nil {
		return nil
	}
	out := make([]*model.PCIDevice, len(in))
	for i, d := range in {
		out[i] = &model.PCIDevice{Addr: d.Addr, Domain: d.Domain, Bus: d.Bus, Dev: d.Dev, Fn: d.Fn,
			Class: d.Class, Desc: d.Desc, Line: d.Line, PortType: d.PortType,
			HasBus: d.HasBus, Secondary: d.Secondary, Subordinate: d.Subordinate,
			ACSCtl: maps.Clone(d.ACSCtl), ACSLine: d.ACSLine, Driver: d.Driver, AccessDenied: d.AccessDenied}
	}
	return out
}
