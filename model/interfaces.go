package model

import "regexp"

// Which interfaces are RoCE ports, and what each one's QoS bindings, MTU
// and adaptive routing are, is read by the switch's builder (NVUE's:
// collectors/nvue/nvuemodel/interfaces.go, with its sources).

var swpRe = regexp.MustCompile(`^swp\d+(s\d+)?$|^Ethernet\d+$`)

// IsFrontPanel reports whether an interface is a front-panel port or a
// split port of one: Cumulus Linux's swp1, swp1s0, SONiC's Ethernet0 (a
// multi-ASIC switch's backplane ports are Ethernet-BP0, ...:
// sonic-net/sonic-buildimage device/*/port_config.ini).
func IsFrontPanel(name string) bool { return swpRe.MatchString(name) }

// MemberBinding is a qos profile bound on a bond member, which NVUE
// rejects: the bond's bindings are what the member uses ("NVUE rejects QoS
// configurations on bond member interfaces and shows an error when you try
// to apply the configurations; you must apply all QoS configuration on
// logical bond interfaces", CumulusNetworks/docs content/cumulus-linux-514/
// Layer-1-and-Switch-Ports/Quality-of-Service/_index.md, "QoS Settings on
// Bond Member Interfaces").
type MemberBinding struct {
	Member, Bond string
	// Feature is mapping, pfc, congestion-control or egress-scheduler.
	Feature string
	Profile Value[string]
}
