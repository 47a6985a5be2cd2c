// Package names is the one definition of the names qoslint takes from an
// inventory or a device file and may later put on a command line or use as
// a path: device names (a folder of evidence), Linux netdevs (mlnx_qos -i,
// ethtool -S, ip link), RDMA device names (a sysfs path element) and NVUE
// interface keys (nv set interface <name>). The live collector
// (collectors/devcmd), the offline reader, the inventory and the renderer
// all ask here, so that a name one of them refuses is refused by all: a
// capture read offline can never hold a name the live audit would not have
// sent, and no such name reaches a rendered command.
package names

import "regexp"

// NetdevPattern is a Linux interface name qoslint passes to a command
// unquoted: at most IFNAMSIZ-1 = 15 bytes (include/uapi/linux/if.h), none
// of the bytes the kernel refuses ('/', ':', whitespace; torvalds/linux
// net/core/dev.c dev_valid_name), and, narrower than the kernel, only
// letters, digits, '_', '.' and '-' and starting with a letter or digit, so
// the name can be neither a shell metacharacter nor an option.
const NetdevPattern = `[A-Za-z0-9][A-Za-z0-9_.-]{0,14}`

// IBDevPattern is an RDMA device name (mlx5_0, rocep1s0f0): at most
// IB_DEVICE_NAME_MAX-1 = 63 bytes (torvalds/linux include/rdma/ib_verbs.h),
// from the same characters as a netdev, so that it is one sysfs path
// element that needs no quoting.
const IBDevPattern = `[A-Za-z0-9][A-Za-z0-9_.-]{0,62}`

// DevicePattern is an inventory device name, which names the device's
// folder of evidence and reaches shell commands: one path component, no
// leading '.' or '-', no shell metacharacter.
const DevicePattern = `[A-Za-z0-9][A-Za-z0-9._-]*`

// nvueInterfacePattern is an NVUE interface key as NVUE writes it,
// ranges kept compressed ("swp1", "swp1s0", "bond_1", "vlan10-v0",
// "eth1.100", "swp1-16", "swp1-2,32"): CumulusNetworks/docs
// content/cumulus-linux-513/System-Configuration/NVIDIA-User-Experience-NVUE/
// NVUE-Format-Reference.md, "interface-name": every kind of interface
// name starts with a letter and holds letters, digits, '_', '.' and '-';
// ranges add '-' and ','.
const nvueInterfacePattern = `[A-Za-z][A-Za-z0-9_.-]*(,[A-Za-z0-9_.-]+)*`

var (
	netdevRe = regexp.MustCompile(`^` + NetdevPattern + `$`)
	ibdevRe  = regexp.MustCompile(`^` + IBDevPattern + `$`)
	deviceRe = regexp.MustCompile(`^` + DevicePattern + `$`)
	nvueIfRe = regexp.MustCompile(`^` + nvueInterfacePattern + `$`)
	// rangeRe is a digit followed by '-': NVUE reads "swp1-3" and
	// "swp32s0-3" as ranges ("one interface or multiple interfaces
	// (swp1-3, swp5, swp32s0-3)", CumulusNetworks/docs
	// content/cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/
	// RDMA-over-Converged-Ethernet-RoCE.md).
	rangeRe = regexp.MustCompile(`[0-9]-`)
)

// Rules say, for messages, what each kind of name may hold.
const (
	NetdevRule = "a Linux interface name of at most 15 letters, digits, '_', '.' and '-', starting with a letter or digit"
	IBDevRule  = "an RDMA device name of at most 63 letters, digits, '_', '.' and '-', starting with a letter or digit"
	DeviceRule = "use letters, digits, '.', '_' and '-', starting with a letter or digit"
	NVUERule   = "an NVUE interface name holds letters, digits, '_', '.', '-' and ',' and starts with a letter"
	PortRule   = "a single NVUE interface: a Linux interface name that starts with a letter and names no range, so no '-' after a digit"
)

// Netdev reports whether s is a netdev name qoslint may send.
func Netdev(s string) bool { return netdevRe.MatchString(s) }

// IBDev reports whether s is an RDMA device name qoslint may read below
// /sys/class/infiniband.
func IBDev(s string) bool { return ibdevRe.MatchString(s) }

// Device reports whether s is a safe device (and folder) name.
func Device(s string) bool { return deviceRe.MatchString(s) }

// NVUEInterface reports whether key is an interface key qoslint accepts in
// an NVUE configuration and renders into `nv set interface <key>`.
func NVUEInterface(key string) bool {
	return nvueIfRe.MatchString(key)
}

// NVUEPort reports whether s names one interface that qoslint may put in
// `nv show interface <s> ...`: a netdev name (so no shell metacharacter or
// option) that NVUE reads as one interface, not as a range or list, so the
// output is the single-interface view whose layout is published.
func NVUEPort(s string) bool {
	return netdevRe.MatchString(s) && nvueIfRe.MatchString(s) && !rangeRe.MatchString(s)
}
