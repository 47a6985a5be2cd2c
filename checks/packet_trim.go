package checks

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

var packetTrim = &Check{
	ID:       "packet-trim",
	Kind:     KindConfig,
	Devices:  Switches,
	Applies:  appliesTrim(true),
	Severity: judge.Error,
	Title:    "Packet trimming runs where it is supported and trims the RoCE traffic classes",
	Doc: `Packet trimming ("nv set system forwarding packet-trim state enabled", "profile
packet-trim-default", or "nv set qos roce mode lossy-multi-tc", which "uses the default packet
trimming profile settings") makes a switch cut a packet it would drop for want of buffer and
forward the rest, so the receiver learns of the loss at once. Sources: CumulusNetworks/docs
content/cumulus-linux-514/, -515/ and -519/Layer-1-and-Switch-Ports/Quality-of-Service/
Packet-Trimming.md and content/nvue-reference/Set-and-Unset-Commands/Packet-Trimming.md.
The check reports, on a switch whose configuration trims:
- a platform older than Spectrum-4, an error: "Cumulus Linux supports packet trimming on
  Spectrum-4 and later" (5.14: "on the Spectrum-4 and Spectrum-5 switch"); a platform neither
  the configuration header nor the inventory's platform names is said, in the notes, to be not
  checked;
- egress eligibility on a bond or another interface that is not a physical port, an error:
  "You can only configure physical ports; if you want to trim packets egressing bonds, specify
  the bond slave ports";
- a RoCE port whose eligibility lacks the lossy traffic class the policy's RoCE DSCP reaches
  there (DSCP -> the port's DSCP map -> switch priority without PFC -> traffic class), a
  warning: eligibility is "the egress port and traffic class from which to trim and recirculate
  dropped traffic", so RoCE packets on that class are dropped, not trimmed ("For lossy packets,
  ... it is dropped without any notification to the destination host", 5.14); a class with PFC
  is paused instead of dropped and is not judged. Eligibility is off unless set ("By
  default, port eligibility is disabled for all ports and traffic classes", 5.14); the default
  profile "Sets the eligibility to all ports on the switch with traffic class 1, 2, and 3";
- the trimmed packets' traffic class ("internally derived from the switch priority") scheduled
  DWRR 0% on an eligible port, a warning ("If you do not specify a value for an egress queue,
  Cumulus Linux uses a DWRR value of 0 (no egress scheduling)", content/nvue-reference/
  Set-and-Unset-Commands/QoS.md, egress-scheduler bw-percent);
- a WJH channel monitoring buffer drops, an error up to CL 5.17: "Do not enable packet trimming
  when the NetQ WJH agent is running or with WJH monitor buffer drops configured" (5.15; 5.14
  "You cannot enable"); the 5.19 page has the sentence commented out ("REMOVED FROM 5.18"), so
  5.18 and later are not judged, and an unknown release is a warning. Whether the NetQ WJH
  agent runs is not in the configuration: not verified.
Size out of 256-1024 bytes or not a multiple of 4 is an input error ("You can specify a value
between 256 and 1024; the value must be a multiple of 4"). When nv show system forwarding
packet-trim was collected, it is compared with the configuration (state, profile, remark DSCP,
switch priority, size, the trimmed packets' traffic class, eligibility per traffic class) and
each difference is a warning at its row, as is a session the switch reports down with its
session-down-reason ("If packet trimming is not working, check the session-down-reason field").`,
	Inputs: []Input{NVConfig, NVShowPacketTrim},
	Run:    runPacketTrim,
}

// trimPort is a physical port packet trimming judges, with the checked
// port (itself, or its bond) whose QoS it egresses with.
type trimPort struct{ phys, checked string }

// trimPorts are the physical ports behind the switch's checked ports,
// the service port and its bond's members left out: "do not configure
// packet trimming port eligibility ... on the service port".
func trimPorts(sw *model.Switch) []trimPort {
	skip := map[string]bool{}
	if sp := sw.Trim.ServicePort; sp.Known {
		skip[sp.V] = true
		for _, m := range sw.Bonds[sp.V] {
			skip[m] = true
		}
	} else if o := sw.Trim.Oper; o != nil && o.ServicePort.Known {
		skip[o.ServicePort.V] = true
	}
	var out []trimPort
	for _, p := range sw.Ports {
		phys := []string{p}
		if ms, ok := sw.Bonds[p]; ok {
			phys = ms
		}
		for _, m := range phys {
			if !skip[m] {
				out = append(out, trimPort{m, p})
			}
		}
	}
	return out
}

// trimming returns the switches whose configuration turns packet
// trimming on.
func trimming(f *model.Fabric) []*model.Switch {
	var out []*model.Switch
	for _, sw := range f.ConfiguredSwitches() {
		if sw.Trim != nil && sw.Trim.Enabled.V {
			out = append(out, sw)
		}
	}
	return out
}

func runPacketTrim(f *model.Fabric) []Finding {
	var out []Finding
	for _, sw := range f.ConfiguredSwitches() {
		if sw.Trim == nil {
			continue
		}
		out = append(out, trimDrift(sw)...)
		if !sw.Trim.Enabled.V {
			continue
		}
		if sw.Trim.Oper == nil {
			out = append(out, notCollected(sw.Name, []string{layout.PacketTrimShowFile + " not collected"}, "packet trimming as the switch runs it"))
		}
		out = append(out, trimPlatform(sw)...)
		out = append(out, trimNotPhysical(sw)...)
		out = append(out, trimCoverage(f, sw)...)
		out = append(out, trimSchedule(sw)...)
		out = append(out, trimWJH(sw)...)
	}
	return out
}

// trimOff is the documented way to stop trimming: "To disable packet
// trimming, run the nv set system forwarding packet-trim state disabled
// command."
func trimOff(sw *model.Switch) Change {
	o, had := old(sw.Trim.Enabled)
	if had {
		o = sw.Syntax.OnOff(sw.Trim.Enabled.V)
	}
	return nvSet(o, had, sw.Syntax.OnOff(false), "system", "forwarding", "packet-trim", sw.Syntax.StateKey())
}

func trimPlatform(sw *model.Switch) []Finding {
	t := sw.Trim
	gen := model.SpectrumGen(sw.Flow.ASIC)
	if gen == 0 || gen >= 4 {
		return nil // not known: the model's note says so (notePlatform)
	}
	return []Finding{{
		Severity: judge.Error, Device: sw.Name,
		Message: fmt.Sprintf("packet trimming is on, but platform %s is a %s: \"Cumulus Linux supports packet trimming on Spectrum-4 and later\"",
			sw.Flow.Platform, sw.Flow.ASIC),
		Expected: "Spectrum-4 or later, or packet trimming off", Actual: fmt.Sprintf("%s (%s), packet trimming %s", sw.Flow.Platform, sw.Flow.ASIC, why(t.Enabled)),
		Source: at(t.Enabled.Origin, sw.ConfigFile), Changes: []Change{trimOff(sw)},
	}}
}

// eligibilityPath is `interface <port> packet-trim egress-eligibility
// traffic-class <tc>`, a collection member.
func eligibilityPath(port string, tc int) []string {
	return []string{"interface", port, "packet-trim", "egress-eligibility", "traffic-class", strconv.Itoa(tc)}
}

func trimNotPhysical(sw *model.Switch) []Finding {
	var out []Finding
	for _, np := range sw.Trim.NotPhysical {
		var fix []Change
		for _, tc := range np.TCs.V {
			fix = append(fix, nvUnset("", eligibilityPath(np.Port, tc)...))
			if ms := sw.Bonds[np.Port]; len(ms) > 0 {
				fix = append(fix, nvSet("", false, "", eligibilityPath(model.CompressNames(ms), tc)...))
			}
		}
		want := "eligibility on physical ports only"
		if ms := sw.Bonds[np.Port]; len(ms) > 0 {
			want = "eligibility on the bond's members " + model.CompressNames(ms)
		}
		out = append(out, Finding{
			Severity: judge.Error, Device: sw.Name, Interface: np.Port,
			Message: fmt.Sprintf("packet trimming egress eligibility is set on %s, which is %s: \"You can only configure physical ports; if you want to trim packets egressing bonds, specify the bond slave ports\"",
				np.Port, np.What),
			Expected: want, Actual: fmt.Sprintf("traffic-class %s on %s", judge.PrioList(slices.Clone(np.TCs.V)), np.Port),
			Source: np.TCs.Origin.Pos(), Changes: fix,
		})
	}
	return out
}

// roceTCs are the lossy traffic classes the policy's RoCE DSCPs reach on
// a port, with the DSCPs behind each. A priority with PFC is paused, not
// dropped, and trimming is for what would be dropped: "For lossy packets,
// if a packet in the headroom does not move into the switch shared buffers
// due to congestion in the lossy queue, it is dropped without any
// notification to the destination host" (CL 5.14 Packet-Trimming.md).
func roceTCs(f *model.Fabric, q *model.QoS) map[int][]int {
	out := map[int][]int{}
	for _, d := range f.Policy.RoCE.DSCP {
		if d < 0 || d > 63 {
			continue
		}
		sp := q.DSCP.At(d).V
		if sp < 0 || sp > 7 || q.PFC[sp].V {
			continue
		}
		tc := q.TC[sp].V
		out[tc] = append(out[tc], d)
	}
	return out
}

func trimCoverage(f *model.Fabric, sw *model.Switch) []Finding {
	t := sw.Trim
	ports := trimPorts(sw)
	if len(ports) == 0 {
		return []Finding{{
			Severity: judge.Info, Device: sw.Name,
			Message: "packet trimming is on, but the configuration names no RoCE port: which ports trim RoCE traffic is not verified",
			Actual:  "no port", Source: at(t.Enabled.Origin, sw.ConfigFile),
		}}
	}
	type key struct {
		missing string
		origin  string
	}
	groups := map[key][]string{}
	var keys []key
	detail := map[key]string{}
	eligAt := map[key]model.Value[[]int]{}
	for _, p := range ports {
		q := sw.PortQoS.At(p.checked)
		if q == nil {
			continue
		}
		el := t.EligibleTCs(p.phys)
		var miss []int
		var why []string
		for tc, ds := range roceTCs(f, q) {
			if !slices.Contains(el.V, tc) {
				miss = append(miss, tc)
				why = append(why, fmt.Sprintf("DSCP %s → traffic-class %d", judge.PrioList(slices.Clone(ds)), tc))
			}
		}
		if len(miss) == 0 {
			continue
		}
		slices.Sort(miss)
		slices.Sort(why)
		k := key{judge.PrioList(miss), el.Origin.String()}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
			detail[k] = strings.Join(why, ", ")
			eligAt[k] = el
		}
		groups[k] = append(groups[k], p.phys)
	}
	var out []Finding
	for _, k := range keys {
		ifaces := model.CompressNames(groups[k])
		var fix []Change
		for _, tc := range strings.Split(k.missing, ",") {
			fix = append(fix, nvSet("", false, "", "interface", ifaces, "packet-trim", "egress-eligibility", "traffic-class", tc))
		}
		el := eligAt[k]
		out = append(out, Finding{
			Severity: judge.Warning, Device: sw.Name, Interface: ifaces,
			Message: fmt.Sprintf("packet trimming is on, but RoCE's traffic-class %s is not trim-eligible on %s (%s): RoCE packets there are dropped, not trimmed",
				k.missing, ifaces, detail[k]),
			Expected: "egress eligibility on traffic-class " + k.missing,
			Actual:   fmt.Sprintf("traffic-class %s (%s)", judge.PrioList(slices.Clone(el.V)), el.Origin),
			Source:   at(el.Origin, sw.ConfigFile), Changes: fix,
		})
	}
	return out
}

// trimSP is the trimmed packets' switch priority: the configuration's, or
// the one the switch reports when the configuration's is not known.
func trimSP(sw *model.Switch) (model.Value[int], bool) {
	t := sw.Trim
	if t.SwitchPriority.Known {
		return t.SwitchPriority, true
	}
	if t.Oper != nil && t.Oper.SwitchPriority.Known {
		return t.Oper.SwitchPriority, true
	}
	return model.Value[int]{}, false
}

func trimSchedule(sw *model.Switch) []Finding {
	t := sw.Trim
	sp, ok := trimSP(sw)
	if !ok || sp.V < 0 || sp.V > 7 {
		return []Finding{{
			Severity: judge.Info, Device: sw.Name,
			Message: "packet trimming's switch priority is not configured and its default is not documented: the trimmed packets' traffic class is not verified",
			Actual:  "not known", Source: at(t.Enabled.Origin, sw.ConfigFile),
		}}
	}
	tc := sw.Global.TC[sp.V].V
	var zero []string
	var sched model.Value[string]
	for _, p := range trimPorts(sw) {
		q := sw.PortQoS.At(p.checked)
		if q == nil || tc < 0 || tc > 7 || len(t.EligibleTCs(p.phys).V) == 0 {
			continue
		}
		if q.Sched[tc].V == "dwrr" && q.SchedBW[tc].V == 0 {
			zero = append(zero, p.phys)
			sched = q.Sched[tc]
		}
	}
	if len(zero) == 0 {
		return nil
	}
	ifaces := model.CompressNames(zero)
	return []Finding{{
		Severity: judge.Warning, Device: sw.Name, Interface: ifaces,
		Message: fmt.Sprintf("trimmed packets take switch-priority %d, traffic-class %d, which %s schedules DWRR 0%% (no egress scheduling): they wait behind every other class; qoslint prints no command: the class and its share are a design choice",
			sp.V, tc, ifaces),
		Expected: fmt.Sprintf("traffic-class %d with a DWRR share, or strict", tc),
		Actual:   fmt.Sprintf("dwrr 0%% (%s); switch-priority %s", sched.Origin, why(sp)),
		Source:   at(sp.Origin, sw.ConfigFile),
	}}
}

func trimWJH(sw *model.Switch) []Finding {
	t := sw.Trim
	if len(t.WJHBuffer) == 0 || !sw.Before(5, 18) && model.Release(sw.Version) != "" {
		return nil
	}
	sev, rel := judge.Error, "CL "+model.Release(sw.Version)
	if model.Release(sw.Version) == "" {
		sev, rel = judge.Warning, "release unknown; the CL 5.14 and 5.15 guides forbid it, the 5.19 guide no longer says so"
	}
	var out []Finding
	for _, ch := range t.WJHBuffer {
		out = append(out, Finding{
			Severity: sev, Device: sw.Name,
			Message: fmt.Sprintf("packet trimming is on and WJH channel %s monitors buffer drops (%s): \"Do not enable packet trimming when the NetQ WJH agent is running or with WJH monitor buffer drops configured\"; whether the NetQ WJH agent runs is not verified",
				ch.V, rel),
			Expected: "no WJH buffer drop monitoring while packet trimming is on",
			Actual:   "wjh channel " + ch.V + " trigger buffer", Source: ch.Origin.Pos(),
			Changes: []Change{nvUnset("", "system", "wjh", "channel", ch.V, "trigger", "buffer")},
		})
	}
	return out
}
