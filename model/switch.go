package model

import (
	"math"
	"time"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// DefaultProfile is the profile NVUE applies to every port without a binding.
const DefaultProfile = "default-global"

// Switch is what one switch effectively does, whichever switch OS its
// configuration is written for (NVUE's builder: collectors/nvue/nvuemodel).
type Switch struct {
	// groups caches PortGroups and ProfileGroups (port_groups.go).
	groups groupCache
	Name   string
	Role   string
	// OS is the switch operating system the configuration is written for:
	// inventory.OSCumulus (NVUE) or inventory.OSSONiC (config_db.json).
	OS string
	// PortAlias maps each port's alias, as the switch's LLDP advertises
	// it for a port ID, to the port: SONiC's lldpmgrd sets the port ID to
	// the PORT table's alias (sonic-net/sonic-buildimage
	// dockers/docker-lldp/lldpmgrd). Nil where the port ID is the port.
	PortAlias map[string]string
	// ConfigFile is the configuration the model was built from; "" when no
	// configuration could be read, in which case nothing below is Known.
	ConfigFile string
	Version    string
	Syntax     Syntax
	RoCE       RoCE
	// Ports are the ports checked, in natural order: front-panel and split
	// ports and bonds (NVUE's: collectors/nvue/nvuemodel/interfaces.go).
	// Empty when the configuration names none: then only Global is checked.
	Ports []string
	// Bonds maps each bond to its members, sorted.
	Bonds map[string][]string
	// MemberQoS are profile bindings on bond members, which NVUE rejects.
	MemberQoS []MemberBinding
	// PortQoS maps each port to its effective QoS. Ports bound to the same
	// profiles share one *QoS, so checks can report them together.
	PortQoS PortMap[*QoS]
	// Global is what a port with no profile bindings gets.
	Global *QoS
	// ECMP maps each NVUE ecmp-hash field to whether the switch hashes on it.
	ECMP map[string]Value[bool]
	// AR is global adaptive routing (effective: on up to CL 5.12 when a
	// port sets it); PortAR is the per-interface setting where set; ARPorts
	// are the checked ports that route (the ECMP group adaptive routing
	// must cover alike).
	AR      Value[bool]
	PortAR  map[string]Value[bool]
	ARPorts []string
	// ECMPGroup are the ports adaptive routing is judged on: the LLDP
	// links to the next tier when known, else ARPorts (model/uplinks.go).
	ECMPGroup ECMPGroup
	// MTU per port.
	MTU PortMap[Value[int]]
	// Flow is link pause, PFC watchdog, port speed and the platform
	// (model/flowctl.go); Forwarding the hash seed and resilient hashing.
	Flow       FlowControl
	Forwarding Forwarding
	// Pools are the configuration's qos traffic-pool settings (pools.go).
	Pools []TrafficPool
	// Buffers are the per-port priority-group buffers where the switch OS
	// configures them (SONiC's BUFFER_PG, model/buffers.go); nil for NVUE.
	Buffers *SwitchBuffers
	// Trim is packet trimming and the qos remark profiles
	// (model/packet_trim.go); nil when no configuration was read.
	Trim *PacketTrim
	// Oper is `nv show qos roce`; nil when not collected.
	Oper *Operational
	// OperPorts are the checked ports' own operational views, `nv show
	// interface <port> qos roce status` (roce-status/<port>.txt); nil when
	// the folder was not collected. A checked port absent from the map was
	// not collected; one mapped to nil was, but could not be read (its
	// input error is reported).
	OperPorts map[string]*Operational
	// Counters are the QoS counters over gNMI; nil when not collected.
	Counters *SwitchCounters
	// NotCollected names the optional inputs that were missing.
	NotCollected []string
	// Notes are remarks about the configuration (interfaces never checked,
	// settings that do not count); Build moves them to the fabric's Notes.
	Notes []*source.Error
	// Outside are the ports not in the inventory's ports list that a RoCE
	// NIC plugs into (per LLDP), sorted: they have PortQoS and MTU so that
	// the link checks judge them, but they are not Ports, so the switch
	// checks do not report them a second time (model/outside.go).
	Outside []string
	// outside builds their QoS; BuildOutsidePorts drops it once links are
	// known.
	outside ConfigPorts
}

// ConfigPorts is what a switch's builder keeps until the links are known:
// the configuration's interfaces, and the QoS of a port outside the
// inventory's ports list that a RoCE NIC plugs into (model/outside.go).
// Each switch OS's builder reads its own configuration for it.
type ConfigPorts interface {
	// Interfaces are every interface the configuration names, in its order.
	Interfaces() []string
	// AddPort gives an interface outside the checked ports its QoS and MTU
	// on sw, as addOutsidePort says.
	AddPort(sw *Switch, iface string) (port string, problems []*source.Error)
}

// SetConfigPorts keeps the builder BuildOutsidePorts asks; ConfigPorts is
// it, nil once the links are known.
func (sw *Switch) SetConfigPorts(c ConfigPorts) { sw.outside = c }

// SharePortNames lets the per-port maps that name the same ports (most
// often all three: every checked port has an MTU and a QoS, and the
// watchdog is set on them alike) hold one slice of the names.
func (sw *Switch) SharePortNames() {
	ShareNames(&sw.MTU, &sw.PortQoS)
	ShareNames(&sw.Flow.Watchdog, &sw.PortQoS)
}

// ConfigPorts is the builder SetConfigPorts kept, nil once BuildOutsidePorts
// has run.
func (sw *Switch) ConfigPorts() ConfigPorts { return sw.outside }

// HasRoCEModes reports whether the switch OS has NVUE's `qos roce` modes,
// which set PFC, ECN and the maps in one setting; SONiC has no such
// setting, and its RoCE is zero.
func (sw *Switch) HasRoCEModes() bool { return sw.OS != layout.OSSONiC }

// CableLengthPerPort reports whether the switch sizes each port's PFC
// headroom for that port's own cable, as SONiC's CABLE_LENGTH does: its
// templates set it port by port from the neighbour's role ("Port
// configuration to cable length look-up table", sonic-net/sonic-buildimage
// files/build_templates/buffers_config.j2, ports2cable), so ports of one
// switch differ by design. An NVUE switch sizes every port of a PFC
// profile for the profile's one cable length.
func (sw *Switch) CableLengthPerPort() bool { return sw.OS == layout.OSSONiC }

// ConfiguresAR reports whether the switch OS's configuration has adaptive
// routing; SONiC's config_db.json has none, so no ECMP group is judged for
// it and no note says it is unknown.
func (sw *Switch) ConfiguresAR() bool { return sw.OS != layout.OSSONiC }

// RoCE is the switch's `qos roce` state.
type RoCE struct {
	Enabled Value[bool]
	// Mode is lossless, lossless-single-ipool, lossy, lossy-multi-tc or
	// dci-1 (CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-Switch-Ports/
	// Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md).
	Mode Value[string]
}

// Lossless reports whether the RoCE mode turns PFC on (LosslessMode).
func (r RoCE) Lossless() bool { return r.Enabled.V && LosslessMode(r.Mode.V) }

// QoS is the effective classification and queueing of a set of ports.
type QoS struct {
	// Profiles in effect for the mapping, pfc, congestion-control and
	// egress-scheduler features; the origin is the binding.
	MappingProfile, PFCProfile, ECNProfile, SchedProfile Value[string]
	// Trust is l2, l3, both or port.
	Trust Value[string]
	// DSCP maps DSCP → switch priority.
	DSCP DSCPMap
	// PCP maps 802.1p (PCP) → switch priority; it classifies what a port
	// trusting l2 receives.
	PCP [8]Value[int]
	// PFC is per switch priority; PFCRx and PFCTx apply to all of them.
	PFC          [8]Value[bool]
	PFCRx, PFCTx Value[bool]
	// TC maps switch priority → traffic class (egress queue).
	TC [8]Value[int]
	// ECN is per traffic class, with its thresholds in bytes.
	ECN            [8]Value[bool]
	ECNMin, ECNMax [8]Value[int]
	// ECNMode is "absolute" (byte thresholds) or "relative" (dynamic ECN:
	// ECNMinPct/ECNMaxPct of the buffer allowance, byte thresholds ignored).
	ECNMode              [8]Value[string]
	ECNMinPct, ECNMaxPct [8]Value[int]
	// Sched is "strict" or "dwrr" per traffic class; SchedBW the DWRR percent.
	Sched   [8]Value[string]
	SchedBW [8]Value[int]
	// CableLength is the cable length in metres the PFC headroom is sized
	// for; CableFrom names the setting it comes from: "roce" (qos roce
	// cable-length) or a pfc profile (model/flowctl.go).
	CableLength Value[int]
	CableFrom   string
}

// Operational is the switch's own report of its RoCE state: one view
// (`nv show qos roce`, or a port's `nv show interface <port> qos roce
// status`) and what it prints, every row at its line of File.
type Operational struct {
	File         string
	PerInterface bool
	// OperState is shared by the views of one switch that print the same
	// rows at the same lines (its ports', as a rule): read only. At
	// TestLintScale's size, a Value of each row in each of a spine's 32
	// port views was a tenth of the heap while the checks ran.
	*OperState
}

// OperState is what a view prints, each row a value and its line in the
// view's file (OperRow.Value gives it as a Value).
type OperState struct {
	Enabled      OperRow[bool]
	Mode         OperRow[string]
	Trust        OperRow[string]
	PFC          OperRow[[]int]
	PFCRx, PFCTx OperRow[bool]
	// ECNTCs are `enabled-tc`; ECNMin/ECNMax the printed thresholds.
	ECNTCs         OperRow[[]int]
	ECNMin, ECNMax OperRow[ByteSize]
	// DSCPToSP and SPToTC are the two tables, a row per DSCP and per
	// switch priority; nil when the view has no such table. Sched is the
	// scheduler-weight column per switch priority ("strict", or "dwrr"
	// with its percent in SchedBW). Sched and SchedBW are set with SPToTC.
	DSCPToSP *[64]OperRow[int]
	SPToTC   *[8]OperRow[int]
	Sched    *[8]OperRow[string]
	SchedBW  *[8]int
	Pools    []RocePool
	// MappingLine, ETSLine and PoolLine are the lines of the tables'
	// titles, 0 where the view has no such table.
	MappingLine, ETSLine, PoolLine int
}

// MappingPos, ETSPos and PoolPos locate the tables' titles; zero where the
// view has no such table.
func (o *Operational) MappingPos() source.Pos { return o.at(o.MappingLine) }

// ETSPos: see MappingPos.
func (o *Operational) ETSPos() source.Pos { return o.at(o.ETSLine) }

// PoolPos: see MappingPos.
func (o *Operational) PoolPos() source.Pos { return o.at(o.PoolLine) }

func (o *Operational) at(line int) source.Pos {
	if line == 0 {
		return source.Pos{}
	}
	return source.Pos{File: o.File, Line: line}
}

// OperRow is one row of a table of an operational view: its value and
// the line of the view's file it is printed at. Known is false for a row
// the view does not print.
type OperRow[T any] struct {
	V     T
	Line  int
	Known bool
}

// Value is the row as a Value at its line of file (the view's File).
func (r OperRow[T]) Value(file string) Value[T] {
	if !r.Known {
		return Value[T]{}
	}
	return Explicit(r.V, source.Pos{File: file, Line: r.Line})
}

// ByteSize is a byte count as a switch prints it, rounded to the digits
// shown: NVUE prints `146.48 KB` for "150,000 bytes" (CumulusNetworks/docs
// content/cumulus-linux-518/Layer-1-and-Switch-Ports/Quality-of-Service/
// RDMA-over-Converged-Ethernet-RoCE.md), so Tol is half of the last shown
// digit, in bytes.
type ByteSize struct {
	Bytes, Tol float64
}

// Matches reports whether b bytes would print as s.
func (s ByteSize) Matches(b int) bool { return math.Abs(float64(b)-s.Bytes) <= s.Tol+1e-9 }

// RocePool is one row of the switch's RoCE pool table: `roce-reserved-egress
// Dynamic inf - 3`. Size is as printed ("50.0%", "inf"); SPs and TCs are
// nil where the row names none.
type RocePool struct {
	Name, Mode, Size string
	SPs, TCs         []int
	Line             int
}

// ECMPFields are NVUE's ecmp-hash fields and their defaults. The user guide
// table, `nv show system forwarding` and the 5.5.1 applied dump agree that
// the first six are on (CumulusNetworks/docs content/cumulus-linux-515/Layer-3/
// Routing/Equal-Cost-Multipath-Load-Sharing.md).
var ECMPFields = []struct {
	Name string
	On   bool
}{
	{"source-ip", true}, {"destination-ip", true}, {"source-port", true},
	{"destination-port", true}, {"ip-protocol", true}, {"ipv6-label", true},
	{"ingress-interface", false}, {"gtp-teid", false}, {"inner-ip-protocol", false},
	{"inner-source-ip", false}, {"inner-destination-ip", false}, {"inner-source-port", false},
	{"inner-destination-port", false}, {"inner-ipv6-label", false},
}

// SONiCHashFields maps the hash fields of SONiC's SWITCH_HASH|GLOBAL
// ecmp_hash (sonic-net/sonic-buildimage src/sonic-yang-models/yang-models/
// sonic-hash.yang) to the model's ECMPFields names (NVUE's ecmp-hash
// fields); the MAC, VLAN and ethertype fields have no counterpart there.
var SONiCHashFields = map[string]string{
	"SRC_IP": "source-ip", "DST_IP": "destination-ip", "L4_SRC_PORT": "source-port",
	"L4_DST_PORT": "destination-port", "IP_PROTOCOL": "ip-protocol", "IPV6_FLOW_LABEL": "ipv6-label",
	"IN_PORT": "ingress-interface", "INNER_IP_PROTOCOL": "inner-ip-protocol",
	"INNER_SRC_IP": "inner-source-ip", "INNER_DST_IP": "inner-destination-ip",
	"INNER_L4_SRC_PORT": "inner-source-port", "INNER_L4_DST_PORT": "inner-destination-port",
}

// SwitchCounters are a switch's per-port counters from gNMI
// (devices/<switch>/gnmi-counters.json): pause frames per switch priority,
// ECN marks and no-buffer drops per egress queue. They are cumulative or,
// when Delta is set, their growth during the Interval between two samples.
type SwitchCounters struct {
	File     string
	Delta    bool
	Interval time.Duration
	Ports    map[string]*SwitchPortCounters
	// TransmitSeen, with Delta, is that the earlier sample counted some
	// queue's transmit-pkts above 0: the switch reports the leaf, so a
	// Transmit of 0 is no traffic rather than a leaf it does not send.
	TransmitSeen bool
}

// SwitchPortCounters are one switch port's counters.
type SwitchPortCounters struct {
	Prio [8]PrioCounters
	// ECNMarked and Drops are per traffic class (egress queue).
	ECNMarked, Drops [8]Value[uint64]
	// Transmit is each egress queue's transmit-pkts ("Number of
	// transmitted packets in the egress queue of an interface",
	// CumulusNetworks/docs content/cumulus-linux-516/
	// Monitoring-and-Troubleshooting/gNMI Streaming.md, QoS metrics):
	// whether traffic passed at all, which tells an idle interval from a
	// clean one.
	Transmit [8]Value[uint64]
}
