package policy

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
// the "Default RoCE Configuration" table ("Switch priority 3 to traffic
// class 3 (RoCE)", "Switch priority 6 to traffic class 6 (CNP)") and the
// `nv show interface swp16 qos roce status` output, whose rows (columns
// pcp, dscp, switch-prio) read "cnp   6    48    6" and "roce  3    26    3".
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
// inventory's explicit values then override it field by field. Each names
// the public document it follows, quoted, or claims none in its name.
var presets = map[string]func() Policy{
	DefaultPreset: cumulusDefault,

	// The Spectrum-X reference architecture RA2.0 as NVIDIA's NIC
	// Configuration Operator applies it to the NICs: Mellanox/
	// nic-configuration-operator bindata/spectrum-x/RA2.0.yaml at tag
	// network-operator-v25.10.0 (RA1.3.yaml there has the same block):
	//
	//	runtimeConfig:
	//	  roce:
	//	    - name: Trust
	//	      value: dscp
	//	    - name: PFC
	//	      value: "00010000"
	//	    - name: Type of Service
	//	      value: 96
	//
	// and in nvConfig "- name: RoCE Adaptive Routing / value: true". ToS 96
	// is DSCP 24. PFC "00010000" is the digit form of "0,0,0,1,0,0,0,0"
	// (pkg/dms/client.go: `strings.ReplaceAll(spec.PFC, ",", "")`), which the
	// operator's documentation calls "pfc (Priority Flow Control) for
	// priority 3" (Mellanox/network-operator-docs docs/nic-conf-operator/
	// configuration-details.rst, roceOptimized). The switches' qos roce
	// default map puts DSCP 24 on switch priority 3, traffic class 3. The
	// file names no CNP marking: the CNP is qos roce's (`cnp   6    48    6`),
	// the value the operator writes for Spectrum-X at tag
	// network-operator-v26.4.0 (pkg/spectrumx/spectrumx.go: `const
	// cnpDscpExpectedValue = "48"`). Later RA files (RA2.2.yaml, RA3.0.yaml)
	// keep Trust and PFC but set no ToS ("# TODO: figure out if NIC operator
	// or RDMA cni needs to set the tos", commit 5af674c), so no newer RA
	// states a RoCE DSCP.
	"spectrum-x-ra2.0": func() Policy {
		p := cumulusDefault()
		p.Preset = "spectrum-x-ra2.0"
		p.RoCE.DSCP = []int{24}
		p.ECMP.AdaptiveRouting = true
		return p
	},

	// The switches' `nv set qos roce mode lossy-multi-tc` profile
	// (CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-Switch-
	// Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md, "Lossy
	// Multi TC Profile": "The lossy multi TC profile provides QoS settings
	// for lossy RoCE traffic"). Its `nv show qos roce` example (whose leaf
	// rows repeat the lossless-single-ipool example; model/roce_modes.go)
	// has the rows (pcp, dscp, switch-prio; the padding shortened here)
	//
	//	3  3    5,6  3
	//	4  4    11,12,13,14,15,16,17,18,19,20,...,40  4
	//	5  5    41,42,43,44,45,46,47,48,49,50  5
	//
	// and (switch-prio, traffic-class, scheduler-weight) "3  3  3
	// DWRR-22%": each switch priority in its own traffic class, no PFC. ECN
	// marks traffic classes 1, 2 and 3 only ("enabled-tc        1,2,3" in
	// the CL 5.15 version of the page), which are also the classes the
	// profile trims: the default packet trimming profile "Sets the
	// eligibility to all ports on the switch with traffic class 1, 2, and
	// 3" and "Sets the switch priority to 4" of the trimmed packets
	// (content/cumulus-linux-519/.../Packet-Trimming.md). So RoCE belongs in
	// one of traffic classes 1-3: the preset takes 3, the one with the
	// largest share and the switch priority qos roce gives RoCE, reached by
	// DSCP 5 and 6. The pages name no DSCP the NICs must mark; roce.dscp,
	// roce.priority and roce.traffic_class override these. A CNP's DSCP 48
	// lands on switch priority 5. NVIDIA's SONiC SKU for the SN5600 ships
	// the same scheme (sonic-net/sonic-buildimage device/mellanox/
	// x86_64-nvidia_sn5600-r0/Mellanox-SN5600-C256S1/qos.json.j2:
	// DSCP_TO_TC_MAP `"5" : "3"`, `"6" : "3"`, `"41": "5"` .. `"50": "5"`,
	// ECN WRED thresholds on queues 1-3 and `disable_wred` on 4 and 5,
	// `"pfc_enable"      : ""`). The CL 5.15 example maps DSCP 41-50 to
	// switch priority 0; the CL 5.18 table and the SONiC SKU agree on 5.
	"cumulus-lossy-multi-tc": func() Policy {
		p := cumulusDefault()
		p.Preset = "cumulus-lossy-multi-tc"
		p.RoCE = RoCEPolicy{DSCP: []int{5, 6}, Priority: 3, TrafficClass: 3, Mode: "lossy-multi-tc", HostTSA: "ets", MinBandwidth: 22}
		p.CNP = CNPPolicy{DSCP: 48, Priority: 5}
		return p
	},

	// RoCE on DSCP 46 -> priority 3, otherwise cumulus-default. No public
	// NVIDIA document we found states DSCP 46 for RoCE (the DGX BasePOD and
	// SuperPOD reference architectures, docs.nvidia.com/dgx-basepod/ and
	// .../dgx-superpod/.../network-fabrics.html, publish no RoCE DSCP or
	// priority that we could find), so the name claims none. DSCP 46 falls
	// in 40-47, which the Cumulus default map sends to priority 5: the
	// switches need a custom DSCP map.
	"custom-dscp46": func() Policy {
		p := cumulusDefault()
		p.Preset = "custom-dscp46"
		p.RoCE.DSCP = []int{46}
		return p
	},
}

// renamedPresets are former preset names, each with why it went and what
// replaces it; an inventory naming one is an error that says so.
var renamedPresets = map[string]string{
	"spectrum-x": "it named no one document: use spectrum-x-ra2.0 (the Spectrum-X RA2.0 NIC profile: lossless, DSCP 24, " +
		"adaptive routing) or cumulus-lossy-multi-tc (the switches' lossy-multi-tc profile)",
	"basepod-ef": "no public NVIDIA document states its DSCP 46: use custom-dscp46 (the same values)",
}

// RenamedPreset is why a former preset name is gone and what replaces it;
// false for a name that never was a preset.
func RenamedPreset(name string) (string, bool) {
	why, ok := renamedPresets[name]
	return why, ok
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
