package checks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

var railAlignment = &Check{
	ID:       "rail-alignment",
	Kind:     KindTopology,
	Devices:  Hosts,
	Applies:  appliesRails,
	Severity: judge.Error,
	Title:    "NIC k of every GPU server plugs into a leaf of rail k",
	Doc: `In a rail-optimised fabric NIC k of every server sits on the leaf (or, with several planes, one
of the leaves) of rail k, so that traffic between GPUs of the same rank stays on one leaf and
never queues at the spines. With a rail rule in the inventory (policy.rails.groups: per rail,
its leaves), each host's NICs are taken in order (the inventory's nics as written, else
ibdev2netdev.txt's order) and the leaf LLDP sees at the far end of NIC k must be in group k.
NICs beyond the last rail are not judged; a NIC LLDP does not see is the cabling check's, and a
host whose lldp.json was not collected is judged from its leaves' LLDP. Without a rail rule the
check is silent.`,
	Inputs: []Input{LLDP, IBDev2Netdev},
	Run:    runRailAlignment,
}

func runRailAlignment(f *model.Fabric) []Finding {
	r := f.Rails
	if r == nil {
		return nil
	}
	var out []Finding
	byEnd := f.LinksByEnd()
	for _, h := range f.Hosts {
		for k, nic := range r.NICs[h.Name] {
			if k >= len(r.Groups) {
				break
			}
			for _, l := range byEnd[[2]string{h.Name, nic.Netdev}] {
				_, far, _ := l.End(h.Name)
				if slices.Contains(r.Groups[k], far.Device) {
					continue
				}
				out = append(out, Finding{
					Severity: judge.Error, Device: h.Name, Interface: nic.Netdev,
					// The rule's inventory line goes in Expected, not in the
					// message: a finding's identity must not move with the
					// inventory's layout (audit writes its own inventory).
					Message: fmt.Sprintf("NIC %d (%s, order from %s) is on %s:%s (%s), not on rail %d (%s); move the cable (qoslint prints no command for a cable)",
						k, nic.Netdev, nic.From, far.Device, far.Port, seenAt(l), k, strings.Join(r.Groups[k], " or ")),
					Expected: fmt.Sprintf("%s (rail %d, %s)", strings.Join(r.Groups[k], " or "), k, r.Pos),
					Actual:   far.Device + ":" + far.Port,
					Source:   l.Source().Pos(),
				})
			}
		}
	}
	for _, h := range f.Hosts {
		if _, ok := r.NICs[h.Name]; !ok {
			out = append(out, notCollected(h.Name, []string{layout.IBDev2NetdevFile + " not collected"}, "NIC order for the rail rule"))
		}
	}
	return out
}
