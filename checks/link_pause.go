package checks

import (
	"fmt"
	"slices"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var linkPause = &Check{
	ID:       "link-pause",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Error,
	Title:    "No port has link pause and PFC together",
	Doc: `Link pause (IEEE 802.3x) stops all traffic on a link; PFC pauses one priority. "You can not
configure link pause and PFC on the same port", and "NVIDIA recommends that you use Priority Flow
Control (PFC) instead of link pause" (CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-
Switch-Ports/Quality-of-Service/_index.md, Flow Control and Link Pause). Link pause is bound with
nv set interface <ports> qos link-pause profile <profile> (5.4 and later, NVUE command
reference). A port with a link-pause binding whose PFC profile pauses any priority (qos roce in a
lossless mode puts PFC on every port) is an error; the fix removes the link-pause binding. A bond
member is judged with its bond's PFC.`,
	Inputs: []Input{NVConfig},
	Run:    runLinkPause,
}

func runLinkPause(f *model.Fabric) []Finding {
	var out []Finding
	for _, sw := range f.ConfiguredSwitches() {
		var ports []string
		for _, p := range sw.Ports {
			ports = append(ports, p)
			ports = append(ports, sw.Bonds[p]...)
		}
		pfcOf := func(p string) *model.QoS {
			if q, ok := sw.PortQoS.Get(p); ok {
				return q
			}
			for bond, ms := range sw.Bonds {
				if slices.Contains(ms, p) {
					return sw.PortQoS.At(bond)
				}
			}
			return nil
		}
		groups := groupByValue(ports, func(p string) model.Value[string] { return sw.Flow.LinkPause[p] },
			func(v model.Value[string]) bool { return v.Known })
		for _, g := range groups {
			var both []string
			for _, p := range g.ports {
				if q := pfcOf(p); q != nil && !judge.LinkPause(g.v.Known, lossless(q)).OK {
					both = append(both, p)
				}
			}
			if len(both) == 0 {
				continue
			}
			out = append(out, linkPauseFinding(sw, g.v, both, pfcOf(both[0])))
		}
	}
	return out
}

func linkPauseFinding(sw *model.Switch, v model.Value[string], ports []string, q *model.QoS) Finding {
	iface := model.CompressNames(ports)
	bound, path := "qos link-pause", []string{"interface", iface, "qos", "link-pause"}
	if v.V != "" {
		bound += " profile " + v.V
		path = append(path, "profile")
	}
	var prios []int
	for sp, on := range q.PFC {
		if on.V {
			prios = append(prios, sp)
		}
	}
	return Finding{
		Severity: judge.Error, Device: sw.Name, Interface: iface,
		Message: fmt.Sprintf("link pause (%s) and PFC on switch-priority %s are on the same port: "+
			"Cumulus Linux does not support link pause and PFC together", bound, judge.PrioList(prios)),
		Expected: "PFC only (no qos link-pause)",
		Actual:   bound + originNote(v.Origin),
		Source:   at(v.Origin, sw.ConfigFile),
		Changes:  []Change{nvUnset(v.V, path...)},
	}
}
