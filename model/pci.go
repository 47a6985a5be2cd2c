package model

import (
	"sort"
	"strings"

	"github.com/qoslint/qoslint/collectors/hostfiles"
)

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
	Dev      *hostfiles.PCIDevice
	On       []string // the redirect flags that are on, in ACSFlagOrder
	NIC, GPU string
}

// Word is the ACS Control register with the redirect flags cleared.
func (b ACSBridge) Word() uint16 { return b.Dev.ACSCtlWord() &^ acsRedirectMask }

// IsConnectX reports a Mellanox/NVIDIA network function (lspci names
// ConnectX functions "Mellanox Technologies"; mlx5_core drives them).
func IsConnectX(d *hostfiles.PCIDevice) bool {
	switch d.Class {
	case "Ethernet controller", "Infiniband controller", "Network controller":
		return d.Driver == "mlx5_core" || strings.Contains(d.Desc, "Mellanox")
	}
	return false
}

// IsNVIDIAGPU reports an NVIDIA GPU function.
func IsNVIDIAGPU(d *hostfiles.PCIDevice) bool {
	return (d.Class == "3D controller" || d.Class == "VGA compatible controller") && strings.HasPrefix(d.Desc, "NVIDIA")
}

func redirectOn(d *hostfiles.PCIDevice) []string {
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
func ACSBetween(devs []*hostfiles.PCIDevice) (out []ACSBridge, paired bool) {
	var nics, gpus []*hostfiles.PCIDevice
	for _, d := range devs {
		switch {
		case IsConnectX(d):
			nics = append(nics, d)
		case IsNVIDIAGPU(d):
			gpus = append(gpus, d)
		}
	}
	seen := map[*hostfiles.PCIDevice]bool{}
	add := func(b *hostfiles.PCIDevice, nic, gpu string) {
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
		pn := hostfiles.PCIPath(devs, n)
		for _, g := range gpus {
			pg := hostfiles.PCIPath(devs, g)
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
func belowCommon(a, b []*hostfiles.PCIDevice) ([]*hostfiles.PCIDevice, bool) {
	inB := map[*hostfiles.PCIDevice]int{}
	for i, x := range b {
		inB[x] = i
	}
	for i, x := range a {
		if j, ok := inB[x]; ok {
			return append(append([]*hostfiles.PCIDevice{}, a[:i]...), b[:j]...), true
		}
	}
	return nil, false
}

func sortBridges(bs []ACSBridge) []ACSBridge {
	sort.Slice(bs, func(i, j int) bool { return bs[i].Dev.Addr < bs[j].Dev.Addr })
	return bs
}
