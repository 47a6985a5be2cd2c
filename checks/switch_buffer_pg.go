package checks

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var switchBufferPG = &Check{
	ID:       "switch-buffer-pg",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Error,
	Title:    "Every PFC priority's priority group has a lossless buffer profile (SONiC)",
	Doc: `On SONiC the headroom that absorbs the frames in flight after a pause is configured per port
and priority group in BUFFER_PG; traffic of a PFC priority waits in the priority group
TC_TO_PRIORITY_GROUP_MAP gives it. The check judges, for each PFC priority of each checked port
(PORT_QOS_MAP pfc_enable):
- an entry that names a BUFFER_PROFILE the configuration does not define: orchagent waits for it
  and applies nothing (sonic-net/sonic-swss orchagent/bufferorch.cpp, processPriorityGroup,
  task_need_retry), so the priority group has no lossless headroom (error);
- a profile without an xoff, which holds no headroom (error);
- in the dynamic buffer model (DEVICE_METADATA buffer_model dynamic, NVIDIA's default), no entry:
  buffermgrd computes headroom only for "the lossless PGs configured on this port"
  (cfgmgr/buffermgrdyn.cpp), so PFC pauses a priority that has none (error);
- in the traditional model buffermgrd writes the lossless profile itself from the port's speed,
  CABLE_LENGTH and pg_profile_lookup.ini (cfgmgr/buffermgr.cpp, doSpeedUpdateTask); without an
  entry the check errs where it will not: no cable length ("Cable length is not set") or 0m
  ("Not creating/updating PG profile"); and warns for a length other than 5m, 40m and 300m, the
  only ones NVIDIA's SONiC lookup tables carry (CumulusNetworks/docs content/sonic-202012/
  System-Configuration/QoS-and-Buffers.md), for which no profile is created at all;
- a lossless profile buffermgrd named for the speed and cable it sized (pg_lossless_<speed>_
  <cable>_profile) on a port of another speed or CABLE_LENGTH: a PG keeps its profile when the
  cable length changes (sonic-net/sonic-buildimage#1602, sonic-net/sonic-swss#4004), so headroom
  sized for a shorter cable or a slower port is an error, for a longer or faster one a warning
  (buffer wasted).
NVUE switches size their buffers by the RoCE mode and the traffic pools (switch-buffer-pool).`,
	Inputs:  []Input{ConfigDB},
	Applies: appliesBufferPG,
	Run:     runSwitchBufferPG,
}

func appliesBufferPG(f *model.Fabric, device string) (SkipKind, string) {
	switch sw := f.SwitchByName(device); {
	case sw == nil:
	case sw.ConfigFile == "":
		return SkipNotCollected, "the switch's configuration was not read (not collected, or an input error)"
	case sw.Buffers == nil:
		return SkipNotApplicable, "the switch OS does not configure buffers per priority group (NVUE: switch-buffer-pool)"
	}
	return "", ""
}

// tradCables are the cable lengths of NVIDIA's SONiC pg_profile_lookup.ini
// tables (sonic-net/sonic-buildimage device/mellanox/*/pg_profile_lookup.ini;
// "only 5m, 40m and 300m", QoS-and-Buffers.md).
var tradCables = []int{5, 40, 300}

// TradCable is the cable length a switch's lossless ports are sized for
// when they have metres of cable: on a Spectrum switch in SONiC's
// traditional buffer model, the shortest length of the lookup tables that
// covers it (the longest when none does); metres elsewhere.
func TradCable(sw *model.Switch, metres int) int {
	if sw.Buffers == nil || sw.Buffers.Model.V == "dynamic" || model.SpectrumGen(sw.Flow.ASIC) == 0 {
		return metres
	}
	for _, c := range tradCables {
		if c >= metres {
			return c
		}
	}
	return tradCables[len(tradCables)-1]
}

type pgProblem struct {
	sev      judge.Severity
	msg      string
	expected string
	actual   string
	port     string
	src      model.Origin
	// fix is the setting that mends it, for the problem's ports.
	fix Setting
}

func runSwitchBufferPG(f *model.Fabric) []Finding {
	var out []Finding
	for _, sw := range f.ConfiguredSwitches() {
		if sw.Buffers == nil {
			continue
		}
		var probs []pgProblem
		for _, port := range sw.Ports {
			for _, lp := range sw.Buffers.Lossless[port] {
				if p, ok := bufferPGProblem(sw, port, lp, f.Policy.PFC.CableLength); ok {
					probs = append(probs, p)
				}
			}
		}
		out = append(out, groupPGProblems(sw, probs)...)
	}
	return out
}

// bufferPGProblem judges one lossless PG; policyCable is the length a port
// without one is sized for (the policy's longest cable, pfc-cable-length).
func bufferPGProblem(sw *model.Switch, port string, lp model.LosslessPG, policyCable int) (pgProblem, bool) {
	bs := sw.Buffers
	e := bs.PG(port, lp.PG)
	// The texts are made only for a problem: a clean SONiC switch judges
	// every lossless PG of every port (BenchmarkLintSwitches).
	what := func() string {
		return fmt.Sprintf("PFC priority %d is on, but its priority group %d", lp.Priority, lp.PG)
	}
	want := func() string { return fmt.Sprintf("BUFFER_PG|%s|%d with a lossless profile", port, lp.PG) }
	pos := model.At(lp.Pos)
	pg := Setting{Aspect: LosslessPG, Key: lp.PG}
	switch {
	case e != nil && e.ProfileMissing:
		return pgProblem{judge.Error, what() + fmt.Sprintf(" names BUFFER_PROFILE|%s, which the configuration does not define: orchagent waits for it and the group has no lossless headroom", e.Profile),
			want(), "profile " + e.Profile + " (not defined)", port, model.At(e.Pos), pg}, true
	case e != nil && !e.Lossless:
		return pgProblem{judge.Error, what() + " has no lossless headroom: " + e.LossyWhy + "; paused traffic drops",
			want(), "profile " + cmpOr(e.Profile, "none"), port, model.At(e.Pos), pg}, true
	case e != nil:
		return sizedFor(sw, port, lp, e)
	case bs.Model.V == "dynamic":
		return pgProblem{judge.Error, what() + " has no BUFFER_PG entry: in the dynamic buffer model buffermgrd gives headroom only to the priority groups BUFFER_PG lists, so PFC pauses traffic that has none",
			want(), "no BUFFER_PG entry; buffer_model " + why(bs.Model), port, pos, pg}, true
	}
	q := sw.PortQoS.At(port)
	if q == nil {
		return pgProblem{}, false
	}
	cable := q.CableLength
	// Without a BUFFER_PG entry the traditional buffermgrd sizes the PG
	// from the port's speed and cable length: a length its lookup table
	// has is the fix.
	setCable := Setting{Aspect: CableLength, Value: TradCable(sw, cmp.Or(cable.V, policyCable))}
	switch {
	case cable.V == 0:
		return pgProblem{judge.Error, what() + " has no BUFFER_PG entry, and buffermgrd creates none: the port's cable length is " + why(cable),
			want() + ", or a CABLE_LENGTH entry", "no BUFFER_PG entry, cable length " + why(cable), port, cable.Origin, setCable}, true
	case !slices.Contains(tradCables, cable.V) && model.SpectrumGen(sw.Flow.ASIC) > 0:
		return pgProblem{judge.Warning, what() + fmt.Sprintf(" has no BUFFER_PG entry, and the traditional buffer model's lookup tables have no row for a %d m cable (5m, 40m and 300m only): buffermgrd creates no lossless profile", cable.V),
			"a cable length of 5m, 40m or 300m, or " + want(), fmt.Sprintf("CABLE_LENGTH %dm", cable.V), port, cable.Origin, setCable}, true
	}
	return pgProblem{}, false
}

// sizedFor judges a lossless profile buffermgrd named for the speed and
// cable it sized the headroom for (pg_lossless_<speed>_<cable>_profile,
// sonic-net/sonic-swss cfgmgr/buffermgr.cpp) against the port's speed and
// CABLE_LENGTH: a PG keeps its profile when the cable length changes
// ("the Buffer PG profile isn't automatically updated", fixed for the
// traditional model only in sonic-net/sonic-swss#4004; sonic-net/
// sonic-buildimage#1602). Headroom sized for a shorter cable or a slower
// port holds fewer bytes than arrive after a pause (error); sized for more
// wastes buffer ("Incorrect cable length settings cause wasted buffer
// space", CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-
// Switch-Ports/Quality-of-Service/_index.md) (warning).
func sizedFor(sw *model.Switch, port string, lp model.LosslessPG, e *model.BufferPG) (pgProblem, bool) {
	q := sw.PortQoS.At(port)
	if e.Dynamic || e.SizedCable == 0 || q == nil || q.CableLength.V == 0 {
		return pgProblem{}, false
	}
	cable := q.CableLength
	problem := func(sev judge.Severity, tail string) (pgProblem, bool) {
		what := fmt.Sprintf("PFC priority %d's priority group %d uses %s, sized for %d Mb/s and %d m", lp.Priority, lp.PG, e.Profile, e.SizedSpeed, e.SizedCable)
		want := fmt.Sprintf("a profile sized for %d Mb/s and %d m", e.PortSpeed, cable.V)
		actual := fmt.Sprintf("%s; port %d Mb/s, cable %s", e.Profile, e.PortSpeed, why(cable))
		return pgProblem{sev, what + tail, want, actual, port, model.At(e.Pos), Setting{Aspect: LosslessPG, Key: lp.PG}}, true
	}
	switch {
	case e.SizedCable < cable.V || e.PortSpeed > 0 && e.SizedSpeed < e.PortSpeed:
		return problem(judge.Error, fmt.Sprintf(", but the port runs at %d Mb/s on %d m of cable: its headroom is too small for the frames in flight after a pause, and lossless traffic drops (buffermgrd keeps a PG's profile when the cable length changes)", e.PortSpeed, cable.V))
	case e.SizedCable > cable.V || e.PortSpeed > 0 && e.SizedSpeed > e.PortSpeed:
		return problem(judge.Warning, fmt.Sprintf(", more than the port's %d Mb/s and %d m of cable: the extra headroom is buffer the other traffic cannot use", e.PortSpeed, cable.V))
	}
	return pgProblem{}, false
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// groupPGProblems reports ports with the same problem together, at the
// first port's line.
func groupPGProblems(sw *model.Switch, probs []pgProblem) []Finding {
	var out []Finding
	idx := map[string]int{}
	var ports [][]string
	var fixes []Setting
	for _, p := range probs {
		k := fmt.Sprint(p.sev, "\x00", p.msg, "\x00", p.actual)
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, Finding{Severity: p.sev, Device: sw.Name, Message: p.msg,
				Expected: p.expected, Actual: p.actual, Source: at(p.src, sw.ConfigFile)})
			ports = append(ports, nil)
			fixes = append(fixes, p.fix)
		}
		if !slices.Contains(ports[i], p.port) {
			ports[i] = append(ports[i], p.port)
		}
	}
	for i := range out {
		out[i].Interface = model.CompressNames(ports[i])
		fix := fixes[i]
		fix.Ports = ports[i]
		out[i].Changes = []Change{{Kind: SwitchSetting, Set: &fix}}
		if len(ports[i]) > 1 {
			out[i].Expected = strings.Replace(out[i].Expected, "BUFFER_PG|"+ports[i][0]+"|", "BUFFER_PG|<port>|", 1)
		}
	}
	return out
}
