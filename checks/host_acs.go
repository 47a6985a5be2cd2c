package checks

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

var hostACS = &Check{
	ID:       "host-acs",
	Kind:     KindConfig,
	Devices:  Hosts,
	Severity: judge.Error,
	Title:    "No PCIe bridge between a RoCE NIC and a GPU redirects peer-to-peer traffic (ACS)",
	Doc: `NCCL's troubleshooting guide (docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting.html,
"PCI Access Control Services (ACS)"): ACS on a PCI switch redirects all peer-to-peer traffic to the CPU
root complex, "causing a significant performance reduction or even a hang"; on bare metal it must be
disabled. GPUDirect RDMA is such traffic, between the ConnectX NIC and the GPU; NetQ's RoCE validation
checks the same (test 6, "RoCE ACS P2P mode"). qoslint reads lspci -vvv (as root): the PCI tree from
each bridge's "Bus: secondary=, subordinate=" range, and each bridge's ACSCtl. A bridge on the path
from a ConnectX function to an NVIDIA GPU below the switch where they meet, with ReqRedir+, CmpltRedir+
or EgressCtrl+ (the bits Linux's pci=disable_acs_redir= clears), is an error. When lspci lists no
ConnectX or no NVIDIA GPU, every PCIe switch port with a redirect on is judged, and the finding says so.
Inside a virtual machine (the "hypervisor" flag of /proc/cpuinfo) the hypervisor needs ACS for
isolation and the guest sees virtual bridges, so the finding is info. The fix (setpci ... ECAP_ACS+0x6.w)
lasts until reboot; make it permanent with pci=disable_acs_redir= or the BIOS.`,
	Inputs: []Input{Lspci, CPUInfo},
	Run:    runHostACS,
}

func runHostACS(f *model.Fabric) []Finding {
	var out []Finding
	for _, h := range f.Hosts {
		switch {
		case h.PCI == nil && len(h.NICs) == 0:
			continue // no RoCE NIC (an InfiniBand host): nothing to judge
		case h.PCI == nil:
			out = append(out, notCollected(h.Name, []string{layout.LspciFile + " not collected"}, "PCIe ACS"))
			continue
		case denied(h):
			out = append(out, notCollected(h.Name, []string{layout.LspciFile + " read without root (Capabilities: <access denied>)"}, "PCIe ACS"))
			continue
		case !h.VM.Known:
			// Judged as bare metal, the stricter verdict; still an input
			// a passing report must name.
			out = append(out, notCollected(h.Name, []string{layout.CPUInfoFile + " not collected (or without a flags line)"}, "whether the host is a virtual machine"))
		}
		bridges, paired := model.ACSBetween(h.PCI)
		for _, b := range bridges {
			out = append(out, acsFinding(h, b, paired))
		}
	}
	return out
}

func denied(h *model.Host) bool {
	for _, d := range h.PCI {
		if d.AccessDenied {
			return true
		}
	}
	return false
}

func acsFinding(h *model.Host, b model.ACSBridge, paired bool) Finding {
	sev := judge.Error
	where := fmt.Sprintf("between ConnectX %s and GPU %s", b.NIC, b.GPU)
	if !paired {
		where = "a PCIe switch port; lspci lists no ConnectX and NVIDIA GPU pair, so every switch port is judged"
	}
	msg := fmt.Sprintf("PCIe bridge %s (%s) has ACS %s on: peer-to-peer (GPUDirect RDMA) traffic is sent up to the root complex", b.Dev.Addr, where, strings.Join(b.On, "+ ")+"+")
	switch {
	case h.VM.Known && h.VM.V:
		sev = judge.Info
		msg += "; this host is a virtual machine (cpuinfo hypervisor flag), where ACS is the hypervisor's to set"
	case !h.VM.Known:
		msg += "; " + layout.CPUInfoFile + " was not collected or has no flags line, so the host is judged as bare metal"
	}
	return Finding{
		Severity: sev, Device: h.Name, Interface: b.Dev.Addr,
		Message:  msg,
		Expected: "ACSCtl: ReqRedir- CmpltRedir- EgressCtrl-",
		Actual:   "ACSCtl: " + acsFlags(b),
		Source:   source.Pos{File: h.PCIFile, Line: b.Dev.ACSLine},
		Changes: []Change{{Kind: SetPCI, Target: b.Dev.Addr, Value: fmt.Sprintf("%04x", b.Word()),
			Old: fmt.Sprintf("%04x", b.Dev.ACSCtlWord()), HasOld: true}},
	}
}

func acsFlags(b model.ACSBridge) string {
	var s []string
	for _, f := range model.ACSRedirectFlags {
		if b.Dev.ACSCtl[f] {
			s = append(s, f+"+")
		} else {
			s = append(s, f+"-")
		}
	}
	return strings.Join(s, " ")
}
