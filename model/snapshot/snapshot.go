// Package snapshot freezes the effective fabric model (package model) into a
// versioned, deterministic JSON document, schema "qoslint.snapshot/v1".
// Two snapshots are compared in QoS terms by checks/drift, whose reports
// render/driftfmt writes; the schema of those reports ships here too, beside
// the snapshot schema it refers to. This package depends on the model only,
// never on checks or render.
//
// A snapshot keeps what each device effectively does for RoCE, not its
// configuration text: NVUE and RoCE defaults, profiles and bindings, NIC
// defaults and the ToS precedence are already applied. Every value keeps
// its origin ("devices/leaf01/nv-config.yaml:34", or the text of the default
// that applied), so a drift report can show the evidence on both sides.
//
// Layout rules (schema/snapshot.schema.json is the contract):
//   - a value is {"value": V, "origin": "..."}; "value" is absent when the
//     input it depends on was not collected (the model's Known = false);
//   - switches and hosts are sorted by name, NICs by netdev, port groups by
//     their first port; port groups are the checks' portGroups (ports that
//     share one effective QoS), ports in NVUE range form ("swp1-16,swp20");
//   - a DSCP map is kept whole ("map": 64 priorities, index = DSCP, null =
//     not known) plus, for people, "non_default" (the entries that differ
//     from the DSCP>>3 default that Cumulus and ConnectX share) and
//     "origins" (the evidence of every entry, DSCPs grouped by origin);
//   - MTU and per-port adaptive routing are per port, grouped by value and
//     origin;
//   - "topology" is the cabling LLDP reported (links sorted by their first
//     end); it was added within v1, so a snapshot without it was taken by a
//     qoslint that did not record links, which Read keeps as nil;
//   - other fields added within v1 belong to an optional section
//     (sections.go), which "sections" lists: a snapshot without a section
//     does not know its values (they read as nil), so the drift compares
//     them only when both sides carry the section;
//   - no timestamps, no absolute paths: evidence paths are relative to the
//     fabric directory, so two snapshots of one input are byte-identical.
//
// Fields are only added within a version; a rename or removal bumps it.
package snapshot

import (
	"cmp"

	"github.com/qoslint/qoslint/internal/policy"
)

// Version is the schema id every snapshot carries in its "schema" field.
const Version = "qoslint.snapshot/v1"

// Snapshot is the effective model of one fabric.
type Snapshot struct {
	Schema   string   `json:"schema"`
	Fabric   string   `json:"fabric"`
	Policy   Policy   `json:"policy"`
	Switches []Switch `json:"switches"`
	Hosts    []Host   `json:"hosts"`
	// InputErrors are the input problems met while the model was built (a
	// malformed device file, an undefined profile): the values they touch
	// are not known.
	InputErrors []InputError `json:"input_errors"`
	// Topology is the cabling LLDP reported; nil in a snapshot written
	// before links were recorded (the field is absent there).
	Topology *Topology `json:"topology,omitempty"`
	// Sections are the optional sections (Section*) the snapshot carries,
	// sorted; a section added within v1 is absent from snapshots written
	// before it, whose values in it are then unknown, not unset.
	Sections []string `json:"sections,omitempty"`
}

// Topology is the fabric's cabling between inventory devices.
type Topology struct {
	// LLDP are the devices whose lldp.json was read, sorted: a device not
	// listed may have links nobody reported.
	LLDP  []string `json:"lldp"`
	Links []Link   `json:"links"`
}

// Link is one cable LLDP reported (model.Link), A before B.
type Link struct {
	A LinkEnd `json:"a"`
	B LinkEnd `json:"b"`
	// OneSided: only one end's LLDP reported it.
	OneSided bool `json:"one_sided"`
}

// LinkEnd is one end of a link with the MTU link-mtu judges there.
type LinkEnd struct {
	Device string `json:"device"`
	Kind   string `json:"kind"`
	// Port is the interface as the device names it (a bond member).
	Port string `json:"port"`
	// SwitchPort is the checked switch port the interface belongs to (the
	// bond of a member); "" on a host, or where the port is not checked.
	SwitchPort string `json:"switch_port"`
	// Seen is this end's lldp.json entry naming the other end; "" when
	// this end did not report the link.
	Seen string `json:"seen"`
	// MTU has no value where the end is neither a checked switch port nor
	// a RoCE NIC, or its MTU was not collected.
	MTU Fact[int] `json:"mtu"`
}

// Fact is one effective value with its origin. Known is false when the
// input it depends on was not collected; then Value is the zero value and
// is not written.
type Fact[T any] struct {
	Value  T
	Known  bool
	Origin string
}

// Policy is the fabric's intent (policy.Policy without positions).
type Policy struct {
	Preset string     `json:"preset"`
	RoCE   RoCEPolicy `json:"roce"`
	CNP    CNPPolicy  `json:"cnp"`
	Trust  string     `json:"trust"`
	MTU    MTUPolicy  `json:"mtu"`
	ECMP   ECMPPolicy `json:"ecmp"`
	// PFC is absent from snapshots taken before it existed; those read back
	// as the default policy's.
	PFC *PFCPolicy `json:"pfc,omitempty"`
}

// PFCPolicy is what lossless ports must be sized for.
type PFCPolicy struct {
	CableLength int `json:"cable_length"`
}

// RoCEPolicy is the RoCE data traffic's marking.
type RoCEPolicy struct {
	DSCP         []int  `json:"dscp"`
	Priority     int    `json:"priority"`
	TrafficClass int    `json:"traffic_class"`
	Mode         string `json:"mode"`
	// MinBandwidth is absent from snapshots taken before it existed; those
	// read back as the default 50.
	MinBandwidth int `json:"min_bandwidth,omitempty"`
	// HostTSA is roce.host_tsa; absent from snapshots taken before it
	// existed, which read as its default "ets".
	HostTSA string `json:"host_tsa,omitempty"`
}

// CNPPolicy is the CNPs' marking.
type CNPPolicy struct {
	DSCP     int `json:"dscp"`
	Priority int `json:"priority"`
}

// MTUPolicy holds the minimum MTUs.
type MTUPolicy struct {
	Host   int `json:"host"`
	Switch int `json:"switch"`
}

// ECMPPolicy is what the switches must hash on.
type ECMPPolicy struct {
	HashFields      []string `json:"hash_fields"`
	AdaptiveRouting bool     `json:"adaptive_routing"`
}

// Switch is what one NVUE switch effectively does.
type Switch struct {
	Name string `json:"name"`
	Role string `json:"role"`
	// ConfigFile is the configuration the model was built from; "" when none
	// could be read, and then nothing below it is known.
	ConfigFile string `json:"config_file"`
	Version    string `json:"version"`
	// OS is the switch OS when it is not Cumulus Linux: "sonic"; omitted
	// for Cumulus (and in snapshots older than it).
	OS string `json:"os,omitempty"`
	// Syntax is the NVUE vocabulary, "5.14" (enable on) or "5.15" (state
	// enabled).
	Syntax     string      `json:"syntax"`
	RoCE       RoCE        `json:"roce"`
	PortGroups []PortGroup `json:"port_groups"`
	// ECMPHash is every NVUE ecmp-hash field and whether the switch hashes
	// on it.
	ECMPHash            map[string]Fact[bool] `json:"ecmp_hash"`
	AdaptiveRouting     Fact[bool]            `json:"adaptive_routing"`
	PortAdaptiveRouting []PortValue[bool]     `json:"port_adaptive_routing"`
	MTU                 []PortValue[int]      `json:"mtu"`
	NotCollected        []string              `json:"not_collected"`
	// Flow is the flow control beside PFC (section flow_control); nil when
	// the configuration was not read or the snapshot predates it.
	Flow *Flow `json:"flow_control,omitempty"`
	// HashSeed is `system forwarding hash-seed` (section forwarding); a
	// fact without value is a switch that sets none (switchd picks a random
	// seed).
	HashSeed *Fact[int64] `json:"hash_seed,omitempty"`
	// TrafficPools are the configuration's qos traffic-pool settings,
	// sorted by name (section traffic_pools).
	TrafficPools []TrafficPool `json:"traffic_pools,omitempty"`
}

// RoCE is the switch's `qos roce` state.
type RoCE struct {
	Enabled Fact[bool]   `json:"enabled"`
	Mode    Fact[string] `json:"mode"`
}

// PortValue is a per-port value for the ports (NVUE range form) that share
// it and its origin.
type PortValue[T any] struct {
	Ports  string `json:"ports"`
	Value  T      `json:"value"`
	Origin string `json:"origin"`
}

// PortGroup is the effective QoS of a set of ports.
type PortGroup struct {
	// Ports in NVUE range form; "" for a switch whose configuration names
	// no port (the group is then what any port would get).
	Ports    string       `json:"ports"`
	Profiles Profiles     `json:"profiles"`
	Trust    Fact[string] `json:"trust"`
	DSCP     DSCPMap      `json:"dscp_map"`
	// PFC is the switch priorities with PFC on.
	PFC   Fact[[]int] `json:"pfc"`
	PFCRx Fact[bool]  `json:"pfc_rx"`
	PFCTx Fact[bool]  `json:"pfc_tx"`
	// SPToTC is the egress queue of each switch priority (index).
	SPToTC []Fact[int] `json:"sp_to_tc"`
	// TrafficClasses are the 8 egress queues, index = traffic class.
	TrafficClasses []TrafficClass `json:"traffic_classes"`
	// CableLength is the cable length, in metres, the group's PFC headroom
	// is sized for (section flow_control).
	CableLength *Fact[int] `json:"cable_length,omitempty"`
	// PCP is the switch priority of each 802.1p value (index), section
	// pcp_map.
	PCP []Fact[int] `json:"pcp_map,omitempty"`
}

// Profiles are the QoS profiles in effect per feature.
type Profiles struct {
	Mapping           Fact[string] `json:"mapping"`
	PFC               Fact[string] `json:"pfc"`
	CongestionControl Fact[string] `json:"congestion_control"`
	EgressScheduler   Fact[string] `json:"egress_scheduler"`
}

// TrafficClass is one egress queue: ECN marking with its thresholds in
// bytes, and its scheduler.
type TrafficClass struct {
	TC        int          `json:"tc"`
	ECN       Fact[bool]   `json:"ecn"`
	ECNMin    Fact[int]    `json:"ecn_min_threshold"`
	ECNMax    Fact[int]    `json:"ecn_max_threshold"`
	Scheduler Fact[string] `json:"scheduler"`
	BWPercent Fact[int]    `json:"bw_percent"`
}

// DSCPMap is a DSCP → priority table.
type DSCPMap struct {
	// Map holds the priority of each DSCP (index); nil = not known.
	Map []*int `json:"map"`
	// NonDefault lists the entries whose priority differs from DSCP>>3.
	NonDefault []DSCPEntry `json:"non_default"`
	// Origins give the evidence of every entry, DSCPs grouped by origin.
	Origins []DSCPOrigin `json:"origins"`
}

// DSCPEntry is one DSCP → priority entry with its origin.
type DSCPEntry struct {
	DSCP     int    `json:"dscp"`
	Priority int    `json:"priority"`
	Origin   string `json:"origin"`
}

// DSCPOrigin is the origin of a set of DSCPs ("0-25,27-63").
type DSCPOrigin struct {
	DSCP   string `json:"dscp"`
	Origin string `json:"origin"`
}

// Host is what one GPU server effectively does.
type Host struct {
	Name string `json:"name"`
	// NCCLFile is the nccl.conf read; "" when not collected.
	NCCLFile string `json:"nccl_file"`
	// NCCLIBTC is NCCL_IB_TC (-1 when nccl.conf does not set it).
	NCCLIBTC Fact[int] `json:"nccl_ib_tc"`
	// NCCLIBSL is NCCL_IB_SL as NCCL reads it (0 when unset); not known in
	// snapshots taken before it was recorded.
	NCCLIBSL     Fact[int] `json:"nccl_ib_sl"`
	NICs         []NIC     `json:"nics"`
	NotCollected []string  `json:"not_collected"`
	// NCCLGIDIndex is NCCL_IB_GID_INDEX as NCCL reads it (-1: NCCL
	// chooses), NCCLRoCEVersion NCCL_IB_ROCE_VERSION_NUM (section
	// roce_version).
	NCCLGIDIndex    *Fact[int] `json:"nccl_ib_gid_index,omitempty"`
	NCCLRoCEVersion *Fact[int] `json:"nccl_ib_roce_version_num,omitempty"`
	// Applications is what host-nccl-qps and host-app-tos read (section
	// applications).
	Applications *Applications `json:"applications,omitempty"`
}

// NIC is one RoCE netdev.
type NIC struct {
	Netdev string `json:"netdev"`
	IBDev  string `json:"ibdev"`
	Port   int    `json:"port"`
	// QosFile is the mlnx_qos output read; "" when not collected.
	QosFile string `json:"qos_file"`
	// QosUnreadable: mlnx_qos was collected but could not be read.
	QosUnreadable bool         `json:"qos_unreadable"`
	Trust         Fact[string] `json:"trust"`
	DSCP          DSCPMap      `json:"dscp_map"`
	// PFC is the priorities with PFC on.
	PFC Fact[[]int] `json:"pfc"`
	// PrioTC is the traffic class of each priority (index), -1 where
	// mlnx_qos lists none.
	PrioTC Fact[[]int] `json:"prio_to_tc"`
	// TSA is each traffic class's (index) transmission algorithm as
	// mlnx_qos prints it, TCBW its ETS share; only the classes mlnx_qos
	// printed are Known. Absent from snapshots taken before they existed.
	TSA  []Fact[string] `json:"tsa,omitempty"`
	TCBW []int          `json:"tc_bw,omitempty"`
	// ECNNP and ECNRP are the DCQCN notification and reaction point
	// switches per priority (index).
	ECNNP   []Fact[bool] `json:"ecn_np"`
	ECNRP   []Fact[bool] `json:"ecn_rp"`
	CNPDSCP Fact[int]    `json:"cnp_dscp"`
	CNPPrio Fact[int]    `json:"cnp_802p_prio"`
	MTU     Fact[int]    `json:"mtu"`
	ToS     ToS          `json:"tos"`
	// RoCEVersion is what decides the RoCE version the port sends (section
	// roce_version); nil on a NIC without an RDMA port.
	RoCEVersion *RoCEVersion `json:"roce_version,omitempty"`
	// Firmware is the judged part of mlxconfig's output (section
	// firmware); nil when it was not collected.
	Firmware *Firmware `json:"firmware,omitempty"`
	// RDMACMToS is RDMA-CM's default_roce_tos of the port (section
	// applications); without value when its configfs group was not
	// collected.
	RDMACMToS *Fact[int] `json:"rdma_cm_default_roce_tos,omitempty"`
}

// ToS is the effective RoCE ToS of a NIC and the knob that set it.
type ToS struct {
	Effective Fact[int] `json:"effective"`
	// Via is "traffic_class" (forced by the NIC), "NCCL_IB_TC", "default"
	// (NCCL's 0) or "unknown" (nccl.conf not collected).
	Via string `json:"via"`
	// Forced is the Force-DSCP traffic_class, -1 when unset.
	Forced Fact[int] `json:"forced_traffic_class"`
}

// InputError is an input problem with its evidence.
type InputError struct {
	Device  string `json:"device"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// FromPolicy copies an inventory policy.
func FromPolicy(p policy.Policy) Policy {
	return Policy{
		Preset: p.Preset,
		RoCE:   RoCEPolicy{DSCP: nonNil(append([]int(nil), p.RoCE.DSCP...)), Priority: p.RoCE.Priority, TrafficClass: p.RoCE.TrafficClass, Mode: p.RoCE.Mode, MinBandwidth: p.RoCE.MinBandwidth, HostTSA: p.RoCE.HostTSA},
		CNP:    CNPPolicy{DSCP: p.CNP.DSCP, Priority: p.CNP.Priority},
		Trust:  p.Trust,
		MTU:    MTUPolicy{Host: p.MTU.Host, Switch: p.MTU.Switch},
		ECMP:   ECMPPolicy{HashFields: nonNil(append([]string(nil), p.ECMP.HashFields...)), AdaptiveRouting: p.ECMP.AdaptiveRouting},
		PFC:    &PFCPolicy{CableLength: p.PFC.CableLength},
	}
}

// Inventory turns the policy back into the inventory's form (without
// positions), the form the checks and Diff read.
func (p Policy) Inventory() policy.Policy {
	return policy.Policy{
		Preset: p.Preset,
		RoCE:   policy.RoCEPolicy{DSCP: append([]int(nil), p.RoCE.DSCP...), Priority: p.RoCE.Priority, TrafficClass: p.RoCE.TrafficClass, Mode: p.RoCE.Mode, MinBandwidth: minBandwidth(p.RoCE.MinBandwidth), HostTSA: cmp.Or(p.RoCE.HostTSA, "ets")},
		CNP:    policy.CNPPolicy{DSCP: p.CNP.DSCP, Priority: p.CNP.Priority},
		Trust:  p.Trust,
		MTU:    policy.MTUPolicy{Host: p.MTU.Host, Switch: p.MTU.Switch},
		ECMP:   policy.ECMPPolicy{HashFields: append([]string(nil), p.ECMP.HashFields...), AdaptiveRouting: p.ECMP.AdaptiveRouting},
		PFC:    policy.PFCPolicy{CableLength: p.CableLength()},
	}
}

// CableLength is pfc.cable_length, the default policy's in a snapshot
// taken before it was recorded.
func (p Policy) CableLength() int {
	if p.PFC == nil {
		def, _ := policy.Preset(policy.DefaultPreset)
		return def.PFC.CableLength
	}
	return p.PFC.CableLength
}

// nonNil keeps empty lists as [] rather than null, so that the JSON is one
// shape and Read(Write(s)) equals s.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// minBandwidth reads an older snapshot's absent roce.min_bandwidth as the
// default policy's.
func minBandwidth(v int) int {
	if v == 0 {
		def, _ := policy.Preset(policy.DefaultPreset)
		return def.RoCE.MinBandwidth
	}
	return v
}
