package checks

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var linkPFC = &Check{
	ID:       "link-pfc",
	Kind:     KindTopology,
	Devices:  AllDevices,
	Severity: judge.Info,
	Title:    "PFC is on the RoCE priority at both ends of every link that carries RoCE",
	Doc: `PFC is hop by hop: a receiver pauses its link partner, so the RoCE priority is lossless only
where both ends of each cable have PFC on it, the receiver to send pause and the sender to honour
it (IEEE 802.1Qbb). One end without it drops RoCE on that cable alone. For every cable LLDP
reports (lldpcli show neighbors, lldpd/lldpd) between a RoCE NIC and a switch, or between two
switches, each end is judged with host-pfc's and switch-pfc's rules (judge.HostPFC,
judge.SwitchPFC) on the RoCE priority; an end whose PFC was not collected is left to those checks.
The finding is information: each end's own finding (host-pfc, switch-pfc) carries the severity
and the fix, and this one names the cable and the NIC it leaves lossy, so that a gate counts one
defect once. (While every linked switch port is one of the checked ports, the two always agree.)`,
	Inputs: []Input{LLDP, NVConfig, ConfigDB, MlnxQoS},
	Run:    runLinkPFC,
}

// endPFC judges one end's PFC on the RoCE priority; known is false for
// an end that carries no RoCE or whose PFC was not collected.
func endPFC(f *model.Fabric, e model.LinkEnd) (j judge.Judgement, name string, known bool) {
	if sw, p := f.SwitchEnd(e); sw != nil {
		return judge.SwitchPFC(f.Policy, pfcOn(sw.PortQoS.At(p).PFC)), endName(e, p), true
	}
	if _, n := f.HostNICEnd(e); n != nil && n.QosFile != "" {
		return judge.HostPFC(f.Policy, pfcOn(n.PFC.All())), endName(e, ""), true
	}
	return judge.Judgement{}, "", false
}

func runLinkPFC(f *model.Fabric) []Finding {
	var out []Finding
	for _, l := range f.Links {
		ja, na, ka := endPFC(f, l.A)
		jb, nb, kb := endPFC(f, l.B)
		if !ka || !kb {
			continue
		}
		var bad []string
		// Only the RoCE priority missing (an error) breaks the link; PFC
		// also on another priority is host-pfc's and switch-pfc's warning.
		for _, e := range []struct {
			j    judge.Judgement
			name string
		}{{ja, na}, {jb, nb}} {
			if !e.j.OK && e.j.Severity == judge.Error {
				bad = append(bad, e.name+": "+e.j.Reason)
			}
		}
		if len(bad) == 0 {
			continue
		}
		out = append(out, Finding{
			Severity: judge.Info, Device: l.A.Device, Interface: l.A.Port,
			Message: fmt.Sprintf("link %s - %s is not lossless for RoCE: %s (%s); qoslint prints no command here: host-pfc and switch-pfc fix each end",
				na, nb, strings.Join(bad, "; "), linkSeen(l)),
			Expected: fmt.Sprintf("PFC on priority %d at both ends", f.Policy.RoCE.Priority),
			Actual:   strings.Join(bad, "; "),
			Source:   l.Source().Pos(),
		})
	}
	return append(out, lldpNotCollected(f, "PFC across links")...)
}
