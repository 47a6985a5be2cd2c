package checks

import "github.com/qoslint/qoslint/internal/layout"

// Input names one kind of device file a check reads (`qoslint help
// fabric`). A check declares its inputs so that `qoslint explain` can say
// what to collect for it, and so that TestCatalog can hold every name to
// this list.
type Input string

const (
	NVConfig Input = "nv-config"
	// ConfigDB is a SONiC switch's configuration. A switch check that
	// judges SONiC switches declares it beside NVConfig; one that reads
	// NVConfig alone judges Cumulus switches only (inputsAbsent).
	ConfigDB      Input = "config_db"
	NVShowQoSRoCE Input = "nv-show-qos-roce"
	// NVShowPacketTrim and NVShowQoSRemark are the packet trimming views.
	NVShowPacketTrim Input = "nv-show-packet-trim"
	NVShowQoSRemark  Input = "nv-show-qos-remark"
	// RoCEStatus is each checked port's `nv show interface <port> qos roce
	// status`.
	RoCEStatus   Input = "nv-show-roce-status"
	GNMICounters Input = "gnmi-counters"
	MlnxQoS      Input = "mlnx_qos"
	SysfsECN     Input = "sysfs-ecn"
	SysfsTC      Input = "sysfs-tc"
	NCCL         Input = "nccl"
	IPLink       Input = "ip-link"
	IBDev2Netdev Input = "ibdev2netdev"
	Ethtool      Input = "ethtool"
	HWCounters   Input = "hw_counters"
	GIDTypes     Input = "gid-types"
	RDMACMMode   Input = "rdma_cm-roce-mode"
	RDMACMToS    Input = "rdma_cm-roce-tos"
	UCXConf      Input = "ucx.conf"
	LLDP         Input = "lldp"
	Topology     Input = "topology"
	Captures     Input = "captures"
	Lspci        Input = "lspci"
	CPUInfo      Input = "cpuinfo"
	MlxconfigQ   Input = "mlxconfig"
	K8sManifests Input = "k8s"
)

// InputDoc is one input: its name and the files that hold it.
type InputDoc struct {
	Name  Input
	Files string
}

// Inputs are the known inputs, switch ones first.
var Inputs = []InputDoc{
	{NVConfig, layout.NVUEYAMLFile + " or " + layout.NVUECommandsFile + " (nv config show)"},
	{ConfigDB, layout.ConfigDBFile + " (sonic-cfggen -d --print-data), SONiC switches"},
	{NVShowQoSRoCE, layout.RoceShowFile + " (nv show qos roce)"},
	{NVShowPacketTrim, layout.PacketTrimShowFile + " (nv show system forwarding packet-trim), where the switch trims packets"},
	{NVShowQoSRemark, layout.RemarkShowFile + " (nv show qos remark), where the switch trims packets"},
	{RoCEStatus, layout.RoceStatusFile("<port>") + " (nv show interface <port> qos roce status), one per checked port, optional"},
	{GNMICounters, layout.GNMIFile + " (and " + layout.GNMIBeforeFile + ")"},
	{MlnxQoS, layout.MlnxQosFile("<netdev>") + " (mlnx_qos -i <netdev>)"},
	{SysfsECN, "sysfs/class/net/<netdev>/ecn/..."},
	{SysfsTC, "sysfs/class/infiniband/<ibdev>/tc/<port>/traffic_class"},
	{NCCL, layout.NCCLConfFile + ", " + layout.HomeNCCLConfFile + ", " + layout.NCCLEnvFile + " (the job environment: env or /proc/<pid>/environ)"},
	{IPLink, layout.IPLinkFile + " (ip -j link show)"},
	{IBDev2Netdev, layout.IBDev2NetdevFile},
	{Ethtool, layout.EthtoolFile("<netdev>") + " (and " + layout.EthtoolBeforeFile("<netdev>") + ")"},
	{HWCounters, "sysfs/class/infiniband/<ibdev>/ports/<port>/hw_counters/*"},
	{GIDTypes, "sysfs/class/infiniband/<ibdev>/ports/<port>/gid_attrs/types/<index> (index 0-15)"},
	{UCXConf, layout.UCXConfFile + " (" + layout.UCXConfPath + "), optional"},
	{RDMACMToS, "sysfs/kernel/config/rdma_cm/<ibdev>/ports/<port>/default_roce_tos (configfs), optional"},
	{RDMACMMode, "sysfs/kernel/config/rdma_cm/<ibdev>/ports/<port>/default_roce_mode (configfs), optional"},
	{LLDP, layout.LLDPFile + " (lldpcli -f json0 show neighbors details), switches and hosts"},
	{Captures, layout.CapturesDir + "/*.pcap and *.pcapng (tcpdump on a RoCE netdev, or a switch's ERSPAN/GRE mirror), optional"},
	{Lspci, layout.LspciFile + " (lspci -vvv, as root)"},
	{CPUInfo, layout.CPUInfoFile + " (" + layout.CPUInfoPath + ", its hypervisor flag)"},
	{MlxconfigQ, layout.MlxConfigFile("<ibdev>") + " (mlxconfig -d <ibdev> q)"},
	{Topology, layout.TopologyFile + " at the fabric root (the cabling plan, Cumulus PTM format), optional"},
	{IBStat, layout.IBStatFile + " (ibstat), InfiniBand hosts"},
	{SMPQuery, layout.SMPQueryFile("sl2vl|vlarb|portinfo", "<ca>", 1) + " (smpquery -C <ca> -P <port> -D <op> 0), InfiniBand hosts"},
	{K8sManifests, "k8s/*.yaml at the fabric root, or lint --k8s DIR (Kubernetes manifests), optional"},
	{OpenSM, layout.OpenSMConfFile + " (" + layout.OpenSMConfPath + "), the subnet manager's host"},
	{QoSPolicy, layout.QoSPolicyFile + " (the file opensm.conf's qos_policy_file names, default " + layout.QoSPolicyPath + "), the subnet manager's host, optional"},
}

// inputKnown reports whether in is one of Inputs.
func inputKnown(in Input) bool {
	for _, d := range Inputs {
		if d.Name == in {
			return true
		}
	}
	return false
}

// IB inputs.
const (
	IBStat   Input = "ibstat"
	SMPQuery Input = "smpquery"
	OpenSM   Input = "opensm.conf"
	// QoSPolicy is OpenSM's QoS policy file.
	QoSPolicy Input = "qos-policy.conf"
)
