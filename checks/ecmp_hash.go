package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/model"
)

var ecmpHash = &Check{
	ID:       "ecmp-hash",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: Error,
	Title:    "ECMP hashes on the UDP source port and the policy's fields",
	Doc: `All RoCEv2 packets go to UDP port 4791 between a handful of GPU addresses, so the 5-tuple
varies only in the UDP source port, which the NIC derives per queue pair. A switch that does not
hash on the source port puts every QP between two GPUs on one path and leaves the other uplinks
idle: collective bandwidth drops by the fan-out. Hashing on source-port is therefore required
whatever the policy says (error); each other field the policy lists and the switch ignores is a
warning. Cumulus hashes on source/destination IP, ports, IP protocol and IPv6 flow label by default.`,
	Inputs: []Input{NVConfig},
	Run:    runECMPHash,
}

func runECMPHash(f *model.Fabric) []Finding {
	var out []Finding
	fields := append([]string{"source-port"}, f.Policy.ECMP.HashFields...)
	for _, sw := range configured(f) {
		seen := map[string]bool{}
		for _, name := range fields {
			if seen[name] {
				continue
			}
			seen[name] = true
			v, ok := sw.ECMP[name]
			if !ok || v.V {
				continue
			}
			sev, msg := Warning, fmt.Sprintf("ECMP does not hash on %s, which the policy lists", name)
			if name == "source-port" {
				sev, msg = Error, "ECMP does not hash on the UDP source port, the only per-QP entropy of RoCEv2: every QP between two GPUs takes one path"
			}
			o, had := old(v)
			if had {
				o = sw.Syntax.OnOff(false)
			}
			out = append(out, Finding{
				Severity: sev, Device: sw.Name, Message: msg,
				Expected: "ecmp-hash " + name + " " + sw.Syntax.OnOff(true),
				Actual:   "ecmp-hash " + name + " " + sw.Syntax.OnOff(false) + originNote(v.Origin),
				Source:   at(v.Origin, sw.ConfigFile),
				Changes:  []Change{nvSet(o, had, sw.Syntax.OnOff(true), "system", "forwarding", "ecmp-hash", name)},
			})
		}
	}
	return out
}
