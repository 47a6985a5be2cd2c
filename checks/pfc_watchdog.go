package checks

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var pfcWatchdog = &Check{
	ID:       "pfc-watchdog",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Warning,
	Title:    "Every lossless port has the PFC watchdog",
	Doc: `A PFC pause storm (a stuck NIC that pauses forever) "might propagate across the network and,
if it persists, can cause the network to stop forwarding traffic. PFC watchdog detects abnormal
back pressure ... and disables PFC temporarily"; the QoS guide's instruction is "Enable PFC
watchdog on the interfaces where you enable PFC" (CumulusNetworks/docs content/cumulus-linux-518/
Layer-1-and-Switch-Ports/Quality-of-Service/_index.md, PFC Watchdog). That is best practice, not
a requirement, so a port with PFC on and no watchdog is a warning. The watchdog is per physical
port: nv set interface <ports> qos pfc-watchdog (off by default; state disable turns it off;
Cumulus Linux 5.6 and later). "You cannot enable the watchdog on a bond ... but you can enable the
watchdog on a port that is a member of a bond": a lossless bond is judged on its members. A switch
whose RoCE mode is not the policy's lossless one is judged as the lossless switch switch-roce-mode's
fix makes it, so one apply converges. Where the watchdog is not set, the evidence is the line that
turns PFC on.`,
	Inputs: []Input{NVConfig, ConfigDB},
	Run:    runPFCWatchdog,
}

func runPFCWatchdog(f *model.Fabric) []Finding {
	var out []Finding
	for _, sw := range f.ConfiguredSwitches() {
		var ports []string
		// qos is each reported port's QoS: a bond member's is its bond's,
		// since QoS is set on the bond (NVUE rejects it on members) while
		// the watchdog goes on the members.
		qos := map[string]*model.QoS{}
		// A switch the policy's lossless RoCE mode will make lossless
		// (switch-roce-mode's fix) needs the watchdog in the same apply.
		toLossless := f.Policy.RoCE.Lossless() && sw.HasRoCEModes() && !sw.RoCE.Lossless()
		for _, p := range sw.Ports {
			q := sw.PortQoS.At(p)
			if q == nil || !lossless(q) && !toLossless {
				continue
			}
			members, bond := sw.Bonds[p]
			if !bond {
				members = []string{p}
			}
			for _, m := range members {
				ports = append(ports, m)
				qos[m] = q
			}
		}
		groups := groupByValue(ports, func(p string) model.Value[bool] { return watchdogOf(sw, p) },
			func(v model.Value[bool]) bool { return !judge.PFCWatchdog(true, v.V).OK })
		for _, g := range groups {
			fd := watchdogFinding(sw, g.v, g.ports)
			if g.v.Origin.IsDefault() {
				// No line says "no watchdog": the evidence is the line
				// that makes the ports lossless.
				fd.Source = at(losslessOrigin(sw, qos[g.ports[0]]), sw.ConfigFile)
				if q := qos[g.ports[0]]; !lossless(q) {
					fd.Message = "the policy's lossless RoCE mode turns PFC on here, and the PFC watchdog is off" + fd.Message[strings.Index(fd.Message, ":"):]
				}
			}
			out = append(out, fd)
		}
	}
	return out
}

// losslessOrigin is where a port's PFC comes from: the switch-priority
// line of its PFC profile, else the qos roce setting.
func losslessOrigin(sw *model.Switch, q *model.QoS) model.Origin {
	if q != nil {
		for _, on := range q.PFC {
			if on.V && !on.Origin.Pos().IsZero() {
				return on.Origin
			}
		}
	}
	if o := sw.RoCE.Mode.Origin; !o.Pos().IsZero() {
		return o
	}
	return sw.RoCE.Enabled.Origin
}

func watchdogOf(sw *model.Switch, p string) model.Value[bool] {
	if v, ok := sw.Flow.Watchdog.Get(p); ok {
		return v
	}
	return model.Defaulted(false, "not set on the port (off by default)")
}

func watchdogFinding(sw *model.Switch, v model.Value[bool], ports []string) Finding {
	iface := model.CompressNames(ports)
	fd := Finding{
		Severity: judge.Warning, Device: sw.Name, Interface: iface,
		Message: "PFC is on but the PFC watchdog is off: a pause storm from one link partner can stall the lossless class " +
			"across the fabric (NVIDIA: enable the watchdog where you enable PFC)",
		Expected: "qos pfc-watchdog",
		Actual:   "qos pfc-watchdog off" + originNote(v.Origin),
		Source:   at(v.Origin, sw.ConfigFile),
	}
	switch {
	case sw.Before(5, 6):
		fd.Message += fmt.Sprintf("; the watchdog needs Cumulus Linux %s or later and this switch runs %s: upgrade first, qoslint prints no command",
			model.WatchdogRelease, sw.Version)
	case v.Origin.IsDefault():
		fd.Changes = []Change{nvSet("", false, "", "interface", iface, "qos", "pfc-watchdog").with(Setting{Aspect: PFCWatchdog, Ports: ports, On: true})}
	default:
		path := []string{"interface", iface, "qos", "pfc-watchdog", "state"}
		fd.Changes = []Change{nvSet(model.NVUEBool(release(sw), false, path...), true, model.NVUEBool(release(sw), true, path...), path...).
			with(Setting{Aspect: PFCWatchdog, Ports: ports, On: true})}
	}
	return fd
}
