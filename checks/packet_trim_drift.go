package checks

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

// trimDrift compares `nv show system forwarding packet-trim` with the
// configuration, as operDrift compares `nv show qos roce`: each difference
// is a warning at the row of the output that shows it. The layouts are the
// examples of CumulusNetworks/docs content/cumulus-linux-514/ and -515/
// Layer-1-and-Switch-Ports/Quality-of-Service/Packet-Trimming.md.
func trimDrift(sw *model.Switch) []Finding {
	t := sw.Trim
	o := t.Oper
	if o == nil {
		return nil
	}
	var out []Finding
	// drift reports one row; wantWhy is the configuration's value with
	// its origin.
	drift := func(what, want, wantWhy, got string, at model.Origin) {
		out = append(out, Finding{
			Severity: judge.Warning, Device: sw.Name,
			Message:  fmt.Sprintf("the switch reports packet trimming %s %s but its configuration says %s"+notApplied, what, got, want),
			Expected: wantWhy, Actual: got,
			Source: pickPos(at.Pos(), at.Pos(), o.File),
		})
	}
	cfgAt := " (" + sw.ConfigFile + ")"
	switch {
	case o.AppliedState.Known && o.State.Known && o.AppliedState.V && !o.State.V:
		// "If packet trimming is not working, check the session-down-reason
		// field" (Packet-Trimming.md, Troubleshooting).
		reason := "no session-down-reason printed"
		if o.DownReason.Known {
			reason = "session-down-reason: " + o.DownReason.V
		}
		out = append(out, Finding{
			Severity: judge.Warning, Device: sw.Name,
			Message:  fmt.Sprintf("the switch applied packet trimming but runs it disabled (%s): configuration not applied", reason),
			Expected: "state enabled (operational)", Actual: "disabled, " + reason,
			Source: pickPos(o.DownReason.Origin.Pos(), o.State.Origin.Pos(), o.File),
		})
	case o.State.Known && o.State.V != t.Enabled.V:
		drift("state", onOff(t.Enabled.V), onOff(t.Enabled.V)+" ("+t.Enabled.Origin.String()+")", onOff(o.State.V), o.State.Origin)
	}
	if !t.Enabled.V || !o.State.Known || !o.State.V && !o.AppliedState.V {
		return out // nothing more to compare with a switch that does not trim
	}
	if o.Profile.Known && o.Profile.V != t.Profile.V && (o.Profile.V != "" || !t.Profile.Origin.IsDefault()) {
		// lossy-multi-tc's own show output is not published: an empty
		// profile row there is not taken for drift.
		drift("profile", orNone(t.Profile.V), orNone(t.Profile.V)+cfgAt, orNone(o.Profile.V), o.Profile.Origin)
	}
	switch {
	case o.PortLevel.Known && o.PortLevel.V != t.PortLevel.V:
		want := remarkText(t.PortLevel.V, t.DSCP)
		drift("remark dscp", want, want+cfgAt, remarkText(o.PortLevel.V, o.DSCP), o.PortLevel.Origin)
	case o.DSCP.Known && !t.PortLevel.V && o.DSCP.V != t.DSCP.V:
		drift("remark dscp", strconv.Itoa(t.DSCP.V), why(t.DSCP), strconv.Itoa(o.DSCP.V), o.DSCP.Origin)
	}
	for _, c := range []struct {
		what    string
		op, cfg model.Value[int]
	}{{"size", o.Size, t.Size}, {"switch-priority", o.SwitchPriority, t.SwitchPriority}} {
		if c.op.Known && c.cfg.Known && c.op.V != c.cfg.V {
			drift(c.what, strconv.Itoa(c.cfg.V), why(c.cfg), strconv.Itoa(c.op.V), c.op.Origin)
		}
	}
	// "The traffic class of the trimmed packet is internally derived from
	// the switch priority": the configuration's SP→TC map of that priority.
	if sp, ok := trimSP(sw); ok && o.TC.Known && sp.V >= 0 && sp.V < 8 && o.TC.V != sw.Global.TC[sp.V].V {
		tc := sw.Global.TC[sp.V]
		drift("traffic-class", strconv.Itoa(tc.V), fmt.Sprintf("switch-priority %d → traffic-class %s", sp.V, why(tc)), strconv.Itoa(o.TC.V), o.TC.Origin)
	}
	out = append(out, trimEligibilityDrift(sw)...)
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func remarkText(portLevel bool, d model.Value[int]) string {
	if portLevel {
		return "port-level"
	}
	if !d.Known {
		return "not known"
	}
	return strconv.Itoa(d.V)
}

// trimEligibilityDrift compares the eligibility table per traffic class on
// the ports the configuration names: the table lists every port of the
// switch under the default profile ("all ports on the switch"), which the
// configuration does not name, so a port is compared only when the
// configuration knows it, or when no profile makes every port eligible.
func trimEligibilityDrift(sw *model.Switch) []Finding {
	t, o := sw.Trim, sw.Trim.Oper
	if o.EligiblePos.IsZero() {
		return nil
	}
	known := map[string]bool{}
	for _, p := range trimPorts(sw) {
		known[p.phys] = true
	}
	for p := range t.Eligible {
		known[p] = true
	}
	shown := map[string]map[int]bool{}
	for tc, v := range o.Eligible {
		for _, p := range v.V {
			if shown[p] == nil {
				shown[p] = map[int]bool{}
			}
			shown[p][tc] = true
		}
	}
	type diff struct{ want, got string }
	groups := map[diff][]string{}
	var keys []diff
	add := func(p string, want, got []int) {
		d := diff{judge.PrioList(want), judge.PrioList(got)}
		if _, ok := groups[d]; !ok {
			keys = append(keys, d)
		}
		groups[d] = append(groups[d], p)
	}
	var ports []string
	for p := range known {
		ports = append(ports, p)
	}
	if len(t.AllPorts.V) == 0 {
		for p := range shown {
			if !known[p] {
				ports = append(ports, p)
			}
		}
	}
	model.SortNames(ports)
	for _, p := range ports {
		want := slices.Clone(t.EligibleTCs(p).V)
		var got []int
		for tc := range shown[p] {
			got = append(got, tc)
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(want, got) {
			add(p, want, got)
		}
	}
	var out []Finding
	for _, d := range keys {
		ifaces := model.CompressNames(groups[d])
		out = append(out, Finding{
			Severity: judge.Warning, Device: sw.Name, Interface: ifaces,
			Message:  fmt.Sprintf("the switch reports packet trimming eligibility traffic-class %s on %s but its configuration says %s"+notApplied, d.got, ifaces, d.want),
			Expected: "traffic-class " + d.want + " (" + sw.ConfigFile + ")", Actual: "traffic-class " + d.got,
			Source: o.EligiblePos,
		})
	}
	return out
}
