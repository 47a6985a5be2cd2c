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

var packetTrimRemark = &Check{
	ID:       "packet-trim-remark",
	Kind:     KindConfig,
	Devices:  Switches,
	Applies:  appliesTrim(false),
	Severity: judge.Warning,
	Title:    "Trimmed packets carry a DSCP their receivers classify into a class that is carried",
	Doc: `A trimmed packet leaves with a remarked DSCP: one value for all ("At the global level, where
all trimmed packets have the same DSCP value"), or per egress port ("At the port level, where the
switch remarks the DSCP value of the trimmed packets based on the port level switch priority to
DSCP mapping", set with "nv set system forwarding packet-trim remark dscp port-level" and a qos
remark profile on each port). "This allows the destination to know where congestion occurs; on
downlinks to servers or in the fabric." Sources: CumulusNetworks/docs content/cumulus-linux-514/
and -515/Layer-1-and-Switch-Ports/Quality-of-Service/Packet-Trimming.md, -515/.../
RDMA-over-Converged-Ethernet-RoCE.md ("Lossy Multi TC Profile"), QoS _index.md ("Remarking").
On a switch that trims, for every eligible port, the check reports (warnings):
- port-level remark with no qos remark profile on the port, or one that maps no DSCP for the
  trimmed packets' switch priority, or one that is not defined: which DSCP those packets carry is
  not documented. CL 5.15 and later bind the profiles ("Apply the port profiles"); CL 5.14's
  lossy-multi-tc example binds none, so there it is said as not verified, and a port without a
  profile that the switch's own lldp.json shows uncabled is info (nothing leaves by it yet);
- a remark profile with a rewrite type: "Do not configure the rewrite type for the remark
  profile";
- lossy-multi-tc-host-group ("sets the DSCP remark value to 21 for switch priority 4 on the
  downlink to hosts") on a port whose LLDP neighbour is a switch, or
  lossy-multi-tc-network-group ("on the uplink to the network") on one whose neighbour is a host:
  the profiles are swapped, and the receiver misreads where the congestion was;
- a remark DSCP that the receiving switch (the LLDP neighbour's port; this switch's own map when
  the switch has no lldp.json) classifies into a traffic class it schedules DWRR 0% ("If you do
  not specify a value for an egress queue, Cumulus Linux uses a DWRR value of 0 (no egress
  scheduling)", content/nvue-reference/Set-and-Unset-Commands/QoS.md). Hosts receiving
  trimmed packets are not judged: not verified.
When nv show system forwarding packet-trim ("Port-Level SP to DSCP Remark Information") or nv
show qos remark was collected, each is compared with the configuration: a profile, interface,
switch priority or DSCP the switch reports otherwise, a profile the configuration defines and
the switch does not list or the reverse, a rewrite type that differs. The summary
"SP->PCP/DSCP mapping configuration: 4" is read as the switch priorities a profile maps (each
lossy-multi-tc profile maps priority 4 alone).`,
	Inputs: []Input{NVConfig, NVShowPacketTrim, NVShowQoSRemark, LLDP},
	Run:    runPacketTrimRemark,
}

func runPacketTrimRemark(f *model.Fabric) []Finding {
	var out []Finding
	links := f.LinksByEnd()
	for _, sw := range trimming(f) {
		t := sw.Trim
		if t.RemarkOper == nil && len(t.Remark) > 0 {
			out = append(out, notCollected(sw.Name, []string{layout.RemarkShowFile + " not collected"}, "the qos remark profiles as the switch runs them"))
		}
		out = append(out, remarkShowDrift(sw)...)
		out = append(out, trimRemarkRowsDrift(sw)...)
		sp, ok := trimSP(sw)
		if !ok || sp.V < 0 || sp.V > 7 {
			continue // packet-trim says the switch priority is not known
		}
		r := remarkRun{f: f, sw: sw, sp: sp, links: links}
		for _, p := range trimPorts(sw) {
			if len(t.EligibleTCs(p.phys).V) > 0 {
				r.port(p)
			}
		}
		out = append(out, r.findings()...)
	}
	return out
}

// remarkRun gathers one switch's remark findings port by port, so that
// ports with the same finding share it.
type remarkRun struct {
	f     *model.Fabric
	sw    *model.Switch
	sp    model.Value[int]
	links map[[2]string][]*model.Link
	keys  []string
	group map[string]*remarkGroup
}

type remarkGroup struct {
	fd    Finding
	ports []string
	// fix builds the changes for the group's ports (in NVUE range form).
	fix func(ifaces string) []Change
}

func (r *remarkRun) add(key string, port string, fd Finding, fix func(string) []Change) {
	if r.group == nil {
		r.group = map[string]*remarkGroup{}
	}
	g, ok := r.group[key]
	if !ok {
		g = &remarkGroup{fd: fd, fix: fix}
		r.group[key] = g
		r.keys = append(r.keys, key)
	}
	if !slices.Contains(g.ports, port) {
		g.ports = append(g.ports, port)
	}
}

func (r *remarkRun) findings() []Finding {
	var out []Finding
	for _, k := range r.keys {
		g := r.group[k]
		fd := g.fd
		fd.Interface = model.CompressNames(g.ports)
		fd.Message = strings.ReplaceAll(fd.Message, "{ports}", fd.Interface)
		if g.fix != nil {
			fd.Changes = g.fix(fd.Interface)
		}
		out = append(out, fd)
	}
	return out
}

// peer is the LLDP neighbour of a physical port: "switch", "host" or "".
func (r *remarkRun) peer(phys string) (kind string, l *model.Link, other model.LinkEnd) {
	for _, l := range r.links[[2]string{r.sw.Name, phys}] {
		if _, o, ok := l.End(r.sw.Name); ok {
			return o.Kind, l, o
		}
	}
	return "", nil, model.LinkEnd{}
}

// port judges one eligible port: which DSCP its trimmed packets carry,
// and where they land.
func (r *remarkRun) port(p trimPort) {
	t := r.sw.Trim
	kind, link, other := r.peer(p.phys)
	dscp := t.DSCP
	if t.PortLevel.V {
		d, ok := r.portLevel(p, kind, link)
		if !ok {
			return
		}
		dscp = d
	}
	if !dscp.Known {
		return
	}
	r.landing(p, dscp, kind, other)
}

// portLevel finds the port's remark DSCP for the trimmed packets' switch
// priority, reporting what keeps it from being known.
func (r *remarkRun) portLevel(p trimPort, kind string, link *model.Link) (model.Value[int], bool) {
	sw, t, sp := r.sw, r.sw.Trim, r.sp.V
	bind, ok := t.RemarkOf(p.phys)
	if !ok {
		sev, note := judge.Warning, ""
		_, lldp := r.f.LLDPFile[sw.Name]
		switch {
		case sw.Before(5, 15):
			// Trim514's lossy-multi-tc example: `remark dscp port-level`
			// and no binding.
			sev, note = judge.Info, " (CL 5.14's own example binds none: not verified)"
		case kind == "" && lldp:
			// The switch's own LLDP shows nothing cabled there: no packet
			// leaves by the port to be trimmed, until something is.
			sev, note = judge.Info, " (its lldp.json shows nothing cabled there)"
		}
		fix, fixNote := r.bindFix(kind)
		// The binding goes on the bond a member egresses with.
		r.add("unbound"+fixNote, p.checked, Finding{
			Severity: sev, Device: sw.Name,
			Message: fmt.Sprintf("packet trimming remarks per port, but {ports} has no qos remark profile: which DSCP its trimmed packets carry is not documented%s%s",
				note, fixNote),
			Expected: "a qos remark profile mapping switch-priority " + strconv.Itoa(sp),
			Actual:   "no qos remark profile", Source: at(t.PortLevel.Origin, sw.ConfigFile),
		}, fix)
		return model.Value[int]{}, false
	}
	bound := bind.Origin.Pos()
	iface := p.phys
	if _, own := t.RemarkBind[p.phys]; !own {
		iface = p.checked
	}
	prof := t.Remark[bind.V]
	if prof == nil {
		r.add("undefined "+bind.V, p.phys, Finding{
			Severity: judge.Warning, Device: sw.Name,
			Message:  fmt.Sprintf("{ports} binds qos remark profile %s, which is not defined: which DSCP its trimmed packets carry is not documented; qoslint prints no command: define the profile or bind another", bind.V),
			Expected: "a defined qos remark profile", Actual: bind.V + " (not defined)", Source: bound,
		}, nil)
		return model.Value[int]{}, false
	}
	if prof.Rewrite.Known {
		name, rw := prof.Name, prof.Rewrite
		r.add("rewrite "+name, p.phys, Finding{
			Severity: judge.Warning, Device: sw.Name,
			Message:  fmt.Sprintf("qos remark profile %s on {ports} remarks trimmed packets per port and sets rewrite %s: \"Do not configure the rewrite type for the remark profile\"", name, rw.V),
			Expected: "no rewrite on " + name, Actual: "rewrite " + rw.V, Source: rw.Origin.Pos(),
		}, func(string) []Change { return []Change{nvUnset(rw.V, "qos", "remark", name, "rewrite")} })
	}
	r.swapped(iface, bind, kind, link)
	d, ok := prof.DSCP[sp]
	if !ok {
		r.add("nosp "+prof.Name, p.phys, Finding{
			Severity: judge.Warning, Device: sw.Name,
			Message:  fmt.Sprintf("qos remark profile %s on {ports} maps no DSCP for switch-priority %d, the trimmed packets': which DSCP they carry is not documented; qoslint prints no command: the DSCP is the operator's choice", prof.Name, sp),
			Expected: fmt.Sprintf("qos remark %s switch-priority %d dscp <n>", prof.Name, sp),
			Actual:   "switch-priority " + judge.PrioList(mapKeys(prof.DSCP)) + " only", Source: pickPos(prof.Pos, bound, sw.ConfigFile),
		}, nil)
		return model.Value[int]{}, false
	}
	return d, true
}

func mapKeys(m map[int]model.Value[int]) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// bindFix binds the documented profile for the port's neighbour under
// the default profile: host-group towards a host, network-group towards a
// switch. Otherwise the choice is the operator's.
func (r *remarkRun) bindFix(kind string) (func(string) []Change, string) {
	t := r.sw.Trim
	want := ""
	switch {
	case t.Profile.V != model.TrimDefaultProfile:
	case kind == layout.KindHost:
		want = model.RemarkHostGroup
	case kind == layout.KindSwitch:
		want = model.RemarkNetworkGroup
	}
	if want == "" {
		return nil, "; qoslint prints no command: which profile the port needs is the operator's choice"
	}
	return func(ifaces string) []Change {
		return []Change{nvSet("", false, want, "interface", ifaces, "qos", "remark", "profile")}
	}, " (towards a " + kind + ": " + want + ")"
}

// swapped: the two lossy-multi-tc profiles bound the wrong way round for
// the port's LLDP neighbour.
func (r *remarkRun) swapped(iface string, bind model.Value[string], kind string, link *model.Link) {
	want := ""
	switch {
	case bind.V == model.RemarkHostGroup && kind == layout.KindSwitch:
		want = model.RemarkNetworkGroup
	case bind.V == model.RemarkNetworkGroup && kind == layout.KindHost:
		want = model.RemarkHostGroup
	default:
		return
	}
	side := map[string]string{model.RemarkHostGroup: "the downlink to hosts", model.RemarkNetworkGroup: "the uplink to the network"}
	r.add("swap "+bind.V, iface, Finding{
		Severity: judge.Warning, Device: r.sw.Name,
		Message: fmt.Sprintf("{ports} faces a %s (%s) but binds qos remark profile %s, which the documentation gives %s: trimmed packets there tell the receiver the wrong place of congestion",
			kind, linkSeen(link), bind.V, side[bind.V]),
		Expected: want, Actual: bind.V, Source: bind.Origin.Pos(),
	}, func(ifaces string) []Change {
		return []Change{nvSet(bind.V, true, want, "interface", ifaces, "qos", "remark", "profile")}
	})
}

// landing judges where a trimmed packet with DSCP d lands: on the LLDP
// neighbour switch's port, or, when the switch has no lldp.json, on this
// switch's own map as the fabric's stand-in. Hosts are not judged.
func (r *remarkRun) landing(p trimPort, d model.Value[int], kind string, other model.LinkEnd) {
	var rx *model.Switch
	var q *model.QoS
	where := ""
	switch {
	case kind == layout.KindSwitch:
		peer, port := r.f.SwitchEnd(other)
		if peer == nil {
			return
		}
		rx, q, where = peer, peer.PortQoS.At(port), endName(other, port)
	case kind == "":
		if _, ok := r.f.LLDPFile[r.sw.Name]; ok {
			return // no neighbour on this port: nothing receives there
		}
		rx, q, where = r.sw, r.sw.Global, r.sw.Name+" itself ("+layout.LLDPFile+" not collected, its own map stands in for the receiver's)"
	default:
		return
	}
	if q == nil || d.V < 0 || d.V > 63 {
		return
	}
	sp := q.DSCP.At(d.V)
	if sp.V < 0 || sp.V > 7 {
		return
	}
	tc := rx.Global.TC[sp.V].V
	if tc < 0 || tc > 7 || rx.Global.Sched[tc].V != "dwrr" || rx.Global.SchedBW[tc].V != 0 {
		return
	}
	key := fmt.Sprintf("land %s %d", rx.Name, d.V)
	r.add(key, p.phys, Finding{
		Severity: judge.Warning, Device: r.sw.Name,
		Message: fmt.Sprintf("trimmed packets leave {ports} with DSCP %d, which %s classifies to switch-priority %d, traffic-class %d, scheduled DWRR 0%% (no egress scheduling): the receiver may never get them; qoslint prints no command: the remark DSCP or the receiver's map is a design choice",
			d.V, where, sp.V, tc),
		Expected: fmt.Sprintf("DSCP %d in a scheduled traffic class on %s", d.V, rx.Name),
		Actual:   fmt.Sprintf("DSCP %d (%s) → switch-priority %s → traffic-class %d, dwrr 0%% (%s)", d.V, d.Origin, why(sp), tc, rx.Global.SchedBW[tc].Origin),
		Source:   at(d.Origin, r.sw.ConfigFile),
	}, nil)
}

// trimRemarkRowsDrift compares "Port-Level SP to DSCP Remark Information"
// with the configuration: a row whose profile is not the port's binding,
// or whose DSCP is not the profile's for that switch priority; and "No
// Data" where the configuration remarks per port through bound profiles.
func trimRemarkRowsDrift(sw *model.Switch) []Finding {
	t, o := sw.Trim, sw.Trim.Oper
	if o == nil || o.RemarkPos.IsZero() {
		return nil
	}
	var out []Finding
	drift := func(msg, want, got string, fd Finding) {
		fd.Severity, fd.Device = judge.Warning, sw.Name
		fd.Message = msg + notApplied
		fd.Expected, fd.Actual = want+" ("+sw.ConfigFile+")", got
		out = append(out, fd)
	}
	for _, row := range o.Remarks {
		bind, ok := t.RemarkOf(row.Interface)
		switch {
		case !ok:
			drift(fmt.Sprintf("the switch reports qos remark profile %s on %s but its configuration binds none there", row.Profile, row.Interface),
				"no remark profile", row.Profile, Finding{Interface: row.Interface, Source: row.Pos})
		case bind.V != row.Profile:
			drift(fmt.Sprintf("the switch reports qos remark profile %s on %s but its configuration binds %s", row.Profile, row.Interface, bind.V),
				bind.V, row.Profile, Finding{Interface: row.Interface, Source: row.Pos})
		default:
			if p := t.Remark[bind.V]; p != nil {
				if d, ok := p.DSCP[row.SP]; ok && d.V != row.DSCP {
					drift(fmt.Sprintf("the switch remarks switch-priority %d to DSCP %d on %s but its configuration says %d", row.SP, row.DSCP, row.Interface, d.V),
						fmt.Sprintf("DSCP %s", why(d)), strconv.Itoa(row.DSCP), Finding{Interface: row.Interface, Source: row.Pos})
				}
			}
		}
	}
	if len(o.Remarks) == 0 && t.PortLevel.V && len(t.RemarkBind) > 0 && o.PortLevel.V {
		drift("the switch reports no port-level remark (No Data) but its configuration binds qos remark profiles",
			"port-level remark profiles", "No Data", Finding{Source: o.RemarkPos})
	}
	return out
}

// remarkShowDrift compares `nv show qos remark` with the configuration's
// profiles. default-global is not compared: the lossy-multi-tc example
// lists only the profiles that mode creates.
func remarkShowDrift(sw *model.Switch) []Finding {
	t, o := sw.Trim, sw.Trim.RemarkOper
	if o == nil {
		return nil
	}
	var out []Finding
	add := func(msg, want, got string, fd Finding) {
		fd.Severity, fd.Device = judge.Warning, sw.Name
		fd.Message = msg + notApplied
		fd.Expected, fd.Actual = want, got
		if fd.Source.File == "" {
			fd.Source.File = o.File
		}
		out = append(out, fd)
	}
	var names []string
	for n := range t.Remark {
		names = append(names, n)
	}
	for n := range o.Profiles {
		if _, ok := t.Remark[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	lmt := sw.RoCE.Enabled.V && sw.RoCE.Mode.V == "lossy-multi-tc"
	for _, n := range names {
		cfg, shown := t.Remark[n], o.Profiles[n]
		_, listed := o.Profiles[n]
		switch {
		case n == model.DefaultProfile:
		case cfg == nil:
			add(fmt.Sprintf("the switch lists qos remark profile %s but its configuration does not define it", n),
				"no profile "+n+" ("+sw.ConfigFile+")", n, Finding{Source: shown.Pos})
		case !listed:
			if cfg.Pos.IsZero() && !lmt {
				// Created by packet-trim-default alone: that `nv show qos
				// remark` lists them then is not documented.
				continue
			}
			add(fmt.Sprintf("the switch does not list qos remark profile %s, which its configuration has", n),
				"profile "+n+" ("+remarkOrigin(sw, cfg)+")", "not listed", Finding{})
		default:
			if want := cfg.Rewrite.V; want != shown.Rewrite {
				add(fmt.Sprintf("the switch reports qos remark profile %s rewrite %s but its configuration says %s", n, orNone(shown.Rewrite), orNone(want)),
					"rewrite "+orNone(want), orNone(shown.Rewrite), Finding{Source: shown.Pos})
			}
			if want := mapKeys(cfg.DSCP); shown.SPsKnown && !slices.Equal(want, shown.SPs) {
				add(fmt.Sprintf("the switch reports qos remark profile %s mapping switch-priority %s but its configuration maps %s", n, judge.PrioList(slices.Clone(shown.SPs)), judge.PrioList(want)),
					"switch-priority "+judge.PrioList(slices.Clone(want)), judge.PrioList(slices.Clone(shown.SPs)), Finding{Source: shown.Pos})
			}
		}
	}
	return out
}

func remarkOrigin(sw *model.Switch, p *model.RemarkProfile) string {
	if !p.Pos.IsZero() {
		return p.Pos.String()
	}
	return "created by " + model.TrimDefaultProfile
}
