package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var switchETS = &Check{
	ID:       "switch-ets",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Warning,
	Title:    "The RoCE traffic class gets its DWRR share and only the CNP class is strict",
	Doc: `Enhanced Transmission Selection is how a port divides its bandwidth under contention.
qos roce schedules "Traffic class 6 (CNP) - Strict", "Traffic class 3 (RoCE) - WRR 50%" and
"Traffic class 0 (Other traffic) - WRR 50%" (CumulusNetworks/docs content/cumulus-linux-518/
Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md, Default RoCE
Configuration), and NetQ's RoCE validation test 1, "RoCE classification and ETS", checks the ETS
bandwidth (content/cumulus-netq-53/Validate-Operations/Validation-Checks.md). A strict class is
served before every DWRR class (content/cumulus-linux-518/Layer-1-and-Switch-Ports/
Quality-of-Service/_index.md, Egress Scheduling), so any strict class other than the small CNP one
can starve RoCE, and a RoCE class scheduled strict starves everything else. Per port group, after
egress-scheduler profiles, the check wants the policy's RoCE traffic class in mode dwrr with at
least roce.min_bandwidth percent (50 by default, qos roce's share), and no strict class other than
the CNP priority's that a switch priority maps to (a class no priority maps to carries nothing).
Under lossy-multi-tc, whose documented profile gives the RoCE class 22%, the share is judged only
when the inventory writes roce.min_bandwidth. That the shares add up to at most 100% is
switch-ets-bandwidth's verdict and not repeated here; that the CNP class is strict is switch-cnp's.
Raising the RoCE share may need another class lowered, which is the operator's choice; demoting an
extra strict class needs a share the guide cannot pick, so qoslint prints no command for it.`,
	Inputs: []Input{NVConfig, ConfigDB},
	Run:    runSwitchETS,
}

func runSwitchETS(f *model.Fabric) []Finding {
	var out []Finding
	for _, sw := range f.ConfiguredSwitches() {
		for _, g := range sw.PortGroups() {
			if fd, ok := roceShare(f, sw, g); ok {
				out = append(out, fd)
			}
			out = append(out, extraStrict(f, sw, g)...)
		}
	}
	return out
}

// roceShare judges the RoCE traffic class's mode and share.
func roceShare(f *model.Fabric, sw *model.Switch, g model.PortGroup) (Finding, bool) {
	tc, min := f.Policy.RoCE.TrafficClass, judge.SwitchETSMinShare(f.Policy, sw.OS)
	mode, bw := g.Q.Sched[tc], g.Q.SchedBW[tc]
	prof := g.Q.SchedProfile.V
	j := judge.SwitchETSRoCE(f.Policy, sw.OS, prof, mode.V, bw.V)
	if j.OK {
		return Finding{}, false
	}
	fd := Finding{
		Severity: j.Severity, Device: sw.Name, Interface: g.Iface, Message: j.Reason,
		Expected: fmt.Sprintf("traffic-class %d dwrr, bw-percent ≥ %d", tc, max(min, 1)),
		Actual:   fmt.Sprintf("traffic-class %d %s, bw-percent %s", tc, why(mode), why(bw)),
	}
	if mode.V != "dwrr" {
		o, had := old(mode)
		fd.Source = at(mode.Origin, sw.ConfigFile)
		share := Setting{Aspect: QueueShare, Ports: portsOf(sw, g), Key: tc, Value: max(min, 1)}
		fd.Changes = []Change{
			nvSet(o, had, "dwrr", "qos", "egress-scheduler", prof, "traffic-class", strconv.Itoa(tc), "mode").with(share),
			nvSet("", false, strconv.Itoa(max(min, 1)), "qos", "egress-scheduler", prof, "traffic-class", strconv.Itoa(tc), "bw-percent").with(share),
		}
		return fd, true
	}
	o, had := old(bw)
	fd.Source = at(bw.Origin, sw.ConfigFile)
	fd.Changes = []Change{nvSet(o, had, strconv.Itoa(min), "qos", "egress-scheduler", prof, "traffic-class", strconv.Itoa(tc), "bw-percent").
		with(Setting{Aspect: QueueShare, Ports: portsOf(sw, g), Key: tc, Value: min})}
	return fd, true
}

// extraStrict reports the strict classes that carry traffic besides the
// CNP priority's and the RoCE class (roceShare reports that one).
func extraStrict(f *model.Fabric, sw *model.Switch, g model.PortGroup) []Finding {
	cnp := g.Q.TC[f.Policy.CNP.Priority].V
	var out []Finding
	for tc, mode := range g.Q.Sched {
		if tc == f.Policy.RoCE.TrafficClass {
			continue
		}
		var sps []int
		for sp, t := range g.Q.TC {
			if t.V == tc {
				sps = append(sps, sp)
			}
		}
		j := judge.SwitchETSStrict(g.Q.SchedProfile.V, tc, cnp, mode.V, sps)
		if j.OK {
			continue
		}
		out = append(out, Finding{
			Severity: j.Severity, Device: sw.Name, Interface: g.Iface, Message: j.Reason,
			Expected: fmt.Sprintf("only traffic-class %d strict", cnp),
			Actual:   fmt.Sprintf("traffic-class %d %s", tc, why(mode)),
			Source:   at(mode.Origin, sw.ConfigFile),
		})
	}
	return out
}
