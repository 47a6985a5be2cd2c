// Package devcmd is the one list of commands qoslint may send to a device,
// and which fabric-directory file each one fills. Every collector sends
// through Check, so a linter can never change the fabric: the list holds
// only read-only commands, and mlnx_qos is only ever given -i <netdev> (any
// other flag changes the NIC: the add_option help of Mellanox/mlnx-tools python/mlnx_qos).
package devcmd

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/names"
)

// Switch commands (NVUE: CumulusNetworks/docs content/cumulus-linux-514/System-Configuration/NVIDIA-User-Experience-NVUE/NVUE-CLI.md
// and content/cumulus-linux-5*/.../RDMA-over-Converged-Ethernet-RoCE.md).
const (
	NVConfigYAML     = "nv config show -o yaml"     // → nv-config.yaml
	NVConfigCommands = "nv config show -o commands" // → nv-config-commands.txt
	NVShowQosRoce    = "nv show qos roce"           // → nv-show-qos-roce.txt
	// NVShowPacketTrim and NVShowQoSRemark read packet trimming and the
	// remark profiles (CumulusNetworks/docs content/cumulus-linux-515/
	// Layer-1-and-Switch-Ports/Quality-of-Service/Packet-Trimming.md, "Show
	// Packet Trimming Configuration"; RDMA-over-Converged-Ethernet-RoCE.md,
	// "Lossy Multi TC Profile"). Only these forms: `nv action clear system
	// forwarding packet-trim counters` clears counters, and `nv set`/`nv
	// unset` change the switch.
	NVShowPacketTrim = "nv show system forwarding packet-trim" // → nv-show-packet-trim.txt
	NVShowQoSRemark  = "nv show qos remark"                    // → nv-show-qos-remark.txt
	// NVShowInterfacePrefix and RoceStatusSuffix frame `nv show interface
	// <port> qos roce status`, the only command that takes a switch port.
	NVShowInterfacePrefix = "nv show interface "
	RoceStatusSuffix      = " qos roce status"
)

// NVShowRoceStatus is `nv show interface <port> qos roce status` →
// roce-status/<port>.txt ("To show detailed RoCE information about a single
// interface, run the `nv show interface <interface-id> qos roce status`
// command", CumulusNetworks/docs content/cumulus-linux-515/
// Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md).
// `nv show` only reads. The port must be one interface the names package
// accepts: a range or list (swp1-3, swp5) would print several interfaces
// in a layout no NVIDIA page shows, and anything else could carry a second
// command. The all-interfaces form `nv show interface qos-roce-status` is
// not sent: its output is not published.
func NVShowRoceStatus(port string) (string, error) {
	if !names.NVUEPort(port) {
		return "", fmt.Errorf("port %q is not a safe interface name (%s)", port, names.PortRule)
	}
	return NVShowInterfacePrefix + port + RoceStatusSuffix, nil
}

// ParseNVShowRoceStatus is the port of an allowed NVShowRoceStatus
// command; ok is false for any other text.
func ParseNVShowRoceStatus(cmd string) (port string, ok bool) {
	rest, ok := strings.CutPrefix(cmd, NVShowInterfacePrefix)
	if !ok {
		return "", false
	}
	if port, ok = strings.CutSuffix(rest, RoceStatusSuffix); !ok || !names.NVUEPort(port) {
		return "", false
	}
	return port, true
}

// LLDPNeighbors is lldpd's view of every port (switches and hosts alike)
// → lldp.json. json0 keeps every element a list whatever the count
// (lldpd/lldpd src/client/json_writer.c), so the shape does not change
// with the number of neighbours; lldpcli only reads lldpd's state.
const LLDPNeighbors = "lldpcli -f json0 show neighbors details"

// SONiC switch commands (sonic-net/sonic-buildimage, sonic-net/sonic-utilities).
// Each only reads: sonic-cfggen without -w/--write-to-db/-a and the `show`
// CLI print and change nothing, and docker exec runs lldpcli's show only.
const (
	// SONiCConfigDB prints the running CONFIG_DB as one JSON object →
	// config_db.json (sonic-buildimage src/sonic-config-engine/sonic-cfggen:
	// -d reads the database, --print-data "print all data"; its docstring
	// shows `sonic-cfggen -d --print-data > db_dump.json`).
	SONiCConfigDB = "sonic-cfggen -d --print-data"
	// SONiCRunningConfig is the fallback for the same file: `show
	// runningconfiguration all` prints that JSON with json.dumps(indent=4)
	// plus "bgpraw", FRR's running configuration (sonic-utilities
	// show/main.py `def all`).
	SONiCRunningConfig = "show runningconfiguration all"
	// SONiCPlatformSummary → show-platform-summary.txt: platform, HwSKU,
	// ASIC (sonic-utilities show/platform.py summary).
	SONiCPlatformSummary = "show platform summary"
	// SONiCLLDPNeighbors is LLDPNeighbors in SONiC's lldp container →
	// lldp.json. The host's own lldpcli is a wrapper, `docker exec
	// -i[t] lldp lldpcli "$@"`, which adds -t when stdout is a terminal
	// (sonic-buildimage dockers/docker-lldp/base_image_files/lldpcli).
	// qoslint's shell is a pty, so the wrapper would give lldpcli a
	// terminal inside the container, whose line discipline turns every
	// "\n" into "\r\n" before ours does it again: lldp.json would arrive
	// with CRLF line ends that lldpd never printed. Without -t (and
	// without -i: lldpcli reads no input) the bytes are lldpcli's own.
	SONiCLLDPNeighbors = "docker exec lldp " + LLDPNeighbors
)

// Host commands.
const (
	IBDev2Netdev = "ibdev2netdev"               // → ibdev2netdev.txt
	IPLink       = "ip -j link show"            // → ip-link.json
	CatNCCLConf  = "cat " + layout.NCCLConfPath // → nccl.conf
	// CatUCXConf is UCX's system-wide configuration → ucx.conf.
	CatUCXConf = "cat " + layout.UCXConfPath
	// SudoPrefix runs a host command as root without ever prompting: sudo
	// -n fails instead of asking for a password.
	SudoPrefix = "sudo -n "
	// MlnxQosPrefix and SysfsGrepPrefix start the two commands that take
	// arguments; servers that answer them (the simulator) match on these.
	MlnxQosPrefix = "mlnx_qos -i "
	// EthtoolSPrefix starts `ethtool -S <netdev>`, the NIC's statistics.
	// -S only reads; most other ethtool flags (-s, -K, -G, -A, --set-*)
	// change the NIC, so no other flag is ever sent.
	EthtoolSPrefix  = "ethtool -S "
	SysfsGrepPrefix = "grep -H '' -- "
	grepPrefix      = SysfsGrepPrefix
)

// PCI and firmware reads (host-acs, host-firmware).
const (
	// Lspci is `lspci -vvv` → lspci.txt: every function with its
	// capabilities, ACS among them. Other flags are refused: -D and -nn
	// change nothing host-acs reads (lspci prints the domain anyway when
	// there is more than one), -x dumps raw configuration space, and -H1
	// or -A pick access methods that poke the hardware directly (pciutils
	// lspci.man, "PCI access options"). Only root sees the extended
	// capabilities; a user gets "<access denied>" instead (same page).
	Lspci = "lspci -vvv"
	// CatCPUInfo reads /proc/cpuinfo → cpuinfo.txt, for its "hypervisor"
	// flag; any user may read it.
	CatCPUInfo = "cat " + layout.CPUInfoPath
	// MlxconfigPrefix and MlxconfigQuery frame `mlxconfig -d <ibdev> q`,
	// the query of the firmware's persistent configuration (NVIDIA MFT
	// documentation, "Examples of mlxconfig Usage":
	// https://docs.nvidia.com/networking/display/mft/examples+of+mlxconfig+usage).
	// Every other mlxconfig command (set, reset, set_raw, -y, -f) writes
	// the NIC's flash, so nothing else is ever sent.
	MlxconfigPrefix = "mlxconfig -d "
	MlxconfigQuery  = " q"
)

// MlxconfigQ is `mlxconfig -d <ibdev> q` → mlxconfig-<ibdev>.txt.
// mlxconfig takes an RDMA device name for -d (the MFT page above); a name
// the names package refuses (a space, a leading '-') could smuggle in a
// second command or flag, so it is refused.
func MlxconfigQ(ibdev string) (string, error) {
	if !names.IBDev(ibdev) {
		return "", fmt.Errorf("RDMA device %q is not a safe name (%s)", ibdev, names.IBDevRule)
	}
	return MlxconfigPrefix + ibdev + MlxconfigQuery, nil
}

// MlnxQos is `mlnx_qos -i <netdev>` → mlnx_qos-<netdev>.txt.
func MlnxQos(netdev string) (string, error) {
	if !names.Netdev(netdev) {
		return "", fmt.Errorf("netdev %q is not a safe interface name (%s)", netdev, names.NetdevRule)
	}
	return MlnxQosPrefix + netdev, nil
}

// EthtoolS is `ethtool -S <netdev>` → ethtool-S-<netdev>.txt.
func EthtoolS(netdev string) (string, error) {
	if !names.Netdev(netdev) {
		return "", fmt.Errorf("netdev %q is not a safe interface name (%s)", netdev, names.NetdevRule)
	}
	return EthtoolSPrefix + netdev, nil
}

// sysfsRe are the only files ReadSysfs may name (knneth/mlnx-ofa_kernel
// drivers/net/ethernet/mellanox/mlx5/core/en_sysfs.c, en_ecn.c and
// drivers/infiniband/hw/mlx5/main_ext.c), the
// RDMA hw_counters the counters collection reads (Linux
// drivers/infiniband/hw/mlx5/counters.c names; reading one only queries
// the firmware's counters, drivers/infiniband/core/sysfs.c show_hw_stats),
// the RoCE type of a GID table entry (gid_attrs/types/<index>, Linux
// Documentation/ABI/testing/sysfs-class-infiniband) and RDMA-CM's
// default RoCE mode and ToS in configfs (Documentation/ABI/testing/
// configfs-rdma_cm). grep only reads; qoslint never creates the rdma_cm
// group (mkdir), so a host where nobody did has no such file.
var sysfsRe = regexp.MustCompile(`^/sys/(class/(net/` + names.NetdevPattern + `/ecn/roce_(np|rp)/enable/[0-7]|` +
	`net/` + names.NetdevPattern + `/ecn/roce_np/(cnp_dscp|cnp_802p_prio)|` +
	`infiniband/` + names.IBDevPattern + `/tc/[0-9]{1,3}/traffic_class|` +
	`infiniband/` + names.IBDevPattern + `/ports/[0-9]{1,3}/gid_attrs/types/[0-9]{1,3}|` +
	`infiniband/` + names.IBDevPattern + `/ports/[0-9]{1,3}/hw_counters/(` + strings.Join(hostfiles.HWCounterNames, "|") + `))|` +
	`kernel/config/rdma_cm/` + names.IBDevPattern + `/ports/[0-9]{1,3}/default_roce_(mode|tos))$`)

// ReadSysfs is one command that prints every listed sysfs file as
// "path:line" (grep -H with an empty pattern matches every line), and
// "grep: path: No such file or directory" for a missing one. An empty file
// prints nothing, which tells it from a missing one.
func ReadSysfs(paths []string) (string, error) {
	if len(paths) == 0 {
		return "", fmt.Errorf("no sysfs path")
	}
	for _, p := range paths {
		if !sysfsRe.MatchString(p) || strings.Contains(p, "..") {
			return "", fmt.Errorf("sysfs path %q is not one qoslint reads", p)
		}
	}
	return grepPrefix + strings.Join(paths, " "), nil
}

// Check returns nil when cmd is on the allowlist: one of the fixed
// commands (the SONiC ones among them, exactly as written: no other
// sonic-cfggen, show, docker or redis-cli form), nv show interface <port> qos roce status with a single safe
// port, mlnx_qos -i or ethtool -S with a safe netdev, mlxconfig -d with
// a safe RDMA device and q, smpquery's read forms (SMPQuery, SMPQueryLID),
// ibswitches, the sysfs read of allowed paths, or the job environment's
// scan and read of one numeric pid (jobenv.go), optionally run through
// `sudo -n`.
func Check(cmd string) error {
	c := strings.TrimPrefix(cmd, SudoPrefix)
	switch c {
	case NVConfigYAML, NVConfigCommands, NVShowQosRoce, NVShowPacketTrim, NVShowQoSRemark, IBDev2Netdev, IPLink, CatNCCLConf, CatUCXConf, LLDPNeighbors, Lspci, CatCPUInfo,
		IBStat, CatOpenSMConf, IBSwitches, JobEnvScan,
		SONiCConfigDB, SONiCRunningConfig, SONiCPlatformSummary, SONiCLLDPNeighbors:
		return nil
	}
	if _, ok := parseJobEnvRead(c); ok {
		return nil
	}
	if _, ok := ParseNVShowRoceStatus(c); ok {
		return nil
	}
	if p, ok := strings.CutPrefix(c, CatPrefix); ok {
		if _, err := CatQoSPolicy(p); err == nil {
			return nil
		}
	}
	if _, _, _, ok := ParseSMPQuery(c); ok {
		return nil
	}
	if _, _, _, ok := ParseSMPQueryLID(c); ok {
		return nil
	}
	if rest, ok := strings.CutPrefix(c, MlxconfigPrefix); ok {
		ib, ok := strings.CutSuffix(rest, MlxconfigQuery)
		if !ok {
			return fmt.Errorf("not on the allowlist: %q: mlxconfig only as `mlxconfig -d <ibdev> q`", cmd)
		}
		if _, err := MlxconfigQ(ib); err != nil {
			return fmt.Errorf("not on the allowlist: %q: %v", cmd, err)
		}
		return nil
	}
	if nd, ok := strings.CutPrefix(c, MlnxQosPrefix); ok {
		if _, err := MlnxQos(nd); err != nil {
			return fmt.Errorf("not on the allowlist: %q: %v", cmd, err)
		}
		return nil
	}
	if nd, ok := strings.CutPrefix(c, EthtoolSPrefix); ok {
		if _, err := EthtoolS(nd); err != nil {
			return fmt.Errorf("not on the allowlist: %q: %v", cmd, err)
		}
		return nil
	}
	if rest, ok := strings.CutPrefix(c, grepPrefix); ok {
		if _, err := ReadSysfs(strings.Fields(rest)); err != nil || strings.Contains(rest, "  ") {
			return fmt.Errorf("not on the allowlist: %q", cmd)
		}
		return nil
	}
	return fmt.Errorf("not on the allowlist: %q", cmd)
}

// ParseSysfs splits ReadSysfs's output back into files. present maps each
// path that exists to its content ("%d\n" lines re-joined); a path that grep
// reported missing is absent from present, and so is one the output does
// not mention when the output was cut short (complete false).
func ParseSysfs(paths []string, out string) (present map[string]string, missing []string, err error) {
	present = map[string]string{}
	known := map[string]bool{}
	for _, p := range paths {
		known[p] = true
	}
	seenMissing := map[string]bool{}
	var lines = strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if out == "" {
		lines = nil
	}
	for i, l := range lines {
		if rest, ok := strings.CutPrefix(l, "grep: "); ok {
			p, _, ok := strings.Cut(rest, ": ")
			if !ok || !known[p] {
				return nil, nil, fmt.Errorf("line %d: unexpected grep message %q", i+1, l)
			}
			seenMissing[p] = true
			continue
		}
		p, content, ok := strings.Cut(l, ":")
		if !ok || !known[p] {
			return nil, nil, fmt.Errorf("line %d: %q names no requested sysfs file", i+1, l)
		}
		present[p] += content + "\n"
	}
	for _, p := range paths {
		if seenMissing[p] {
			missing = append(missing, p)
		} else if _, ok := present[p]; !ok {
			present[p] = "" // exists, empty
		}
	}
	return present, missing, nil
}
