package model

import (
	"fmt"

	"github.com/qoslint/qoslint/internal/source"
)

// InfiniBand QoS semantics. The application picks a Service Level
// (NCCL_IB_SL), every port's SL2VL table maps it to a virtual lane, and VL
// arbitration gives that lane its share (linux-rdma/opensm
// doc/QoS_management_in_OpenSM.txt §7; IBA 7.6.6, 7.6.9).

// VLDrop is the VL an SL2VL entry uses to drop the SL's packets.
const VLDrop = 15

// IBFabric is the InfiniBand side of a fabric.
type IBFabric struct {
	// Hosts are the hosts with InfiniBand data, in inventory order.
	Hosts []*IBHost
	// SM is the subnet manager's intended configuration (opensm.conf);
	// nil when no host's opensm.conf was collected.
	SM *SMIntent
	// Switches are the switches read by LID from a host
	// (ibswitches.txt), sorted by LID; a switch listed by two hosts is
	// kept once, from the first.
	Switches []*IBSwitch
}

// IBHost is one host's InfiniBand ports and the SL its jobs use.
type IBHost struct {
	Name  string
	Ports []*IBPort
	// SL is NCCL_IB_SL from the strongest NCCL layer (as NCCL_IB_TC,
	// collectors/hostfiles/hostmodel/host_nccl.go); SLLayer names the
	// layer. Not Known when the layers that could set it were not
	// collected.
	SL      Value[int]
	SLLayer string
	// Apps are the SLs of the host's other applications (collectors/ibfiles/ibmodel/ib_apps.go).
	Apps []IBAppSL
}

// IBPort is what one HCA port holds. A table not collected is nil.
type IBPort struct {
	CA   string
	Port int
	LID  int
	Pos  source.Pos // its ibstat line
	// SL2VL[sl] is the VL of SL sl; SL2VLPos its row.
	SL2VL    *[16]int
	SL2VLPos source.Pos
	// VLArb is the port's arbitration tables; nil when not collected.
	VLArb    *VLArb
	VLArbPos source.Pos
	// OperVLs is the number of data VLs the port runs (0: not known);
	// HighLimit its VLHighLimit (-1: not known).
	OperVLs      int
	OperVLsPos   source.Pos
	HighLimit    int
	HighLimitPos source.Pos
}

// VLArb is a port's VL arbitration tables as smpquery vlarb prints them
// (IBA vol. 1 §7.6.9): the low- and high-priority tables, each of Cap
// entries the port supports.
type VLArb struct {
	File            string
	LowCap, HighCap int
	Low, High       []VLArbEntry
	Line            int // the header line
}

// VLArbEntry is one VL arbitration table entry: a VL and its weight.
type VLArbEntry struct{ VL, Weight int }

// The OpenSM port classes a QoS option names: qos_ca_ for the HCAs,
// qos_sw0_ for an enhanced switch port 0, qos_swe_ for the switch
// external ports (opensm/osm_qos.c osm_qos_setup).
const (
	SMClassCA  = "ca"
	SMClassSW0 = "sw0"
	SMClassSWE = "swe"
)

// Name is "mlx5_0/1".
func (p *IBPort) Name() string { return fmt.Sprintf("%s/%d", p.CA, p.Port) }

// SMIntent is what OpenSM programs, per port class, when qos is TRUE.
type SMIntent struct {
	Device string
	File   string
	// QoS is the qos option; when false OpenSM programs no SL2VL or VL
	// arbitration table at all (opensm/osm_qos.c osm_qos_setup returns
	// first), so the ports keep what they hold.
	QoS    Value[bool]
	Config map[string]*SMClassConfig
	Keys   map[int]string // line → option name
	// RoutingEngine is opensm.conf's routing_engine, the engines in the
	// order OpenSM tries them; Known false when the file does not set it
	// (Min Hop in linux-rdma/opensm, but NVIDIA's OpenSM defaults to
	// ar_updn: docs.nvidia.com/networking/display/
	// ibclusterbringupprocedure/adaptive+routing).
	RoutingEngine Value[[]string]
	// Policy is the QoS policy file.
	Policy SMPolicy
}

// SMClassConfig is one class's effective QoS parameters, after OpenSM's
// fall-back: the class's qos_<class>_ line, else the qos_ line, else the
// compiled-in default (opensm/osm_qos.c qos_build_config,
// include/opensm/osm_base.h OSM_DEFAULT_QOS_*).
type SMClassConfig struct {
	MaxVLs    Value[int]
	HighLimit Value[int]
	// VLArbHigh and VLArbLow hold 64 entries: OpenSM reads two blocks of
	// 32 and an entry past the end of the option's list is VL 0 weight 0.
	VLArbHigh, VLArbLow Value[[]VLArbEntry]
	SL2VL               Value[[16]int]
	// Key names the opensm.conf option prefix that applies ("qos_ca").
	Key string
}

// VLMask is the mask OpenSM applies to every VL it programs on a port
// running n data VLs (opensm/osm_qos.c sl2vl_update_table, vlarb_update:
// (1 << (OperVLs - 1)) - 1 over PortInfo's encoded OperVLs); VL 15 in
// SL2VL is kept. ok is false when n is not an OperVLs value.
func VLMask(n int) (mask int, ok bool) {
	m, ok := map[int]int{1: 0, 2: 1, 4: 3, 8: 7, 15: 15}[n]
	return m, ok
}
