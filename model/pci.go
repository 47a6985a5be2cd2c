package model

import (
	"sort"
	"strings"
)

// PCIDevice is one PCI function as `lspci -vvv` prints it: its address,
// class, the bus range below a bridge and the ACS controls.
type PCIDevice struct {
	Addr                 string // as printed, "3b:00.0" or "0000:3b:00.0"
	Domain, Bus, Dev, Fn int
	Class                string // "PCI bridge", "3D controller"
	Desc                 string // the rest of the header line
	Line                 int
	// PortType is the PCI Express capability's device/port type
	// ("Downstream Port", "Root Port", "Endpoint"); "" when not printed.
	PortType string
	// HasBus is true for a bridge's "Bus: primary=.., secondary=..,
	// subordinate=.." line: the buses below it are Secondary..Subordinate.
	HasBus bool
	// AccessDenied: lspci could not read the extended capabilities (it ran
	// without root), so a missing ACS capability means nothing. Beside
	// HasBus, the two share a word: 160 bytes, the allocator's class, not
	// 168 in one of 176 (a host's lspci lists dozens of functions).
	AccessDenied           bool
	Secondary, Subordinate int
	// ACSCtl holds the ACS control flags (name → on); nil when the
	// function has no ACS capability.
	ACSCtl  map[string]bool
	ACSLine int
	Driver  string
}

// ACSFlagOrder names the ACS Control register's bits: bit i is flag i
// (PCIe base spec 7.7.8.3; Linux include/uapi/linux/pci_regs.h PCI_ACS_SV
// .. PCI_ACS_DT), the order lspci's cap_acs prints them in.
var ACSFlagOrder = []string{"SrcValid", "TransBlk", "ReqRedir", "CmpltRedir", "UpstreamFwd", "EgressCtrl", "DirectTrans"}

// ACSRedirectFlags are the ACS controls that keep peer-to-peer requests
// from going straight across a bridge: Linux's pci=disable_acs_redir=
// clears exactly these, "sufficient to always allow passing P2P traffic
// uninterrupted" (torvalds/linux commit aaca43fda742, drivers/pci/pci.c).
var ACSRedirectFlags = []string{"ReqRedir", "CmpltRedir", "EgressCtrl"}

// acsRedirectMask is ACSRedirectFlags as bits of the ACS Control register.
const acsRedirectMask = 1<<2 | 1<<3 | 1<<5

// ACSBridge is a bridge that redirects peer-to-peer traffic, and the NIC
// and GPU functions whose path crosses it ("" when the tree was not used).
type ACSBridge struct {
	Dev      *PCIDevice
	On       []string // the redirect flags that are on, in ACSFlagOrder
	NIC, GPU string
}

// Word is the ACS Control register with the redirect flags cleared.
func (b ACSBridge) Word() uint16 { return b.Dev.ACSCtlWord() &^ acsRedirectMask }

// IsConnectX reports a Mellanox/NVIDIA network function (lspci names
// ConnectX functions "Mellanox Technologies"; mlx5_core drives them).
func IsConnectX(d *PCIDevice) bool {
	switch d.Class {
	case "Ethernet controller", "Infiniband controller", "Network controller":
		return d.Driver == "mlx5_core" || strings.Contains(d.Desc, "Mellanox")
	}
	return false
}

// IsNVIDIAGPU reports an NVIDIA GPU function.
func IsNVIDIAGPU(d *PCIDevice) bool {
	return (d.Class == "3D controller" || d.Class == "VGA compatible controller") && strings.HasPrefix(d.Desc, "NVIDIA")
}

func redirectOn(d *PCIDevice) []string {
	var on []string
	for _, f := range ACSRedirectFlags {
		if d.ACSCtl[f] {
			on = append(on, f)
		}
	}
	return on
}

// ACSBetween lists the bridges with an ACS redirect on between a ConnectX
// and an NVIDIA GPU: those on the two paths up to the bridge both hang
// below (the PCIe switch peer-to-peer traffic turns in). A NIC and GPU
// with no common bridge meet in the root complex, where ACS does not
// decide the route, and add nothing. paired is false when lspci lists no
// ConnectX or no GPU; then every PCIe switch port (Upstream or Downstream
// Port) with a redirect on is listed, as it could sit on such a path.
func ACSBetween(devs []*PCIDevice) (out []ACSBridge, paired bool) {
	var nics, gpus []*PCIDevice
	for _, d := range devs {
		switch {
		case IsConnectX(d):
			nics = append(nics, d)
		case IsNVIDIAGPU(d):
			gpus = append(gpus, d)
		}
	}
	seen := map[*PCIDevice]bool{}
	add := func(b *PCIDevice, nic, gpu string) {
		if on := redirectOn(b); len(on) > 0 && !seen[b] {
			seen[b] = true
			out = append(out, ACSBridge{Dev: b, On: on, NIC: nic, GPU: gpu})
		}
	}
	if len(nics) == 0 || len(gpus) == 0 {
		for _, d := range devs {
			if d.PortType == "Upstream Port" || d.PortType == "Downstream Port" {
				add(d, "", "")
			}
		}
		return sortBridges(out), false
	}
	for _, n := range nics {
		pn := PCIPath(devs, n)
		for _, g := range gpus {
			pg := PCIPath(devs, g)
			below, ok := belowCommon(pn, pg)
			if !ok {
				continue
			}
			for _, b := range below {
				add(b, n.Addr, g.Addr)
			}
		}
	}
	return sortBridges(out), true
}

// belowCommon is the bridges of both paths below their first common
// bridge; ok is false when they share none.
func belowCommon(a, b []*PCIDevice) ([]*PCIDevice, bool) {
	inB := map[*PCIDevice]int{}
	for i, x := range b {
		inB[x] = i
	}
	for i, x := range a {
		if j, ok := inB[x]; ok {
			return append(append([]*PCIDevice{}, a[:i]...), b[:j]...), true
		}
	}
	return nil, false
}

func sortBridges(bs []ACSBridge) []ACSBridge {
	sort.Slice(bs, func(i, j int) bool { return bs[i].Dev.Addr < bs[j].Dev.Addr })
	return bs
}

// ACSCtlWord is the ACS Control register the flags stand for (bit i =
// ACSFlagOrder[i]), as setpci reads and writes it.
func (d *PCIDevice) ACSCtlWord() uint16 {
	var w uint16
	for i, f := range ACSFlagOrder {
		if d.ACSCtl[f] {
			w |= 1 << i
		}
	}
	return w
}

// PCIParent is the bridge whose bus range holds d's bus, the tightest one
// when several do (a switch's upstream port spans its downstream ports'
// buses); nil at a root bus.
func PCIParent(devs []*PCIDevice, d *PCIDevice) *PCIDevice {
	var best *PCIDevice
	for _, b := range devs {
		if b == d || !b.HasBus || b.Domain != d.Domain || d.Bus < b.Secondary || d.Bus > b.Subordinate {
			continue
		}
		if best == nil || b.Subordinate-b.Secondary < best.Subordinate-best.Secondary ||
			(b.Subordinate-b.Secondary == best.Subordinate-best.Secondary && b.Secondary > best.Secondary) {
			best = b
		}
	}
	return best
}

// PCIPath is d's bridges from its parent up to the root, at most len(devs)
// long (a malformed capture whose ranges form a cycle ends there).
func PCIPath(devs []*PCIDevice, d *PCIDevice) []*PCIDevice {
	var out []*PCIDevice
	seen := map[*PCIDevice]bool{d: true}
	for p := PCIParent(devs, d); p != nil && !seen[p]; p = PCIParent(devs, p) {
		seen[p] = true
		out = append(out, p)
	}
	return out
}
