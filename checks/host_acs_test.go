package checks

import (
	"strings"
	"testing"
)

// The switch port above the fixture's ConnectX, with ACS redirect off and
// on (pciutils ls-ecaps.c cap_acs layout, collectors/hostfiles/testdata).
const (
	dspACSOff = "ACSCtl:\tSrcValid- TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-"
	dspACSOn  = "ACSCtl:\tSrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-"
)

var _ = register(hostACS, func(t testing.TB) []checkCase {
	pci := hostfile(t, "lspci/constructed_plx_switch.txt")
	on := strings.Replace(pci, dspACSOff, dspACSOn, 1)
	return []checkCase{
		{name: "clean"},
		{name: "switch ports off", edits: []edit{write(gpu01PCI, pci)}},
		{name: "redirect on the NIC's switch port", edits: []edit{write(gpu01PCI, on)},
			want: []string{"error gpu01 0000:3c:08.0"}, msg: "between ConnectX 0000:3d:00.0 and GPU 0000:3e:00.0"},
		{name: "inside a VM", edits: []edit{write(gpu01PCI, on), write(gpu01CPU, "processor\t: 0\nflags\t\t: fpu hypervisor\n")},
			want: []string{"info gpu01 0000:3c:08.0"}, msg: "virtual machine"},
		{name: "lspci without root", edits: []edit{write(gpu01PCI, hostfile(t, "lspci/constructed_no_root.txt"))},
			want: []string{"info gpu01"}, msg: "read without root"},
		// An optional input still never passes unread.
		{name: "lspci not collected", edits: []edit{remove(gpu01PCI)},
			want: []string{"info gpu01"}, msg: "lspci.txt not collected: PCIe ACS not checked"},
		{name: "cpuinfo not collected", edits: []edit{remove(gpu01CPU)},
			want: []string{"info gpu01"}, msg: "cpuinfo.txt not collected (or without a flags line): whether the host is a virtual machine not checked"},
		{name: "cpuinfo without flags (not x86)", edits: []edit{write(gpu01CPU, "processor\t: 0\nBogoMIPS\t: 2000.00\n")},
			want: []string{"info gpu01"}, msg: "cpuinfo.txt not collected (or without a flags line)"},
		{name: "redirect on, cpuinfo not collected", edits: []edit{write(gpu01PCI, on), remove(gpu01CPU)},
			want: []string{"error gpu01 0000:3c:08.0", "info gpu01"}, msg: "judged as bare metal"},
	}
})
