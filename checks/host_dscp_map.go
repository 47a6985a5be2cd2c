package checks

import (
	"fmt"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var hostDSCPMap = &Check{
	ID:       "host-dscp-map",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesRoCEHost,
	Severity: judge.Error,
	Title:    "Each NIC maps the RoCE DSCP to the RoCE priority, the same one the switches use",
	Doc: `A NIC that trusts DSCP turns the DSCP of each packet into a priority through its dscp2prio
table (DSCP>>3 by default, so 26 goes to 3). That priority must be the one with PFC on the NIC and
the same number the switches give the DSCP, or the two ends of a link pause different priorities
and RoCE is dropped at the first congested hop. The check compares each NIC's table with the policy
for every RoCE DSCP and, in its message, with what the switches of the fabric actually do. It is
skipped for NICs that do not trust DSCP (host-trust reports those).`,
	Inputs: []Input{MlnxQoS, NVConfig},
	Run:    runHostDSCPMap,
}

func runHostDSCPMap(f *model.Fabric) []Finding {
	if f.Policy.Trust != "dscp" {
		return nil
	}
	var out []Finding
	p := f.Policy.RoCE
	what := func(n *model.NIC) string {
		if hasQos(n) {
			return "dscp2prio block of mlnx_qos-" + n.Netdev + ".txt not collected"
		}
		return qosFile(n)
	}
	has := func(n *model.NIC) bool { return hasQos(n) && n.DSCPMissing == "" }
	nc := nicIter(f, what, has, "dscp2prio", func(h *model.Host, n *model.NIC) {
		if !judge.HostDSCPJudged(f.Policy, n.Trust.V) {
			return
		}
		for _, d := range p.DSCP {
			v := n.DSCP.At(d)
			j := judge.HostDSCP(f.Policy, d, v.V, v.Known)
			if j.OK {
				continue
			}
			actual := "absent"
			old, hasOld := "", false
			if v.Known {
				actual = fmt.Sprintf("DSCP %d → priority %s", d, why(v))
				old, hasOld = fmt.Sprintf("set,%d,%d", d, v.V), true
			}
			out = append(out, Finding{
				Severity: j.Severity, Device: h.Name, Interface: n.Netdev,
				Message:  j.Reason + switchesSay(f, d),
				Expected: fmt.Sprintf("DSCP %d → priority %d", d, p.Priority),
				Actual:   actual,
				Source:   v.Origin.Pos(),
				Changes: []Change{{Kind: MlnxQos, Target: n.Netdev, Flag: "--dscp2prio",
					Value: fmt.Sprintf("set,%d,%d", d, p.Priority), Old: old, HasOld: hasOld}},
			})
		}
	})
	return append(out, nc...)
}

// switchesSay tells what the fabric's switches do with a DSCP, so a host
// finding shows the cross-device picture.
func switchesSay(f *model.Fabric, dscp int) string {
	bySP := map[int][]string{}
	for _, sw := range f.ConfiguredSwitches() {
		seen := map[int]bool{}
		for _, g := range sw.PortGroups() {
			sp := g.Q.DSCP.At(dscp).V
			if !seen[sp] {
				seen[sp] = true
				bySP[sp] = append(bySP[sp], sw.Name)
			}
		}
	}
	switch len(bySP) {
	case 0:
		return ""
	case 1:
		for sp := range bySP {
			return fmt.Sprintf("; the switches map it to switch-priority %d", sp)
		}
	}
	sps := make([]int, 0, len(bySP))
	for sp := range bySP {
		sps = append(sps, sp)
	}
	sort.Ints(sps)
	parts := make([]string, len(sps))
	for i, sp := range sps {
		names := bySP[sp]
		sort.Strings(names)
		parts[i] = fmt.Sprintf("%d on %s", sp, strings.Join(names, ", "))
	}
	return "; the switches disagree: switch-priority " + strings.Join(parts, "; ")
}
