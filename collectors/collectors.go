// Package collectors holds what every collector produces: the parsed, still
// device-literal capture of a fabric. The offline collector reads it from a
// fabric directory; the live collectors will fill the same types over SSH and
// gNMI, so that a live audit and an offline lint of its capture agree.
package collectors

import (
	"time"

	"github.com/qoslint/qoslint/collectors/gnmifile"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/collectors/ibfiles"
	"github.com/qoslint/qoslint/collectors/k8s"
	"github.com/qoslint/qoslint/collectors/lldp"
	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/collectors/sonic/configdb"
	"github.com/qoslint/qoslint/collectors/topology"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// Capture is everything collected from one fabric.
type Capture struct {
	Switches []*SwitchCapture
	Hosts    []*HostCapture
	// Errors are input problems (malformed or unreadable files). Each names
	// its file and line; the devices they belong to are still checked with
	// whatever else could be read.
	Errors []*source.Error
	// Notes are remarks about the input that are not errors: lines of a
	// capture that hold no configuration, interfaces never checked. Each
	// names its device and, where there is one, its file and line.
	Notes []*source.Error
	// Topology is the cabling plan (topology.dot); nil when the fabric has
	// none.
	Topology *topology.Topology
	// Wire are the packet captures of devices/<device>/captures, reduced
	// to their RoCEv2 flows, in device then file order. They are the
	// model's already (wiremodel.Capture as each file is read): the
	// reader's summary holds dense per-flow histograms, fourteen times the
	// model's flow, and a fabric holds a capture per host.
	Wire []*model.WireCapture
	// K8s are the Kubernetes manifests (the k8s/ folder, or lint --k8s
	// DIR); nil when there are none.
	K8s *k8s.Manifests
	// IBDiagnet is what the fabric-wide ibdiagnet/ folder says about each
	// InfiniBand port; nil when the folder is absent or unreadable.
	IBDiagnet *ibfiles.DiagnetQoS
	// Read are files of the fabric directory that were read, in the order
	// they were read: a report points a device's results that name no file
	// of their own at one of them, a file that certainly exists. Of a
	// device's folder it lists only the first file read and the
	// configuration files (nv-config.yaml, nv-config-commands.txt,
	// config_db.json) at its top, which is all a report picks from;
	// every other file read outside a device's folder is listed. It says how the capture was
	// read (a collected folder also holds its manifest), not what the
	// devices said, so it is no part of a capture's JSON.
	Read []string `json:"-"`
}

// SwitchCapture is what was read from one NVUE switch.
type SwitchCapture struct {
	Name string
	// OS is the switch operating system its files were read as:
	// inventory.OSCumulus (Config and the nv show views) or
	// inventory.OSSONiC (ConfigDB).
	OS string
	// ConfigDB is a SONiC switch's config_db.json; nil when it could not
	// be read, or for a Cumulus switch.
	ConfigDB *configdb.Config
	// Config is the NVUE configuration, from nv-config.yaml or
	// nv-config-commands.txt (both parse to the same tree). Nil when neither
	// could be read.
	Config *nvue.Config
	// RoceShow is `nv show qos roce`, the operational view; nil when not
	// collected.
	RoceShow *nvue.RoceShow
	// PacketTrimShow is `nv show system forwarding packet-trim` and
	// RemarkShow `nv show qos remark`; each nil when not collected or
	// unreadable (the model says so where packet trimming is on).
	PacketTrimShow *nvue.PacketTrimShow
	RemarkShow     *nvue.RemarkShow
	// RoceStatus maps each port to its `nv show interface <port> qos roce
	// status` (roce-status/<port>.txt); nil when the folder was not
	// collected. A port whose file could not be read or parsed maps to nil:
	// its input error is in Capture.Errors.
	RoceStatus map[string]*nvue.RoceShow
	// Counters are the switch's QoS counters over gNMI
	// (gnmi-counters.json); nil when not collected.
	Counters *gnmifile.Counters
	// CountersBefore is an earlier sample (gnmi-counters.before.json),
	// CountersInterval apart; nil when only one sample was taken.
	CountersBefore   *gnmifile.Counters
	CountersInterval time.Duration
	// LLDP is what lldpd saw on the switch's ports (lldp.json); nil when
	// not collected or unreadable.
	LLDP *lldp.Neighbors
	// Missing lists the optional files that were not collected.
	Missing []string
}

// HostCapture is what was read from one GPU server.
type HostCapture struct {
	Name string
	// NICs are the RoCE netdevs to check, in name order.
	NICs []*NICCapture
	// IBDevs is ibdev2netdev; nil when not collected.
	IBDevs []hostfiles.IBDev
	// NCCL is nccl.conf (/etc/nccl.conf); nil when not collected.
	NCCL *hostfiles.NCCLConf
	// NCCLHome is home-nccl.conf (~/.nccl.conf); nil when not collected.
	NCCLHome *hostfiles.NCCLConf
	// NCCLEnv is nccl-env.txt, the job's environment as the operator
	// captured it; nil when not collected (live audits never collect it).
	NCCLEnv *hostfiles.NCCLEnv
	// UCX is ucx.conf (/etc/ucx/ucx.conf); nil when not collected.
	UCX *hostfiles.UCXConf
	// Links is `ip -j link show`; nil when not collected.
	Links []hostfiles.Link
	// LinksFile names where Links came from, for evidence.
	LinksFile string
	// CountersInterval is how far apart the two counter samples of the
	// NICs were (counters-interval.txt); 0 with a single sample.
	CountersInterval time.Duration
	// LLDP is what lldpd saw on the host's ports (lldp.json); nil when
	// not collected or unreadable.
	LLDP *lldp.Neighbors
	// PCI is `lspci -vvv` (lspci.txt), PCIFile where it came from; nil
	// when not collected or unreadable.
	PCI     []*hostfiles.PCIDevice
	PCIFile string
	// CPUInfo is /proc/cpuinfo (cpuinfo.txt); nil when not collected.
	CPUInfo *hostfiles.CPUInfo
	// IB is the host's InfiniBand side; nil on an Ethernet fabric.
	IB      *IBCapture
	Missing []string
}

// NICCapture is one RoCE netdev of a host.
type NICCapture struct {
	Netdev string
	IBDev  string // "" when ibdev2netdev did not name one
	Port   int
	// Qos is `mlnx_qos -i <netdev>`; nil when not collected or unreadable.
	Qos *hostfiles.MlnxQos
	// QosUnreadable is true when the file was collected but could not be
	// parsed (the error is in Capture.Errors).
	QosUnreadable bool
	Sysfs         *hostfiles.Sysfs
	// Ethtool is `ethtool -S <netdev>`, runtime evidence rather than
	// configuration; nil when not collected or unreadable.
	Ethtool *hostfiles.EthtoolStats
	// EthtoolBefore is an earlier sample (ethtool-S-<netdev>.before.txt),
	// taken the host's CountersInterval before Ethtool; nil when none.
	EthtoolBefore *hostfiles.EthtoolStats
	// HWCounters are the RDMA hw_counters of the NIC's RDMA port
	// (sysfs/class/infiniband/<ibdev>/ports/<port>/hw_counters), runtime
	// evidence too; nil when not collected. HWCountersBefore is the
	// earlier sample below sysfs.before/, nil when none.
	HWCounters, HWCountersBefore *hostfiles.HWCounters
	// Firmware is `mlxconfig -d <ibdev> q` (mlxconfig-<ibdev>.txt); nil
	// when not collected, unreadable, or the NIC has no ibdev.
	Firmware *hostfiles.MlxConfig
	// GIDTypes are the RoCE types of the RDMA port's GID table
	// (sysfs/class/infiniband/<ibdev>/ports/<port>/gid_attrs/types/<index>);
	// RoCEMode is RDMA-CM's default_roce_mode of the port
	// (sysfs/kernel/config/rdma_cm/<ibdev>/ports/<port>/default_roce_mode).
	// Each nil when not collected.
	GIDTypes *hostfiles.GIDTypes
	RoCEMode *hostfiles.RoCEType
	// RoCEToS is RDMA-CM's default_roce_tos of the port, in the same
	// configfs group; nil when not collected.
	RoCEToS *hostfiles.RoCEToS
}
