package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/collectors/source"
	"github.com/qoslint/qoslint/model"
)

var switchRoCEMode = &Check{
	ID:       "switch-roce-mode",
	Device:   "switch",
	Severity: Error,
	Title:    "RoCE QoS is enabled on every switch, in the mode the policy asks for",
	Doc: `NVUE's "qos roce" turns on the whole RoCE profile at once: trust pcp,dscp, DSCP 26 to
switch priority 3 and 48 to 6, PFC on priority 3, ECN on traffic classes 0 and 3, CNPs in a strict
queue. Without it a Cumulus switch trusts 802.1p only and has no PFC, so RoCE is best effort. In
lossy mode the switch keeps the marking but sends no pause frames, so RoCE drops packets under
incast unless the whole fabric is designed for lossy RoCE. The check also compares the configured
mode with what "nv show qos roce" reports, which catches configuration that was never applied.`,
	Run: runSwitchRoCEMode,
}

func runSwitchRoCEMode(f *model.Fabric) []Finding {
	var out []Finding
	want := f.Policy.RoCE.Mode
	for _, sw := range configured(f) {
		r := sw.RoCE
		sk := sw.Syntax.StateKey()
		switch {
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
				Severity: Error, Device: sw.Name,
				Message:  "RoCE QoS is off: the switch trusts 802.1p only and has no PFC, RoCE is best effort",
				Expected: "qos roce " + want, Actual: "off, " + r.Enabled.Origin.String(),
				Source: at(r.Enabled.Origin, sw.ConfigFile), Changes: fix,
			})
		case r.Lossless() != (want == "lossless"):
			sev, msg := Error, fmt.Sprintf("RoCE mode is %s: no PFC, RoCE drops packets under congestion", r.Mode.V)
			if want == "lossy" {
				sev, msg = Warning, fmt.Sprintf("RoCE mode is %s but the policy designs the fabric lossy", r.Mode.V)
			}
			out = append(out, Finding{
				Severity: sev, Device: sw.Name, Message: msg,
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

// operDrift compares `nv show qos roce` with the configuration.
func operDrift(sw *model.Switch) []Finding {
	o := sw.Oper
	if o == nil {
		return nil
	}
	var out []Finding
	cfgMode := "off"
	if sw.RoCE.Enabled.V {
		cfgMode = sw.RoCE.Mode.V
	}
	operMode := ""
	switch {
	case o.Enabled.Known && !o.Enabled.V:
		operMode = "off"
	case o.Mode.Known:
		operMode = o.Mode.V
	}
	if operMode != "" && operMode != cfgMode {
		out = append(out, Finding{
			Severity: Warning, Device: sw.Name,
			Message:  fmt.Sprintf("the switch runs RoCE %s but its configuration says %s: configuration not applied, or changed since", operMode, cfgMode),
			Expected: cfgMode + " (" + sw.ConfigFile + ")", Actual: operMode,
			Source: pickPos(o.Mode.Origin.Pos, o.Enabled.Origin.Pos, o.File),
		})
	}
	return out
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
