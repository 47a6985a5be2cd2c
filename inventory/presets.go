package inventory

import (
	"maps"
	"slices"
)

// DefaultPreset is the policy every inventory starts from.
const DefaultPreset = "cumulus-default"

// cumulusDefault is what `nv set qos roce` (mode lossless) configures on a
// Cumulus Linux 5.x switch: RoCE on switch priority 3 / traffic class 3 and
// CNPs on priority 6, reached through the default DSCP map (DSCP 24-31 -> SP
// 3, so the NIC's DSCP 26 -> 3; DSCP 48-55 -> SP 6). Source: CumulusNetworks/docs
// content/cumulus-linux-5{12,14,15,18}/.../RDMA-over-Converged-Ethernet-RoCE.md,
// "Default RoCE Configuration" table and the `nv show qos roce` outputs
// (per-interface rows "roce 3 26 3" and "cnp 6 48 6").
func cumulusDefault() Policy {
	return Policy{
		Preset: DefaultPreset,
		// The NIC schedules the RoCE traffic class as the switch's RoCE
		// defaults do: "Traffic class 3 (RoCE) - WRR 50%", CNPs strict (the
		// same "Default RoCE Configuration" table). On the NIC that is ETS
		// with a bandwidth share (mlnx_qos "tsa: ets, bw: 50%").
		RoCE: RoCEPolicy{DSCP: []int{26}, Priority: 3, TrafficClass: 3, Mode: "lossless", HostTSA: "ets",
			// qos roce schedules traffic class 3 "WRR 50%" (CumulusNetworks/docs
			// content/cumulus-linux-518/.../RDMA-over-Converged-Ethernet-RoCE.md,
			// "Default RoCE Configuration").
			MinBandwidth: 50},
		CNP: CNPPolicy{DSCP: 48, Priority: 6},
		// Hosts classify by DSCP: RoCEv2 is routed, the PCP is lost at the
		// first L3 hop (the NIC Configuration Operator's roceOptimized
		// profile sets trust dscp too: Mellanox/nic-configuration-operator
		// pkg/configuration/configvalidation.go).
		Trust: "dscp",
		PFC:   PFCPolicy{CableLength: 100},
		MTU: MTUPolicy{
			// The largest RoCE path MTU is 4096 bytes of payload (ibv_devinfo
			// active_mtu strings stop at 4096, rdma-core libibverbs
			// examples/devinfo.c), and RoCE derives it from the netdev MTU.
			// The netdev MTU must also hold the IP (20/40), UDP (8), BTH
			// (12), RETH (16) and ICRC (4) headers: 4096+100 is 4196, so 4200
			// is the smallest round value that carries 4096-byte RoCE
			// frames over IPv4 and IPv6.
			Host: 4200,
			// "In Cumulus Linux, ifupdown2 assigns 9216 as the default MTU
			// setting" (CumulusNetworks/docs Switch-Port-Attributes.md).
			Switch: 9216,
		},
		ECMP: ECMPPolicy{
			// The fields Cumulus Linux hashes on by default (CumulusNetworks/docs
			// content/cumulus-linux-515/Layer-3/Routing/Equal-Cost-Multipath-Load-Sharing.md),
			// minus ipv6-label, which IPv4 RoCE fabrics do not carry.
			HashFields:      []string{"destination-ip", "destination-port", "ip-protocol", "source-ip", "source-port"},
			AdaptiveRouting: false,
		},
	}
}

// presets are full policies; a named preset replaces cumulus-default and the
// inventory's explicit values then override it field by field.
var presets = map[string]func() Policy{
	DefaultPreset: cumulusDefault,

	// Spectrum-X reference architecture RA1.3/RA2.0, as the NVIDIA NIC
	// Configuration Operator applied it (Mellanox/nic-configuration-operator
	// bindata/spectrum-x/RA1.3.yaml before commit 5af674c): trust dscp, PFC
	// "00010000" (priority 3), Type of Service 96 = DSCP 24, which the default
	// map puts on priority 3; CNP DSCP 48 (cnpDscpExpectedValue = "48") -> 6.
	// Spectrum-X relies on adaptive routing for RoCE on Spectrum-4
	// (CumulusNetworks/docs cumulus-linux-515 ECMP page, "Adaptive Routing":
	// "RoCE2 unicast traffic"), and RA2.2 sets ROCE_ADAPTIVE_ROUTING_EN=1 on
	// the NICs.
	"spectrum-x": func() Policy {
		p := cumulusDefault()
		p.Preset = "spectrum-x"
		p.RoCE.DSCP = []int{24}
		p.ECMP.AdaptiveRouting = true
		return p
	},

	// DGX BasePOD / SuperPOD Ethernet fabric. DSCP 46 -> priority 3 is the
	// founders' stated value, UNVERIFIED: the public DGX BasePOD and SuperPOD
	// reference architectures (docs.nvidia.com/dgx-basepod/...,
	// docs.nvidia.com/dgx-superpod/.../network-fabrics.html) describe the
	// Ethernet storage/management fabric but publish no RoCE DSCP or priority
	// that we could find. Note that DSCP 46 falls in 40-47, which the
	// Cumulus default map sends to priority 5, so this preset requires a
	// custom DSCP map on the switches.
	"basepod-ef": func() Policy {
		p := cumulusDefault()
		p.Preset = "basepod-ef"
		p.RoCE.DSCP = []int{46}
		return p
	},
}

// Preset returns the named preset's policy, every field filled and Pos nil.
// Each call returns a fresh copy the caller may modify.
func Preset(name string) (Policy, bool) {
	f, ok := presets[name]
	if !ok {
		return Policy{}, false
	}
	return f(), true
}

// PresetNames lists the presets, sorted.
func PresetNames() []string {
	return slices.Sorted(maps.Keys(presets))
}
