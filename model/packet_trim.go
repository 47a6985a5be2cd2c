package model

import (
	"slices"

	"github.com/qoslint/qoslint/internal/source"
)

// Packet trimming and the remark profiles it uses. Public sources, all in
// the repository CumulusNetworks/docs:
//
//	Trim514 = content/cumulus-linux-514/Layer-1-and-Switch-Ports/Quality-of-Service/Packet-Trimming.md
//	Trim515 = content/cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/Packet-Trimming.md
//	Trim519 = content/cumulus-linux-519/Layer-1-and-Switch-Ports/Quality-of-Service/Packet-Trimming.md
//	TrimRef = content/nvue-reference/Set-and-Unset-Commands/Packet-Trimming.md
//	RoCE515 = content/cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md
//
// What changed between releases: Trim514 gives the global remark DSCP a
// default ("The default value is 11") and eligibility one ("By default,
// port eligibility is disabled for all ports and traffic classes"), which
// Trim515 and later no longer state; Trim514 lets lossy-multi-tc remark
// per port with no `qos remark profile` binding in its example, while
// Trim515 adds "Apply the port profiles" with `nv set interface swp1-16 qos
// remark profile lossy-multi-tc-host-group`; Trim514 and Trim515 forbid
// trimming with WJH buffer drops, Trim519 has that sentence commented out
// ("REMOVED FROM 5.18 - WJH NO LONGER IN DOCKER CONTAINER"). Every release
// sets the default profile with `nv set system forwarding packet-trim
// profile packet-trim-default` (TrimRef's heading) though one example of
// each page writes `nv set system forwarding packet-trim
// packet-trim-default`, without `profile`.

// TrimDefaultProfile is the one packet trimming profile NVUE documents.
const TrimDefaultProfile = "packet-trim-default"

// The remark profiles packet-trim-default uses: "`lossy-multi-tc-host-group`
// sets the DSCP remark value to 21 for switch priority 4 on the downlink to
// hosts", "`lossy-multi-tc-network-group` sets the DSCP remark value to 11
// for switch priority 4 on the uplink to the network" (Trim515, RoCE515).
const (
	RemarkHostGroup    = "lossy-multi-tc-host-group"
	RemarkNetworkGroup = "lossy-multi-tc-network-group"
)

// The size rule: "You can specify a value between 256 and 1024; the value
// must be a multiple of 4" (Trim514, Trim515, TrimRef).
const (
	TrimSizeMin = 256
	TrimSizeMax = 1024
)

// PacketTrim is a switch's packet trimming and the remark profiles it
// configures, every value with its origin.
type PacketTrim struct {
	// Enabled is off by default; `state`, `profile packet-trim-default` or
	// `qos roce mode lossy-multi-tc` turn it on ("The RoCE lossy-multi-tc
	// profile uses the default packet trimming profile settings").
	Enabled Value[bool]
	// Profile is TrimDefaultProfile when the default profile is in effect
	// (set, or through lossy-multi-tc), "" otherwise.
	Profile Value[string]
	// DSCP is the global remark DSCP; PortLevel is `remark dscp
	// port-level`, which remarks per egress port through the port's qos
	// remark profile instead.
	DSCP      Value[int]
	PortLevel Value[bool]
	// Size and SwitchPriority are not Known when neither the configuration
	// nor the default profile sets them: no release documents their
	// default otherwise.
	Size, SwitchPriority Value[int]
	// ServicePort is not Known when the default applies: "By default, this
	// is the last service port on the switch", whose name the
	// configuration does not give.
	ServicePort Value[string]
	// Eligible maps each interface the configuration gives egress
	// eligibility to its traffic classes; AllPorts is what every other port
	// has: the default profile's "all ports on the switch with traffic
	// class 1, 2, and 3", else none.
	Eligible map[string]Value[[]int]
	AllPorts Value[[]int]
	// NotPhysical are the interfaces with eligibility that are not
	// physical ports ("You can only configure physical ports; if you want
	// to trim packets egressing bonds, specify the bond slave ports"), with
	// what they are.
	NotPhysical []TrimPort
	// Remark are the qos remark profiles, configured or created by the
	// default profile; RemarkBind maps each interface with `qos remark
	// profile` to it.
	Remark     map[string]*RemarkProfile
	RemarkBind map[string]Value[string]
	// WJHBuffer are the WJH channels that monitor buffer drops (`nv set
	// system wjh channel <channel> trigger buffer`).
	WJHBuffer []Value[string]
	// ServiceSettings is what the configuration sets on the service port
	// (the configured one, else the one `nv show system forwarding
	// packet-trim` names) and on its bond's members.
	ServiceSettings []ServicePortSetting
	// Oper and RemarkOper are `nv show system forwarding packet-trim` and
	// `nv show qos remark`; nil when not collected.
	Oper       *TrimOper
	RemarkOper *RemarkOper
	// BondOf maps a bond member to its bond, for RemarkOf.
	BondOf map[string]string
}

// TrimPort is an interface that is not a physical port, with its kind.
type TrimPort struct {
	Port, What string
	TCs        Value[[]int]
}

// RemarkProfile is one `qos remark` profile.
type RemarkProfile struct {
	Name string
	// DSCP maps a switch priority to the DSCP written on egress.
	DSCP map[int]Value[int]
	// Rewrite is l2, l3 or both; not Known when not set.
	Rewrite Value[string]
	// Pos is where the configuration defines it; zero for a profile only
	// the default packet trimming profile creates.
	Pos source.Pos
}

// ServicePortSetting is one kind of setting on the service port, with the
// NVUE leaves that make it up (to unset them, and to set them back).
type ServicePortSetting struct {
	Iface, What string
	At          source.Pos
	Leaves      []NVLeaf
}

// NVLeaf is a path below `interface <Iface>` with its value; IsLeaf is
// false for a member set as a bare object (`qos pfc-watchdog`).
type NVLeaf struct {
	Path   []string
	Value  string
	IsLeaf bool
}

// EligibleTCs is the egress eligibility of a physical port: its own
// classes, to which the default profile adds its 1, 2 and 3 on every port
// (that an explicit setting adds to the profile's rather than replacing
// it is not documented: "After setting the default packet trimming
// profile, you can also modify any of the individual settings").
func (t *PacketTrim) EligibleTCs(port string) Value[[]int] {
	own, ok := t.Eligible[port]
	if !ok {
		return t.AllPorts
	}
	if len(t.AllPorts.V) == 0 {
		return own
	}
	tcs := append(slices.Clone(own.V), t.AllPorts.V...)
	slices.Sort(tcs)
	return Value[[]int]{V: slices.Compact(tcs), Known: true, Origin: NewOrigin(own.Origin.Pos(), "the port's own classes and packet-trim-default's 1, 2, 3 (added, not replaced: not documented)")}
}

// RemarkOf is the qos remark profile a port's trimmed packets are remarked
// by: its own binding, or its bond's, since "you must apply all QoS
// configuration on logical bond interfaces" (content/cumulus-linux-514/
// Layer-1-and-Switch-Ports/Quality-of-Service/_index.md); ok is false when
// neither has one.
func (t *PacketTrim) RemarkOf(port string) (Value[string], bool) {
	if v, ok := t.RemarkBind[port]; ok {
		return v, true
	}
	if b := t.BondOf[port]; b != "" {
		if v, ok := t.RemarkBind[b]; ok {
			return v, true
		}
	}
	return Value[string]{}, false
}
