package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
)

var switchPCPMap = &Check{
	ID:       "switch-pcp-map",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Error,
	Title:    "Under a PCP policy, switches map the RoCE and CNP 802.1p values to their priorities",
	Doc: `When the policy trusts PCP the hosts tag RoCE with the RoCE priority and CNPs with the CNP
priority in the 802.1p field, and a switch port trusting l2 turns that PCP into a switch priority
through its mapping profile: by default PCP n to switch priority n, changed with "nv set qos mapping
default-global pcp 0 switch-priority 4" (CumulusNetworks/docs content/cumulus-linux-518/
Layer-1-and-Switch-Ports/Quality-of-Service/_index.md, Trust 802.1p Marking; a profile bound to
some ports gets the default map for the PCPs it does not list). NetQ's RoCE validation test 1
checks the DSCP/PCP classification (content/cumulus-netq-53/Validate-Operations/
Validation-Checks.md). The check wants, on every port group trusting l2, the RoCE priority's PCP
mapped to the RoCE switch priority and the CNP priority's PCP to the CNP switch priority. A port
trusting both classifies tagged IP packets, which RoCEv2 packets are, by their DSCP ("Both | yes |
IP | Accept incoming DSCP IP header marking", the trust table of "nv set qos mapping <profile-id>
port-default-sp" in the NVUE command reference), so its PCP map does not place RoCE and is not
judged here; switch-dscp-map judges its DSCP map. Under a DSCP policy the check is silent.`,
	Inputs: []Input{NVConfig, ConfigDB},
	Run:    runSwitchPCPMap,
}

func runSwitchPCPMap(f *model.Fabric) []Finding {
	if f.Policy.Trust != "pcp" {
		return nil
	}
	var out []Finding
	for _, sw := range f.ConfiguredSwitches() {
		for _, g := range sw.PortGroups() {
			if g.Q.Trust.V != "l2" {
				continue
			}
			out = append(out, pcpEntry(f.Policy, sw, g, "RoCE", f.Policy.RoCE.Priority)...)
			out = append(out, pcpEntry(f.Policy, sw, g, "CNP", f.Policy.CNP.Priority)...)
		}
	}
	return out
}

// pcpEntry judges the map's entry for the PCP a kind of traffic is tagged
// with, which must land in the switch priority of the same number.
func pcpEntry(pol policy.Policy, sw *model.Switch, g model.PortGroup, kind string, prio int) []Finding {
	v := g.Q.PCP[prio]
	if judge.SwitchPCP(pol, g.Q.Trust.V, prio, v.V).OK {
		return nil
	}
	o, had := old(v)
	return []Finding{{
		Severity: judge.Error, Device: sw.Name, Interface: g.Iface,
		Message: fmt.Sprintf("the ports trust l2 and map PCP %d, the %s priority the hosts tag, to switch-priority %d in mapping profile %s: %s lands in the wrong priority",
			prio, kind, v.V, g.Q.MappingProfile.V, kind),
		Expected: fmt.Sprintf("PCP %d → switch-priority %d", prio, prio),
		Actual:   fmt.Sprintf("PCP %d → switch-priority %s", prio, why(v)),
		Source:   at(v.Origin, sw.ConfigFile),
		Changes: []Change{nvSet(o, had, strconv.Itoa(prio), "qos", "mapping", g.Q.MappingProfile.V, "pcp", strconv.Itoa(prio), "switch-priority").
			with(Setting{Aspect: PCPPriority, Ports: portsOf(sw, g), Key: prio, Value: prio})},
	}}
}
