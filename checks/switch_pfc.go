package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var switchPFC = &Check{
	ID:       "switch-pfc",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Error,
	Title:    "PFC is on for the RoCE switch priority, and only for it, in both directions",
	Doc: `Lossless RoCE needs priority flow control on exactly the switch priority that carries it:
the switch must send pause frames (tx) when its ingress buffer for that priority fills, and honour
the ones it receives (rx). PFC on the wrong priority pauses traffic that can afford drops while
RoCE is dropped; PFC on extra priorities costs headroom buffer and spreads pause storms. A PFC
profile's switch-priority set replaces the RoCE default, so moving RoCE takes one command, and so
does breaking it. Skipped when the policy designs the fabric lossy.`,
	Inputs: []Input{NVConfig, ConfigDB},
	Run:    runSwitchPFC,
}

func runSwitchPFC(f *model.Fabric) []Finding {
	if !judge.PFCRequired(f.Policy) {
		return nil
	}
	var out []Finding
	want := f.Policy.RoCE.Priority
	for _, sw := range f.ConfiguredSwitches() {
		for _, g := range sw.ProfileGroups(model.PFCProfile) {
			q := g.Q
			var on []int
			for p, v := range q.PFC {
				if v.V {
					on = append(on, p)
				}
			}
			prof := q.PFCProfile.V
			missing := !q.PFC[want].V
			if j := judge.SwitchPFC(f.Policy, on); !j.OK {
				var fix []Change
				if missing {
					fix = append(fix, Change{Kind: NVUE, Path: []string{"qos", "pfc", prof, "switch-priority", strconv.Itoa(want)}, RollbackUnset: []string{"qos", "pfc", prof, "switch-priority", strconv.Itoa(want)}}.
						with(Setting{Aspect: PFCPriority, Ports: portsOf(sw, g), Key: want, On: true}))
				}
				for _, p := range judge.Without(on, want) {
					fix = append(fix, nvUnset("", "qos", "pfc", prof, "switch-priority", strconv.Itoa(p)).
						with(Setting{Aspect: PFCPriority, Ports: portsOf(sw, g), Key: p}))
				}
				out = append(out, Finding{
					Severity: j.Severity, Device: sw.Name, Interface: g.Iface, Message: j.Reason,
					Expected: fmt.Sprintf("PFC on switch-priority %d", want),
					Actual:   "PFC on " + judge.PrioList(on) + originNote(q.PFC[want].Origin),
					Source:   at(q.PFC[want].Origin, sw.ConfigFile), Changes: fix,
				})
			}
			for _, dir := range []struct {
				name string
				v    model.Value[bool]
			}{{"rx", q.PFCRx}, {"tx", q.PFCTx}} {
				j := judge.SwitchPFCDirection(f.Policy, dir.name, dir.v.V)
				if j.OK {
					continue
				}
				o, had := old(dir.v)
				path := []string{"qos", "pfc", prof, dir.name}
				if had {
					o = model.NVUEBool(release(sw), false, path...)
				}
				out = append(out, Finding{
					Severity: j.Severity, Device: sw.Name, Interface: g.Iface,
					Message:  j.Reason,
					Expected: "enable", Actual: why(dir.v),
					Source:  at(dir.v.Origin, sw.ConfigFile),
					Changes: []Change{nvSet(o, had, model.NVUEBool(release(sw), true, path...), path...)},
				})
			}
		}
	}
	return out
}

func originNote(o model.Origin) string {
	if s := o.String(); s != "" {
		return " (" + s + ")"
	}
	return ""
}
