// Package layout is qoslint's one vocabulary of names: the files of a
// fabric directory (`qoslint help fabric`), the host paths they mirror
// (/sys, /etc/nccl.conf) and the device kinds. Collectors write these
// names, the offline reader reads them, the model cites them as evidence,
// checks and renderers print them and the simulator serves them; each
// takes them from here, so a file cannot be renamed in one place only.
//
// The package imports the standard library only, so every layer may import
// it (internal/archtest holds it to that).
package layout

import (
	"path"
	"strconv"
	"strings"
)

// Device kinds, as the inventory and reports name them.
const (
	KindSwitch = "switch"
	KindHost   = "host"
)

// The switch operating systems qoslint reads: Cumulus Linux (NVUE) and
// SONiC.
const (
	OSCumulus = "cumulus"
	OSSONiC   = "sonic"
)

// The fabric directory: DIR/devices/<device>/<file>, and the capture
// manifest in a dot folder the device walk never enters.
const (
	DevicesDir  = "devices"
	CaptureFile = ".qoslint/capture.json"
	// CapturesDir holds a device's packet captures (*.pcap, *.pcapng).
	CapturesDir = "captures"
)

// Switch files.
const (
	NVUEYAMLFile     = "nv-config.yaml"         // nv config show -o yaml
	NVUECommandsFile = "nv-config-commands.txt" // nv config show -o commands
	RoceShowFile     = "nv-show-qos-roce.txt"   // nv show qos roce
	// PacketTrimShowFile is `nv show system forwarding packet-trim`,
	// RemarkShowFile `nv show qos remark`; both optional, collected where
	// the configuration trims packets.
	PacketTrimShowFile = "nv-show-packet-trim.txt"
	RemarkShowFile     = "nv-show-qos-remark.txt"
	// GNMIFile holds the gNMI QoS counters; GNMIBeforeFile their earlier
	// sample.
	GNMIFile       = "gnmi-counters.json"
	GNMIBeforeFile = "gnmi-counters.before.json"
	// RoceStatusDir holds one `nv show interface <port> qos roce status`
	// per checked port (RoceStatusFile); optional.
	RoceStatusDir = "roce-status"
)

// A SONiC switch's files. ConfigDBFile is `sonic-cfggen -d --print-data`
// (or a copy of /etc/sonic/config_db.json, or `show runningconfiguration
// all`); PlatformSummaryFile is `show platform summary`, optional
// (sonic-net/sonic-utilities doc/Command-Reference.md).
const (
	ConfigDBFile        = "config_db.json"
	PlatformSummaryFile = "show-platform-summary.txt"
)

// RoceStatusFile is roce-status/<port>.txt, a switch port's operational
// RoCE status.
func RoceStatusFile(port string) string { return path.Join(RoceStatusDir, port+txtSuffix) }

// RoceStatusPort is the port of a file name in RoceStatusDir (possibly
// unsafe: the caller validates it); ok is false for any other name.
func RoceStatusPort(base string) (port string, ok bool) {
	port, ok = strings.CutSuffix(base, txtSuffix)
	return port, ok && port != ""
}

// Host files.
const (
	IBDev2NetdevFile = "ibdev2netdev.txt"
	IPLinkFile       = "ip-link.json" // ip -j link show
	NCCLConfFile     = "nccl.conf"    // /etc/nccl.conf
	// HomeNCCLConfFile is ~/.nccl.conf of the job's user; NCCLEnvFile the
	// job's environment (`env` output or /proc/<pid>/environ). Both are
	// optional: absent means not collected.
	HomeNCCLConfFile = "home-nccl.conf"
	NCCLEnvFile      = "nccl-env.txt"
	// UCXConfFile is /etc/ucx/ucx.conf (UCXConfPath), optional.
	UCXConfFile = "ucx.conf"
	// SysfsDir mirrors the host's /sys files qoslint reads, at their path
	// below /sys; SysfsBeforeDir the earlier sample of the counter files
	// among them (the RDMA hw_counters).
	SysfsDir       = "sysfs"
	SysfsBeforeDir = "sysfs.before"
	// LspciFile is `lspci -vvv` (run as root: the ACS capability is in
	// extended configuration space); CPUInfoFile /proc/cpuinfo, read for
	// its "hypervisor" flag. Both optional.
	LspciFile   = "lspci.txt"
	CPUInfoFile = "cpuinfo.txt"
	// CPUInfoPath is where the kernel prints the CPU flags.
	CPUInfoPath = "/proc/cpuinfo"
)

// MlxConfigFile holds `mlxconfig -d <ibdev> q`, the NIC firmware's
// persistent configuration; optional.
func MlxConfigFile(ibdev string) string { return "mlxconfig-" + ibdev + txtSuffix }

// TopologyFile is the cabling plan at the fabric directory's root, in the
// format of Cumulus Linux's PTM (collectors/topology); optional.
const TopologyFile = "topology.dot"

// LLDPFile holds `lldpcli -f json0 show neighbors details` (or its -f json
// form), on switches and hosts alike.
const LLDPFile = "lldp.json"

// IntervalFile holds, as a Go duration, how far apart the two counter
// samples of a device were.
const IntervalFile = "counters-interval.txt"

const (
	mlnxQosPrefix = "mlnx_qos-"
	ethtoolPrefix = "ethtool-S-"
	txtSuffix     = ".txt"
	beforeSuffix  = ".before.txt"
)

// DeviceDir is devices/<device>.
func DeviceDir(device string) string { return path.Join(DevicesDir, device) }

// DeviceFile is devices/<device>/<file>.
func DeviceFile(device, file string) string { return path.Join(DevicesDir, device, file) }

// MlnxQosFile holds `mlnx_qos -i <netdev>`.
func MlnxQosFile(netdev string) string { return mlnxQosPrefix + netdev + txtSuffix }

// MlnxQosNetdev is the netdev of an MlnxQosFile name (possibly empty or
// unsafe: the caller validates it); ok is false for any other name.
func MlnxQosNetdev(base string) (netdev string, ok bool) {
	nd, ok := strings.CutPrefix(base, mlnxQosPrefix)
	if !ok {
		return "", false
	}
	if nd, ok = strings.CutSuffix(nd, txtSuffix); !ok {
		return "", false
	}
	return nd, true
}

// EthtoolFile holds `ethtool -S <netdev>`.
func EthtoolFile(netdev string) string { return ethtoolPrefix + netdev + txtSuffix }

// EthtoolBeforeFile is the earlier `ethtool -S <netdev>` sample.
func EthtoolBeforeFile(netdev string) string { return ethtoolPrefix + netdev + beforeSuffix }

// IsEthtoolFile reports whether base is an `ethtool -S` sample, the
// earlier one included.
func IsEthtoolFile(base string) bool { return strings.HasPrefix(base, ethtoolPrefix) }

// EthtoolNetdev is the netdev of an EthtoolFile name; ok is false for any
// other name, an EthtoolBeforeFile included.
func EthtoolNetdev(base string) (netdev string, ok bool) {
	if strings.HasSuffix(base, beforeSuffix) {
		return "", false
	}
	nd, ok := strings.CutPrefix(base, ethtoolPrefix)
	if !ok {
		return "", false
	}
	if nd, ok = strings.CutSuffix(nd, txtSuffix); !ok || nd == "" {
		return "", false
	}
	return nd, true
}

// Host paths. The sysfs functions take the root the /sys tree hangs from:
// SysRoot on a host, or a capture's devices/<host>/sysfs folder, which
// mirrors it.
const (
	SysRoot = "/sys"
	// NCCLConfPath is where NCCL reads its configuration file.
	NCCLConfPath = "/etc/nccl.conf"
	// UCXConfPath is the system-wide ucx.conf of a UCX built with
	// --prefix=/usr: UCX_CONFIG_DIR is ${sysconfdir}/ucx (openucx/ucx
	// configure.ac, src/ucs/Makefile.am).
	UCXConfPath = "/etc/ucx/ucx.conf"
)

// DCQCN points of /sys/class/net/<netdev>/ecn/roce_<point>: the
// notification point (the receiver that sends CNPs) and the reaction
// point (the sender that slows down).
const (
	PointNP = "np"
	PointRP = "rp"
)

// CNP attributes below ecn/roce_np.
const (
	CNPDSCP     = "cnp_dscp"
	CNP802pPrio = "cnp_802p_prio"
)

// ECNEnablePath is <root>/class/net/<netdev>/ecn/roce_<point>/enable/<prio>.
func ECNEnablePath(root, netdev, point string, prio int) string {
	return path.Join(root, "class/net", netdev, "ecn", "roce_"+point, "enable", strconv.Itoa(prio))
}

// CNPPath is <root>/class/net/<netdev>/ecn/roce_np/<attr>.
func CNPPath(root, netdev, attr string) string {
	return path.Join(root, "class/net", netdev, "ecn/roce_np", attr)
}

// NetDir is <root>/class/net, the folder of every netdev.
func NetDir(root string) string { return path.Join(root, "class/net") }

// InfinibandDir is <root>/class/infiniband, the folder of every RDMA
// device.
func InfinibandDir(root string) string { return path.Join(root, "class/infiniband") }

// TrafficClassPath is the Force-DSCP file of an RDMA device port,
// <root>/class/infiniband/<ibdev>/tc/<port>/traffic_class. port is a
// string so that a glob ("*") fits too.
func TrafficClassPath(root, ibdev, port string) string {
	return path.Join(root, "class/infiniband", ibdev, "tc", port, "traffic_class")
}

// HWCountersName is the folder of a port's RDMA hw_counters.
const HWCountersName = "hw_counters"

// HWCountersDir is <root>/class/infiniband/<ibdev>/ports/<port>/hw_counters.
func HWCountersDir(root, ibdev string, port int) string {
	return path.Join(root, "class/infiniband", ibdev, "ports", strconv.Itoa(port), HWCountersName)
}

// HWCounter splits a path below a sysfs root,
// class/infiniband/<ibdev>/ports/<port>/hw_counters/<name>; ok is false
// for any other path.
func HWCounter(rel string) (ibdev, port, name string, ok bool) {
	el := strings.Split(rel, "/")
	if len(el) != 7 || el[0] != "class" || el[1] != "infiniband" || el[3] != "ports" || el[5] != HWCountersName {
		return "", "", "", false
	}
	return el[2], el[4], el[6], true
}

// SysRel is a /sys path's place below the root (what a capture mirrors
// below sysfs/); ok is false for a path outside /sys, or one that could
// leave the mirror (".", "..", a backslash, an unclean path).
func SysRel(p string) (string, bool) {
	rel, ok := strings.CutPrefix(p, SysRoot+"/")
	if !ok || rel == "" || path.Clean(p) != p || strings.Contains(p, "\\") {
		return "", false
	}
	for _, e := range strings.Split(rel, "/") {
		if e == "." || e == ".." {
			return "", false
		}
	}
	return rel, true
}

// GIDTypesRead is how many GID table entries of a RoCE port qoslint reads
// the type of (gid_attrs/types/0..GIDTypesRead-1). The kernel fills a RoCE
// port's table with a RoCE v1 and a RoCE v2 entry for the link-local
// address and for each IP address of the netdev (drivers/infiniband/core/
// roce_gid_mgmt.c adds one per GID type the port supports), so 16 entries
// hold the link-local pair and seven addresses.
const GIDTypesRead = 16

// GIDTypePath is the RoCE type of a port's GID table entry,
// <root>/class/infiniband/<ibdev>/ports/<port>/gid_attrs/types/<index>
// (Linux Documentation/ABI/testing/sysfs-class-infiniband).
func GIDTypePath(root, ibdev string, port, index int) string {
	return path.Join(root, "class/infiniband", ibdev, "ports", strconv.Itoa(port), "gid_attrs/types", strconv.Itoa(index))
}

// RoCEModePath is RDMA-CM's default RoCE mode of a port,
// <root>/kernel/config/rdma_cm/<ibdev>/ports/<port>/default_roce_mode
// (Linux Documentation/ABI/testing/configfs-rdma_cm). configfs is
// mounted below /sys/kernel/config, so the capture mirrors it below
// sysfs/ like the sysfs files.
func RoCEModePath(root, ibdev string, port int) string {
	return path.Join(root, "kernel/config/rdma_cm", ibdev, "ports", strconv.Itoa(port), "default_roce_mode")
}

// RoCEToSPath is RDMA-CM's default ToS of a port, next to
// default_roce_mode (Linux Documentation/ABI/testing/configfs-rdma_cm).
func RoCEToSPath(root, ibdev string, port int) string {
	return path.Join(root, "kernel/config/rdma_cm", ibdev, "ports", strconv.Itoa(port), "default_roce_tos")
}

// InCaptures reports whether the slash-separated path p is in a device's
// captures folder (devices/<device>/captures/...). Packet captures are
// evidence the operator adds: no collection fetches or vouches for them.
func InCaptures(p string) bool {
	parts := strings.SplitN(p, "/", 4)
	return len(parts) >= 3 && parts[0] == DevicesDir && parts[2] == CapturesDir
}

// IsCaptureName reports whether a file name in a captures folder is read
// as a packet capture.
func IsCaptureName(base string) bool {
	return strings.HasSuffix(base, ".pcap") || strings.HasSuffix(base, ".pcapng")
}
