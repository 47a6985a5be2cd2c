package checks

import (
	"os"
	"strings"
	"testing"
)

var (
	gpu01Q0 = dev("gpu01", "mlnx_qos-ens1f0np0.txt")
	gpu01N  = dev("gpu01", "nccl.conf")
	gpu03TC = dev("gpu03", "sysfs/class/infiniband/mlx5_0/tc/1/traffic_class")
	gpu01Sy = dev("gpu01", "sysfs/class/net/ens1f0np0/ecn")
)

const dscpPrio3 = "prio:3 dscp:31,30,29,28,27,26,25,24,"

var _ = register(hostTrust, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "pcp", edits: []edit{replace(gpu01Q0, "Priority trust state: dscp", "Priority trust state: pcp")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "trusts pcp"},
		{name: "not collected", edits: []edit{remove(gpu01Q0)},
			want: []string{"info gpu01"}, msg: "mlnx_qos-ens1f0np0.txt not collected: trust not checked"},
	}
})

var _ = register(hostDSCPMap, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "26 moved to 4", edits: []edit{
			replace(gpu01Q0, dscpPrio3, "prio:3 dscp:31,30,29,28,27,25,24,"),
			replace(gpu01Q0, "prio:4 dscp:39,38,37,36,35,34,33,32,", "prio:4 dscp:26,39,38,37,36,35,34,33,\n\tprio:4 dscp:32,")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "the switches map it to switch-priority 3"},
		{name: "26 missing from the table", edits: []edit{replace(gpu01Q0, dscpPrio3, "prio:3 dscp:31,30,29,28,27,25,24,")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "not in the NIC's dscp2prio table"},
		{name: "switches disagree too", edits: []edit{
			replace(gpu01Q0, dscpPrio3, "prio:3 dscp:31,30,29,28,27,25,24,"),
			replace(gpu01Q0, "prio:0 dscp:07,06,05,04,03,02,01,00,", "prio:0 dscp:26,07,06,05,04,03,02,01,\n\tprio:0 dscp:00,"),
			appendTo(spine02C, "nv set qos mapping default-global dscp 26 switch-priority 0\n")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "the switches disagree: switch-priority 0 on spine02; 3 on leaf01, leaf02, spine01"},
		{name: "pcp NICs are host-trust's", edits: []edit{replace(gpu01Q0, "Priority trust state: dscp", "Priority trust state: pcp")}},
	}
})

var _ = register(hostPFC, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "moved to 4", edits: []edit{replace(gpu01Q0, "enabled     0   0   0   1   0", "enabled     0   0   0   0   1")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "PFC is on priority 4 instead of 3"},
		{name: "off", edits: []edit{replace(gpu01Q0, "enabled     0   0   0   1   0", "enabled     0   0   0   0   0")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "not on priority 3"},
		{name: "extra", edits: []edit{replace(gpu01Q0, "enabled     0   0   0   1   0", "enabled     1   0   0   1   0")},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "also on priority 0"},
	}
})

var _ = register(hostECN, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "rp off", edits: []edit{write(gpu01Sy+"/roce_rp/enable/3", "0\n")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "reaction point is off for priority 3"},
		{name: "np and rp off", edits: []edit{write(gpu01Sy+"/roce_rp/enable/3", "0\n"), write(gpu01Sy+"/roce_np/enable/3", "0\n")},
			want: []string{"error gpu01 ens1f0np0", "error gpu01 ens1f0np0"}},
		{name: "not collected", edits: []edit{remove(gpu01Sy + "/roce_rp/enable/3"), remove(gpu01Sy + "/roce_np/enable/3")},
			want: []string{"info gpu01"}},
	}
})

var _ = register(hostCNP, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "CNP DSCP 46", edits: []edit{write(gpu01Sy+"/roce_np/cnp_dscp", "46\n")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "CNPs leave with DSCP 46"},
		{name: "CNP 802.1p 0", edits: []edit{write(gpu01Sy+"/roce_np/cnp_802p_prio", "0\n")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "802.1p priority 0"},
	}
})

var _ = register(hostToS, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "NCCL_IB_TC is the DSCP", edits: []edit{replace(gpu01N, "NCCL_IB_TC=106", "NCCL_IB_TC=26")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "NCCL_IB_TC=26 is the DSCP, not the ToS"},
		{name: "NCCL_IB_TC unset", edits: []edit{replace(gpu01N, "NCCL_IB_TC=106", "")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "RoCE leaves with ToS 0"},
		{name: "NCCL_IB_TC other DSCP", edits: []edit{replace(gpu01N, "NCCL_IB_TC=106", "NCCL_IB_TC=96")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "puts DSCP 24 on the wire"},
		{name: "forced traffic_class overrides a good NCCL_IB_TC", edits: []edit{write(gpu03TC, "Global tclass=26\n")},
			want: []string{"error gpu03 ens1f0np0"}, msg: "the forced traffic_class is the DSCP"},
		{name: "forced traffic_class fixes a bad NCCL_IB_TC", edits: []edit{replace(dev("gpu03", "nccl.conf"), "NCCL_IB_TC=106", "NCCL_IB_TC=0")}},
		{name: "ToS with ECT(0) is fine", edits: []edit{replace(gpu01N, "NCCL_IB_TC=106", "NCCL_IB_TC=104")}},
		{name: "export prefix sets nothing", edits: []edit{replace(gpu01N, "NCCL_IB_TC=106", "export NCCL_IB_TC=106")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: `sets a variable named "export NCCL_IB_TC"`},
		{name: "octal", edits: []edit{replace(gpu01N, "NCCL_IB_TC=106", "NCCL_IB_TC=0106")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "octal"},
		{name: "nothing collected", edits: []edit{remove(gpu01N)},
			want: []string{"info gpu01"}, msg: "nccl.conf"},
		{name: "the environment was not collected", edits: []edit{replace(gpu01N, "NCCL_IB_TC=106", "NCCL_IB_TC=26")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "set in /etc/nccl.conf; the job environment and ~/.nccl.conf were not collected: a job may still override it there"},
		{name: "~/.nccl.conf beats a good /etc/nccl.conf", edits: []edit{write(dev("gpu01", "home-nccl.conf"), "NCCL_IB_TC=26\n")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "set in ~/.nccl.conf, which beats /etc/nccl.conf; set NCCL_IB_TC=104 there"},
		{name: "the environment fixes a bad ~/.nccl.conf", edits: []edit{write(dev("gpu01", "home-nccl.conf"), "NCCL_IB_TC=26\n"),
			write(dev("gpu01", "nccl-env.txt"), "HOME=/home/alice\nNCCL_IB_TC=106\n")}},
		{name: "the environment sets a bad value", edits: []edit{write(dev("gpu01", "nccl-env.txt"), "HOME=/home/alice\x00NCCL_IB_TC=0\x00")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "set in the job environment, which beats every nccl.conf"},
		{name: "every layer collected, none sets it", edits: []edit{replace(gpu01N, "NCCL_IB_TC=106", ""),
			write(dev("gpu01", "home-nccl.conf"), "NCCL_DEBUG=WARN\n"), write(dev("gpu01", "nccl-env.txt"), "HOME=/home/alice\n")},
			want: []string{"error gpu01 ens1f0np0,ens1f1np1"}, msg: "RoCE leaves with ToS 0 (NCCL_IB_TC unset, NCCL's default 0): DSCP 0, priority 0, the lossy queue on every hop; set the ToS to 104 (DSCP 26 × 4); no collected layer (environment, ~/.nccl.conf, /etc/nccl.conf) sets it"},
	}
})

// One finding per device lists every missing input and each check it
// would have fed, however many checks skipped it.
func TestNotCollectedMerged(t *testing.T) {
	f := fabric(t, remove(dev("gpu01", "mlnx_qos-ens1f0np0.txt")), remove(dev("gpu01", "ip-link.json")),
		// `mlnx_qos -i ens1f0np0 | grep -v prio:` style: trust dscp, no block.
		write(dev("gpu02", "mlnx_qos-ens1f0np0.txt"), "DCBX mode: OS controlled\nPriority trust state: dscp\nCable len: 7\nPFC configuration:\n"+
			"\tpriority    0   1   2   3   4   5   6   7\n\tenabled     0   0   0   1   0   0   0   0\n"))
	var got []string
	for _, fd := range Run(f) {
		if fd.Severity == Info {
			got = append(got, fd.Check+" "+fd.Device+": "+fd.Message)
		}
	}
	want := []string{
		"not-collected gpu01: mlnx_qos-ens1f0np0.txt not collected: host-trust (trust), host-dscp-map (dscp2prio), host-pfc (PFC), host-ets (ETS) not checked; ip-link.json not collected: mtu (host MTU) not checked",
		"not-collected gpu02: dscp2prio block of mlnx_qos-ens1f0np0.txt not collected: host-dscp-map (dscp2prio) not checked",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

var _ = register(mtu, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "1500", edits: []edit{replace(dev("gpu01", "ip-link.json"), `"ifname":"ens1f0np0","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":9000`, `"ifname":"ens1f0np0","flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":1500`)},
			want: []string{"error gpu01 ens1f0np0"}, msg: "path MTU drops to 1024"},
		{name: "not collected", edits: []edit{remove(dev("gpu01", "ip-link.json"))},
			want: []string{"info gpu01"}},
	}
})

// not-collected has no rule of its own: its cases run every check and keep
// the merged finding.
var _ = register(NotCollected, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "mlnx_qos and ip-link missing", edits: []edit{remove(dev("gpu01", "mlnx_qos-ens1f0np0.txt")), remove(dev("gpu01", "ip-link.json"))},
			want: []string{"info gpu01"}, msg: "mlnx_qos-ens1f0np0.txt not collected: host-trust (trust), host-dscp-map (dscp2prio), host-pfc (PFC), host-ets (ETS) not checked"},
	}
})

var (
	gpu01Mlx = dev("gpu01", "mlxconfig-mlx5_0.txt")
	gpu01PCI = dev("gpu01", "lspci.txt")
	gpu01CPU = dev("gpu01", "cpuinfo.txt")
)

// The switch port above the fixture's ConnectX, with ACS redirect off and
// on (pciutils ls-ecaps.c cap_acs layout, collectors/hostfiles/testdata).
const (
	dspACSOff = "ACSCtl:\tSrcValid- TransBlk- ReqRedir- CmpltRedir- UpstreamFwd- EgressCtrl- DirectTrans-"
	dspACSOn  = "ACSCtl:\tSrcValid+ TransBlk- ReqRedir+ CmpltRedir+ UpstreamFwd+ EgressCtrl- DirectTrans-"
)

func hostfile(t testing.TB, name string) string {
	data, err := os.ReadFile("../collectors/hostfiles/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

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

var _ = register(hostFirmware, func(t testing.TB) []checkCase {
	fw := hostfile(t, "mlxconfig/constructed_next_boot.txt")
	return []checkCase{
		{name: "clean"},
		{name: "policy values", edits: []edit{write(gpu01Mlx, fw)}},
		{name: "CNP DSCP 46 at next boot", edits: []edit{write(gpu01Mlx, strings.Replace(fw, "CNP_DSCP_P1                         48", "CNP_DSCP_P1                         46", 1))},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "CNP_DSCP_P1 of mlx5_0 (ens1f0np0 port 1) is 46 at the next boot"},
		{name: "RoCE priority not in the CC mask", edits: []edit{write(gpu01Mlx, strings.Replace(fw, "ROCE_CC_PRIO_MASK_P1                255", "ROCE_CC_PRIO_MASK_P1                247", 1))},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "must cover RoCE priority 3"},
		{name: "not collected", edits: []edit{remove(gpu01Mlx)},
			want: []string{"info gpu01"}, msg: "mlxconfig-mlx5_0.txt not collected: firmware configuration not checked"},
		{name: "link type IB", edits: []edit{write(gpu01Mlx, strings.Replace(fw, "LINK_TYPE_P1                        ETH(2)", "LINK_TYPE_P1                        IB(1)", 1))},
			want: []string{"error gpu01 ens1f0np0"}, msg: "must be Ethernet"},
	}
})
