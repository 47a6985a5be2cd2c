package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var switchDSCPMap = &Check{
	ID:       "switch-dscp-map",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Error,
	Title:    "Every switch maps the RoCE DSCP to the RoCE switch priority",
	Doc: `A switch that trusts DSCP turns the DSCP into a switch priority through its mapping
profile; everything else (PFC, the egress queue, ECN) hangs off that priority. With qos roce the
default map is DSCP>>3, so DSCP 26 lands in priority 3. One explicit "qos mapping ... dscp 26
switch-priority 0", on the default-global profile or a profile bound to some ports, silently moves
RoCE into a lossy priority on that switch only. The check compares each port group's map with the
policy for every RoCE DSCP, and compares the configuration with the operational table of "nv show
qos roce" where it was collected, and each port's map with the roce and cnp rows of its "nv show
interface <port> qos roce status".`,
	Inputs: []Input{NVConfig, ConfigDB, NVShowQoSRoCE, RoCEStatus},
	Run:    runSwitchDSCPMap,
}

func runSwitchDSCPMap(f *model.Fabric) []Finding {
	var out []Finding
	p := f.Policy.RoCE
	for _, sw := range f.ConfiguredSwitches() {
		for _, g := range sw.ProfileGroups(model.MappingProfile) {
			for _, d := range p.DSCP {
				v := g.Q.DSCP.At(d)
				j := judge.SwitchDSCP(f.Policy, d, v.V)
				if j.OK {
					continue
				}
				o, had := old(v)
				out = append(out, Finding{
					Severity: j.Severity, Device: sw.Name, Interface: g.Iface,
					Message:  j.Reason,
					Expected: fmt.Sprintf("DSCP %d → switch-priority %d", d, p.Priority),
					Actual:   fmt.Sprintf("DSCP %d → switch-priority %s", d, why(v)),
					Source:   at(v.Origin, sw.ConfigFile),
					Changes: []Change{nvSet(o, had, strconv.Itoa(p.Priority), "qos", "mapping", g.Q.MappingProfile.V, "dscp", strconv.Itoa(d), "switch-priority").
						with(Setting{Aspect: DSCPPriority, Ports: portsOf(sw, g), Key: d, Value: p.Priority})},
				})
			}
		}
		out = append(out, operDSCPDrift(sw, append(append([]int(nil), p.DSCP...), f.Policy.CNP.DSCP))...)
	}
	return out
}

// operDSCPDrift reports where an operational view disagrees with its
// configured map for the RoCE and CNP DSCPs, at the row of the table that
// lists the DSCP: `nv show qos roce` against default-global, and each
// port's `nv show interface <port> qos roce status` (its roce and cnp rows)
// against the port's own mapping profile.
func operDSCPDrift(sw *model.Switch, dscps []int) []Finding {
	if !sw.RoCE.Enabled.V {
		return nil
	}
	views, missing := operViews(sw)
	var out []Finding
	for _, v := range views {
		o := v.o
		if o.DSCPToSP == nil {
			continue
		}
		for _, d := range dscps {
			if d < 0 || d >= len(o.DSCPToSP) {
				continue
			}
			op := o.DSCPToSP[d].Value(o.File)
			cfg := v.q.DSCP.At(d)
			if !op.Known || op.V == cfg.V {
				continue
			}
			out = append(out, Finding{
				Severity: judge.Warning, Device: sw.Name, Interface: v.iface,
				Message: fmt.Sprintf("%s maps DSCP %d to switch-priority %d but its configuration says %d"+notApplied,
					v.who(), d, op.V, cfg.V),
				Expected: fmt.Sprintf("DSCP %d → switch-priority %s", d, why(cfg)),
				Actual:   fmt.Sprintf("DSCP %d → switch-priority %d", d, op.V),
				Source:   pickPos(op.Origin.Pos(), o.MappingPos(), o.File),
			})
		}
	}
	if len(missing) > 0 {
		out = append(out, notCollected(sw.Name, missing, "the ports' operational DSCP map"))
	}
	return out
}
