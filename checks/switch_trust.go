package checks

import (
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var switchTrust = &Check{
	ID:       "switch-trust",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Error,
	Title:    "Switch ports classify on the field the hosts mark",
	Doc: `A switch port classifies traffic by the field its trust mode names: l2 (802.1p PCP), l3
(DSCP), both, or port (one fixed priority). RoCEv2 between routed leaves carries its marking only in
DSCP, and the hosts are told to trust DSCP, so a port that trusts l2 or port puts every RoCE packet
in the priority of its PCP (0 on untagged links) or in the port default: the lossy queue. With the
policy's trust "dscp" the ports must trust l3 or both; with "pcp", l2 or both. A per-interface
mapping profile with its own trust is the usual way one group of ports drifts.`,
	Inputs: []Input{NVConfig, ConfigDB},
	Run:    runSwitchTrust,
}

func runSwitchTrust(f *model.Fabric) []Finding {
	var out []Finding
	_, wantText := judge.SwitchTrusts(f.Policy)
	for _, sw := range f.ConfiguredSwitches() {
		for _, g := range sw.ProfileGroups(model.MappingProfile) {
			t := g.Q.Trust
			j := judge.SwitchTrust(f.Policy, t.V)
			if j.OK {
				continue
			}
			o, had := old(t)
			out = append(out, Finding{
				Severity: j.Severity, Device: sw.Name, Interface: g.Iface,
				Message:  j.Reason,
				Expected: wantText, Actual: why(t),
				Source: at(t.Origin, sw.ConfigFile),
				Changes: []Change{nvSet(o, had, "both", "qos", "mapping", g.Q.MappingProfile.V, "trust").
					with(Setting{Aspect: TrustDSCP, Ports: portsOf(sw, g)})},
			})
		}
	}
	return out
}
