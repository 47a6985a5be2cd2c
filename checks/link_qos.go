package checks

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var linkQoS = &Check{
	ID:       "link-qos",
	Kind:     KindTopology,
	Devices:  AllDevices,
	Severity: judge.Error,
	Title:    "The switch port each RoCE NIC plugs into carries the RoCE policy through its own profiles",
	Doc: `A host's RoCE marking only helps if the switch port its NIC is cabled to classifies and queues
it: NVUE applies QoS per port through the profiles bound on it (default-global where none is),
so one port bound to the wrong profile, or left on a default-global that lacks the RoCE settings,
breaks the hosts behind it while every other port is right. For each NIC-to-switch cable LLDP
reports (lldpcli show neighbors, lldpd/lldpd), the port's own effective QoS is judged with the
switch checks' rules (switch-trust, switch-dscp-map, switch-pfc, switch-ecn, switch-queue-map):
the finding names the host, the NIC, the switch port and the profiles in effect there. It is
information: the switch checks' findings on that port carry the severity and the fix, and this
one says which NIC they leave without the RoCE policy, so that a gate counts one defect once.
A port outside the inventory's ports list, which the switch checks do not judge, is judged here
alone: its finding carries the severity of the rules it breaks and asks for the port to be added
to the inventory, after which the switch checks print the fix.`,
	Inputs: []Input{LLDP, NVConfig, ConfigDB, MlnxQoS},
	Run:    runLinkQoS,
}

func runLinkQoS(f *model.Fabric) []Finding {
	var out []Finding
	for _, l := range f.Links {
		for _, pair := range [][2]model.LinkEnd{{l.A, l.B}, {l.B, l.A}} {
			h, n := f.HostNICEnd(pair[0])
			sw, port := f.SwitchEnd(pair[1])
			if n == nil || sw == nil {
				continue
			}
			if _, reasons := judgePortQoS(f, sw.PortQoS.At(port)); len(reasons) == 0 {
				continue
			}
			out = append(out, linkQoSFinding(f, l, h, n, pair[1], sw, port))
		}
	}
	return append(out, lldpNotCollected(f, "the QoS of the switch ports RoCE NICs plug into")...)
}

// linkQoSFinding reports a NIC's switch port whose QoS breaks RoCE. On a
// checked port it is information (the switch checks carry the severity and
// the fix); on a port outside the inventory's ports list, which no switch
// check judges, it carries the rules' severity itself.
func linkQoSFinding(f *model.Fabric, l *model.Link, h *model.Host, n *model.NIC, e model.LinkEnd, sw *model.Switch, port string) Finding {
	q := sw.PortQoS.At(port)
	sev, reasons := judgePortQoS(f, q)
	fix := fmt.Sprintf("the switch checks' findings on %s fix the profiles", port)
	if sw.IsOutside(port) {
		fix = fmt.Sprintf("%s is outside %s's ports list in the inventory, so no switch check judges it: add it there "+
			"and the switch checks print the fix", port, sw.Name)
	} else {
		sev = judge.Info
	}
	return Finding{
		Severity: sev, Device: sw.Name, Interface: port,
		Message: fmt.Sprintf("%s %s plugs into %s, whose profiles (%s) break RoCE: %s (%s); qoslint prints no command here: %s",
			h.Name, n.Netdev, endName(e, port), profiles(q), strings.Join(reasons, "; "), linkSeen(l), fix),
		Expected: "the RoCE policy on the port's own profiles",
		Actual:   strings.Join(reasons, "; "),
		Source:   at(l.Source(), sw.ConfigFile),
	}
}

// judgePortQoS applies the switch checks' rules to one port's QoS; the
// highest severity and the reasons of the rules it breaks.
func judgePortQoS(f *model.Fabric, q *model.QoS) (judge.Severity, []string) {
	p := f.Policy
	js := []judge.Judgement{judge.SwitchTrust(p, q.Trust.V)}
	for _, d := range p.RoCE.DSCP {
		if d >= 0 && d < 64 {
			js = append(js, judge.SwitchDSCP(p, d, q.DSCP.At(d).V))
		}
	}
	js = append(js, judge.SwitchPFC(p, pfcOn(q.PFC)),
		judge.SwitchPFCDirection(p, "rx", q.PFCRx.V), judge.SwitchPFCDirection(p, "tx", q.PFCTx.V))
	if tc := p.RoCE.TrafficClass; tc >= 0 && tc < len(q.ECN) {
		js = append(js, judge.SwitchECN(p, q.ECN[tc].V))
	}
	if sp := p.RoCE.Priority; sp >= 0 && sp < len(q.TC) {
		js = append(js, judge.SwitchQueue(p, sp, q.TC[sp].V, q.TC[sp].Origin.IsDefault()))
	}
	var sev judge.Severity
	var reasons []string
	for _, j := range js {
		if j.OK {
			continue
		}
		sev = max(sev, j.Severity)
		reasons = append(reasons, j.Reason)
	}
	return sev, reasons
}

// profiles names the profiles in effect on a port, feature by feature.
func profiles(q *model.QoS) string {
	return fmt.Sprintf("mapping %s, pfc %s, congestion-control %s, egress-scheduler %s",
		q.MappingProfile.V, q.PFCProfile.V, q.ECNProfile.V, q.SchedProfile.V)
}
