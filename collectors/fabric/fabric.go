// Package fabric builds the fabric model from a capture: each device by the
// builder of its input's format, then what spans devices (links, ECMP
// groups, rails, InfiniBand, Kubernetes). Live and offline collection both
// end in a capture, so audit judges exactly what lint of its capture does.
package fabric

import (
	"net/netip"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/gnmifile/countermodel"
	"github.com/qoslint/qoslint/collectors/ibfiles/ibmodel"
	"github.com/qoslint/qoslint/collectors/k8s/k8smodel"
	"github.com/qoslint/qoslint/collectors/nvue/nvuemodel"
	"github.com/qoslint/qoslint/collectors/sonic/sonicmodel"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

// Build turns a capture into the effective fabric model. Devices come out in
// inventory order, which the inventory keeps as written; reports sort them.
func Build(inv *inventory.Inventory, c *collectors.Capture) *model.Fabric {
	return NewBuilder(inv).Build(c)
}

// spanDevices adds to f, whose devices are built, what spans devices.
func spanDevices(f *model.Fabric, inv *inventory.Inventory, c *collectors.Capture) *model.Fabric {
	f.Wire = c.Wire
	f.HostOfIP = HostIPs(inv)
	buildLinks(f, inv, c)
	model.BuildOutsidePorts(f)
	model.BuildECMPGroups(f, inv)
	buildPlan(f, inv, c)
	Rails(f, inv, c)
	ibmodel.IB(f, inv, c)
	k8smodel.Build(f, inv, c.K8s)
	ibmodel.Apps(f, c)
	f.Index()
	return f
}

// buildSwitch builds one switch: its switch OS's builder reads the
// configuration and the OS's show outputs into the model's vendor-neutral
// types; what follows is the same for every OS (the platform, the gNMI
// counters). Cumulus Linux (NVUE) is the one switch OS read today.
func buildSwitch(sc *collectors.SwitchCapture, is inventory.Switch) (*model.Switch, []*source.Error) {
	if sc.OS == inventory.OSSONiC {
		return buildSONiC(sc, is)
	}
	sw, problems := nvuemodel.Switch(sc.Name, is.Role, sc.Config, sc.RoceShow, is.Ports)
	sw.OS = inventory.OSCumulus
	// The capture's list of what it lacks comes first: the trim views add
	// to it.
	sw.NotCollected = sc.Missing
	model.InventoryPlatform(sw, is, is.Pos.File)
	nvuemodel.AttachTrimShows(sw, sc.PacketTrimShow, sc.RemarkShow)
	model.NotePlatform(sw)
	nvuemodel.OperPorts(sw, sc.RoceStatus)
	nvuemodel.KeepOutsidePorts(sw)
	sw.SharePortNames()
	sw.Counters = countermodel.SwitchCounters(layout.DeviceFile(sc.Name, layout.GNMIFile), sc.Counters)
	model.DeltaSwitch(sw.Counters, countermodel.SwitchCounters("", sc.CountersBefore), sc.CountersInterval)
	return sw, problems
}

// buildSONiC builds a SONiC switch: its configuration is config_db.json,
// and it has no NVUE operational views or trimming; the platform comes
// from DEVICE_METADATA, else the inventory.
func buildSONiC(sc *collectors.SwitchCapture, is inventory.Switch) (*model.Switch, []*source.Error) {
	sw, problems := sonicmodel.Switch(sc.Name, is.Role, sc.ConfigDB, is.Ports)
	sw.SharePortNames()
	sw.NotCollected = sc.Missing
	model.InventoryPlatform(sw, is, is.Pos.File)
	model.NotePlatform(sw)
	return sw, problems
}

// HostIPs maps the inventory hosts' addresses that are IP literals to
// their names; a host name address maps nothing.
func HostIPs(inv *inventory.Inventory) map[netip.Addr]string {
	m := map[netip.Addr]string{}
	for _, h := range inv.Hosts {
		if a, err := netip.ParseAddr(h.Address); err == nil {
			m[a.Unmap()] = h.Name
		}
	}
	return m
}
