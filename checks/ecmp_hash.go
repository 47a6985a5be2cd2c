package checks

import (
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var ecmpHash = &Check{
	ID:       "ecmp-hash",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Error,
	Title:    "ECMP hashes on the UDP source port and the policy's fields",
	Doc: `All RoCEv2 packets go to UDP port 4791 between a handful of GPU addresses, so the 5-tuple
varies only in the UDP source port, which the NIC derives per queue pair. A switch that does not
hash on the source port puts every QP between two GPUs on one path and leaves the other uplinks
idle: collective bandwidth drops by the fan-out. Hashing on source-port is therefore required
whatever the policy says (error); each other field the policy lists and the switch ignores is a
warning. Cumulus hashes on source/destination IP, ports, IP protocol and IPv6 flow label by default.
The hash is one setting for the whole switch; it decides the path only where a route has several
next hops, i.e. on the switch's links to the next tier (the ECMP group adaptive-routing reads from
LLDP), so those uplinks are where a missing field shows.`,
	Inputs:  []Input{NVConfig, ConfigDB},
	Applies: appliesECMPHash,
	Run:     runECMPHash,
}

// appliesECMPHash: a SONiC switch without SWITCH_HASH|GLOBAL ecmp_hash
// hashes on the ASIC's defaults, which SONiC does not document
// (collectors/sonic/sonicmodel), so there is nothing to judge.
func appliesECMPHash(f *model.Fabric, device string) (SkipKind, string) {
	if sw := f.SwitchByName(device); sw != nil && sw.ConfigFile != "" && len(sw.ECMP) == 0 {
		return SkipNotCollected, "the configuration does not say which fields the switch hashes on (no SWITCH_HASH|GLOBAL ecmp_hash)"
	}
	return "", ""
}

func runECMPHash(f *model.Fabric) []Finding {
	var out []Finding
	for _, sw := range f.ConfiguredSwitches() {
		for _, name := range judge.ECMPHashFields(f.Policy) {
			v, ok := sw.ECMP[name]
			if !ok {
				continue
			}
			j := judge.ECMPHash(f.Policy, name, v.V)
			if j.OK {
				continue
			}
			o, had := old(v)
			if had {
				o = sw.Syntax.OnOff(false)
			}
			out = append(out, Finding{
				Severity: j.Severity, Device: sw.Name, Message: j.Reason,
				Expected: "ecmp-hash " + name + " " + sw.Syntax.OnOff(true),
				Actual:   "ecmp-hash " + name + " " + sw.Syntax.OnOff(false) + originNote(v.Origin),
				Source:   at(v.Origin, sw.ConfigFile),
				Changes: []Change{nvSet(o, had, sw.Syntax.OnOff(true), "system", "forwarding", "ecmp-hash", name).
					with(Setting{Aspect: ECMPHashField, Ports: sw.Ports, Field: name, On: true})},
			})
		}
	}
	return out
}
