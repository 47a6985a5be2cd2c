// Package policy is the intended RoCE QoS policy every device is checked
// against: the language of intent every layer speaks (the inventory loads
// it, the model carries it, the checks judge by it), hence vocabulary, with
// the presets a policy starts from.
package policy

import "github.com/qoslint/qoslint/internal/source"

// Policy is the intent every device is checked against. inventory.Load fills every
// field: explicit values win over the preset's, the preset's over the
// cumulus-default ones.
type Policy struct {
	// Preset is the named preset the policy started from ("cumulus-default"
	// when none was named).
	Preset string
	RoCE   RoCEPolicy
	CNP    CNPPolicy
	// Trust is what hosts must trust: "dscp" (switches must then trust l3 or
	// both) or "pcp" (switches l2 or both).
	Trust string
	MTU   MTUPolicy
	ECMP  ECMPPolicy
	PFC   PFCPolicy
	// Rails is the rail rule: Rails[k] are the leaves NIC k of every host
	// must plug into (several when the rail spans several planes); nil
	// when the inventory sets none.
	Rails [][]string
	// IB is the InfiniBand intent (ib: {sl, vl}).
	IB IBPolicy
	// Pos is where each set field was written, keyed by its dotted schema
	// path ("roce.dscp", "cnp.priority", "mtu.host", "ecmp.hash_fields", ...).
	// Fields that came from a preset or default are absent.
	Pos map[string]source.Pos
}

// RoCEPolicy is the RoCE data traffic's marking.
type RoCEPolicy struct {
	DSCP         []int // sorted, unique; never empty after inventory.Load
	Priority     int   // switch priority and NIC priority, 0..7
	TrafficClass int   // switch traffic class (egress queue), 0..7
	// Mode is the switch RoCE mode required: one of RoCEModes; "lossless"
	// by default.
	Mode string
	// MinBandwidth is the least DWRR bw-percent the switches' RoCE traffic
	// class must get (1..100); 50 by default, what qos roce gives it.
	MinBandwidth int
	// HostTSA is how the NIC must schedule the RoCE priority's traffic
	// class: one of HostTSAs; "ets" by default.
	HostTSA string
}

// HostTSAs are the transmission algorithms a policy may ask of the NIC's
// RoCE traffic class (mlnx_qos --tsa, Mellanox/mlnx-tools python/mlnx_qos):
// "ets", a guaranteed bandwidth share, or "strict". "vendor" (mlx5's own
// default) is no policy: it guarantees nothing.
var HostTSAs = []string{"ets", "strict"}

// RoCEModes are the `nv set qos roce mode` values of Cumulus Linux 5.x
// (CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-Switch-Ports/
// Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md); model/roce_modes.go
// holds what each configures.
var RoCEModes = []string{"lossless", "lossy", "lossless-single-ipool", "lossy-multi-tc", "dci-1"}

// Lossless reports whether the required mode has PFC: lossless,
// lossless-single-ipool and dci-1 (its traffic class 3 "with PFC"); lossy and
// lossy-multi-tc have none. model.LosslessMode says the same (tested).
func (r RoCEPolicy) Lossless() bool {
	switch r.Mode {
	case "lossless", "lossless-single-ipool", "dci-1":
		return true
	}
	return false
}

// CNPPolicy is the congestion notification packets' marking.
type CNPPolicy struct {
	DSCP     int
	Priority int
}

// MTUPolicy holds minimum MTUs.
type MTUPolicy struct {
	Host   int
	Switch int
}

// PFCPolicy is what lossless ports must be sized for.
type PFCPolicy struct {
	// CableLength is the longest cable, in metres, that a PFC port's
	// headroom must cover: a switch must configure at least this. The
	// default is NVUE's qos roce default, 100 m (CumulusNetworks/docs
	// content/nvue-reference/, nv set qos roce cable-length: "The default
	// setting is 100 meters").
	CableLength int
}

// ECMPPolicy is what the switches must hash on.
type ECMPPolicy struct {
	// HashFields are NVUE ecmp-hash field names (source-ip, destination-ip,
	// source-port, destination-port, ip-protocol, ipv6-label, ...).
	HashFields      []string
	AdaptiveRouting bool
}

// IBPolicy is the InfiniBand intent. On InfiniBand the marking is the
// Service Level: the application picks one (NCCL_IB_SL, default 0 in
// NVIDIA/nccl src/transport/net_ib.cc), every port's SL2VL table maps it to a
// virtual lane and VL arbitration gives that lane its share.
type IBPolicy struct {
	// SL is the Service Level the applications must use (default 0).
	SL int
	// VL is the virtual lane SL must map to on every port when HasVL;
	// without it any data VL the port runs will do.
	VL    int
	HasVL bool
	// AdaptiveRouting is whether the subnet manager must run an adaptive
	// routing engine, when HasAdaptiveRouting (ib.adaptive_routing);
	// without it the routing engine is not judged.
	AdaptiveRouting, HasAdaptiveRouting bool
}
