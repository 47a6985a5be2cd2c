package checks

import (
	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

var switchRoCEMode = &Check{
	ID:       "switch-roce-mode",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Error,
	Title:    "RoCE QoS is enabled on every switch, in the mode the policy asks for",
	Doc: `NVUE's "qos roce" turns on the whole RoCE profile at once: trust pcp,dscp, DSCP 26 to
switch priority 3 and 48 to 6, PFC on priority 3, ECN on traffic classes 0 and 3, CNPs in a strict
queue. Without it a Cumulus switch trusts 802.1p only and has no PFC, so RoCE is best effort. In
lossy mode the switch keeps the marking but sends no pause frames, so RoCE drops packets under
incast unless the whole fabric is designed for lossy RoCE. Each mode is modelled from NVIDIA's own
tables: lossless and lossless-single-ipool (same classes, one shared ingress pool; accepted where the
policy says lossless), lossy, lossy-multi-tc (5.14+: its own DSCP map, traffic class = switch
priority, ECN on classes 1-3, DWRR weights, packet trimming, no PFC) and dci-1 (5.18+, Spectrum-4 and
later: traffic class 3 with PFC, traffic class 4 with ECN). A switch in another mode than the
policy's is an error when it loses PFC or changes the class layout (lossy-multi-tc), a warning
otherwise. The check also compares "nv show qos roce" with the configuration table by table
(mode, trust, PFC priorities and rx/tx, ECN classes and thresholds, SP to TC, the scheduler, the
RoCE buffer pools) and reports each difference at its own row: configuration not applied, or
changed since. Each checked port's "nv show interface <port> qos roce status" (roce-status/<port>.txt)
is compared the same way with that port's own configuration, its bound profiles applied, and the
finding names the port: mode, trust, PFC, ECN classes, its roce and cnp SP to TC rows with their
weights, and its pools (in NVUE's lossless layout, which pool holds switch priority 3 and traffic
class 3). Its ECN thresholds are not compared: NVIDIA says an interface-level view shows the
hardware-programmed value (159,744 bytes for 150,000 configured; the page's status example prints
153.00 KB for it) and publishes no rounding rule. A
checked port whose status is missing while others were collected is reported as not collected.`,
	Inputs: []Input{NVConfig, NVShowQoSRoCE, RoCEStatus},
	Run:    runSwitchRoCEMode,
}

func runSwitchRoCEMode(f *model.Fabric) []Finding {
	var out []Finding
	want := f.Policy.RoCE.Mode
	for _, sw := range f.ConfiguredSwitches() {
		r := sw.RoCE
		sk := sw.Syntax.StateKey()
		j := judge.RoCEMode(f.Policy, r.Enabled.V, r.Mode.V)
		switch {
		case j.OK:
		case !r.Enabled.V:
			on := nvSet("", false, sw.Syntax.OnOff(true), "qos", "roce", sk)
			if r.Enabled.Origin.IsDefault() {
				// qos roce was absent: undo by removing the whole object,
				// since its mere presence turns RoCE on.
				on.RollbackUnset = []string{"qos", "roce"}
			} else {
				on.Old, on.HasOld = sw.Syntax.OnOff(false), true
			}
			fix := []Change{on}
			fix = append(fix, modeChange(sw, want))
			out = append(out, Finding{
				Severity: j.Severity, Device: sw.Name,
				Message:  j.Reason,
				Expected: "qos roce " + want, Actual: "off, " + r.Enabled.Origin.String(),
				Source: at(r.Enabled.Origin, sw.ConfigFile), Changes: fix,
			})
		default:
			out = append(out, Finding{
				Severity: j.Severity, Device: sw.Name, Message: j.Reason,
				Expected: want, Actual: why(r.Mode),
				Source: at(r.Mode.Origin, sw.ConfigFile), Changes: []Change{modeChange(sw, want)},
			})
		}
		out = append(out, operDrift(sw)...)
	}
	return out
}

func modeChange(sw *model.Switch, want string) Change {
	o, had := old(sw.RoCE.Mode)
	return nvSet(o, had, want, "qos", "roce", "mode")
}

func pickPos(a, b source.Pos, file string) source.Pos {
	switch {
	case !a.IsZero():
		return a
	case !b.IsZero():
		return b
	}
	return source.Pos{File: file}
}
