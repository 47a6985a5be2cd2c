// Package drift compares two snapshots (model/snapshot) device by device
// and judges every changed value on both sides against the policy with the
// checks' own judgements (checks/judge), so a change "breaks" the policy
// exactly where a check would report the new value and not the old one.
// render/driftfmt writes the result.
package drift

import (
	"cmp"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/model/snapshot"
)

// DriftVersion is the schema id of a drift report.
const DriftVersion = "qoslint.drift/v1"

// Effects of a change on the policy. A value "breaks" the policy where the
// check named in the change would report it (error or warning); both sides
// are judged against the one policy given to Diff.
const (
	// EffectBreaks: the new value breaks the policy, the old one did not.
	EffectBreaks = "breaks"
	// EffectStillBreaks: both break it (changed, still wrong).
	EffectStillBreaks = "still-breaks"
	// EffectRepairs: the old value broke it, the new one does not.
	EffectRepairs = "repairs"
	// EffectNeutral: neither breaks it.
	EffectNeutral = "neutral"
)

// Device statuses.
const (
	StatusChanged  = "changed"
	StatusAppeared = "appeared"
	StatusVanished = "vanished"
)

// Drift is what changed between two snapshots, in QoS terms.
type Drift struct {
	Schema string `json:"schema"`
	Old    Side   `json:"old"`
	New    Side   `json:"new"`
	// Policy is what both sides were judged against (the new side's).
	Policy  snapshot.Policy `json:"policy"`
	Summary Summary         `json:"summary"`
	// Fabric holds fabric-wide changes: the fabric's name and the policy.
	Fabric []Change `json:"fabric"`
	// Devices are the devices that changed, appeared or vanished, by name.
	Devices []DeviceDrift `json:"devices"`
	// InputErrors are the input problems either side recorded: the values
	// they touch are unknown, so the drift may be incomplete.
	InputErrors []SideError `json:"input_errors"`
	// Notes say what could not be compared (links a side did not record).
	Notes []string `json:"notes,omitempty"`
}

// Side names one input of the comparison.
type Side struct {
	// Source is the snapshot file or fabric directory, as given.
	Source string `json:"source"`
	Fabric string `json:"fabric"`
}

// Summary counts the drift.
type Summary struct {
	Drift       bool `json:"drift"`
	Devices     int  `json:"devices"`
	Changed     int  `json:"changed"`
	Appeared    int  `json:"appeared"`
	Vanished    int  `json:"vanished"`
	Changes     int  `json:"changes"`
	Breaks      int  `json:"breaks"`
	StillBreaks int  `json:"still_breaks"`
	Repairs     int  `json:"repairs"`
}

// DeviceDrift is one device's drift.
type DeviceDrift struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Status  string   `json:"status"`
	Changes []Change `json:"changes"`
}

// Change is one value that changed. For a device or a port group that
// appeared, only its values that break the policy are listed, with an empty
// Before.
type Change struct {
	// Interface is the ports (NVUE range form) or the NIC; "" device-wide.
	Interface string `json:"interface"`
	// Field names the value, after the snapshot's fields ("dscp_map.26",
	// "traffic_classes.3.ecn", "ecmp_hash.source-port").
	Field string `json:"field"`
	// Message says it in QoS terms: "DSCP 26 → switch-priority 0, was 3".
	Message string `json:"message"`
	// Before and After are the values as text; "" when absent.
	Before       string `json:"before"`
	After        string `json:"after"`
	BeforeOrigin string `json:"before_origin"`
	AfterOrigin  string `json:"after_origin"`
	Effect       string `json:"effect"`
	// Checks are the IDs of the checks whose rule the value feeds.
	Checks []string `json:"checks"`
}

// SideError is an input problem of one side.
type SideError struct {
	Side string `json:"side"`
	snapshot.InputError
}

// HasDrift reports whether anything changed.
func (d *Drift) HasDrift() bool { return len(d.Fabric) > 0 || len(d.Devices) > 0 }

// Diff compares two snapshots device by device, port by port and NIC by
// NIC, and judges each changed value on both sides against policy with the
// rules of the checks. Origins are evidence, not state: a value that only
// moved to another line is no drift. The order is deterministic: devices
// by name, changes by interface and then in snapshot field order.
func Diff(old, new *snapshot.Snapshot, pol policy.Policy) *Drift {
	d := &Drift{
		Schema: DriftVersion, Old: Side{Fabric: old.Fabric}, New: Side{Fabric: new.Fabric},
		Policy: snapshot.FromPolicy(pol), Fabric: fabricChanges(old, new), Devices: []DeviceDrift{}, InputErrors: []SideError{},
	}
	ro, rn := newPolicyRules(pol, old, new), newPolicyRules(pol, new, old)
	type dev struct {
		old, new any
		kind     string
	}
	devs := map[string]*dev{}
	get := func(kind, name string) *dev {
		k := name + "\x00" + kind
		if devs[k] == nil {
			devs[k] = &dev{kind: kind}
		}
		return devs[k]
	}
	for i := range old.Switches {
		get("switch", old.Switches[i].Name).old = &old.Switches[i]
	}
	for i := range new.Switches {
		get("switch", new.Switches[i].Name).new = &new.Switches[i]
	}
	for i := range old.Hosts {
		get("host", old.Hosts[i].Name).old = &old.Hosts[i]
	}
	for i := range new.Hosts {
		get("host", new.Hosts[i].Name).new = &new.Hosts[i]
	}
	keys := make([]string, 0, len(devs))
	for k := range devs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := devs[k]
		name, _, _ := strings.Cut(k, "\x00")
		dd := DeviceDrift{Name: name, Kind: v.kind, Changes: []Change{}}
		switch {
		case v.old == nil:
			dd.Status = StatusAppeared
		case v.new == nil:
			dd.Status = StatusVanished
		default:
			dd.Status = StatusChanged
		}
		if v.new != nil {
			if v.kind == "switch" {
				o, _ := v.old.(*snapshot.Switch)
				dd.Changes = diffSwitch(o, v.new.(*snapshot.Switch), ro, rn)
			} else {
				o, _ := v.old.(*snapshot.Host)
				dd.Changes = diffHost(o, v.new.(*snapshot.Host), ro, rn)
			}
			dd.Changes = append(dd.Changes, diffLinks(name, old.Topology, new.Topology, dd.Status == StatusAppeared)...)
		}
		if dd.Status == StatusChanged && len(dd.Changes) == 0 {
			continue
		}
		d.Devices = append(d.Devices, dd)
	}
	for _, side := range []struct {
		name string
		s    *snapshot.Snapshot
	}{{"old", old}, {"new", new}} {
		for _, e := range side.s.InputErrors {
			d.InputErrors = append(d.InputErrors, SideError{Side: side.name, InputError: e})
		}
	}
	d.Notes = append(linkNotes(old, new), sectionNotes(old, new)...)
	d.summarize()
	return d
}

// linkNotes says which side recorded no links: a snapshot written before
// links were recorded has no "topology", so its links are unknown, not
// absent.
func linkNotes(old, new *snapshot.Snapshot) []string {
	var out []string
	for _, side := range []struct {
		name string
		s    *snapshot.Snapshot
	}{{"old", old}, {"new", new}} {
		if side.s.Topology == nil {
			out = append(out, fmt.Sprintf("links were not recorded in the %s snapshot (taken by a qoslint that did not record them): links and link-mtu are not compared", side.name))
		}
	}
	return out
}

func (d *Drift) summarize() {
	s := Summary{Devices: len(d.Devices)}
	count := func(cs []Change) {
		for _, c := range cs {
			s.Changes++
			switch c.Effect {
			case EffectBreaks:
				s.Breaks++
			case EffectStillBreaks:
				s.StillBreaks++
			case EffectRepairs:
				s.Repairs++
			}
		}
	}
	count(d.Fabric)
	for _, dev := range d.Devices {
		switch dev.Status {
		case StatusAppeared:
			s.Appeared++
		case StatusVanished:
			s.Vanished++
		default:
			s.Changed++
		}
		count(dev.Changes)
	}
	s.Drift = d.HasDrift()
	d.Summary = s
}

// fabricChanges compares the fabric's name and its policy.
func fabricChanges(old, new *snapshot.Snapshot) []Change {
	out := []Change{}
	add := func(field, what, before, after string, ids ...string) {
		if before == after {
			return
		}
		out = append(out, Change{
			Field: field, Message: fmt.Sprintf("%s %s, was %s", what, after, before),
			Before: before, After: after, Effect: EffectNeutral, Checks: sortChecks(ids),
		})
	}
	ints := func(v []int) string { return model.CompressInts(v) }
	o, n := old.Policy, new.Policy
	add("fabric", "fabric", old.Fabric, new.Fabric)
	add("policy.preset", "policy preset", o.Preset, n.Preset)
	add("policy.roce.dscp", "policy RoCE DSCP", ints(o.RoCE.DSCP), ints(n.RoCE.DSCP), "switch-dscp-map", "host-dscp-map", "host-tos")
	add("policy.roce.priority", "policy RoCE priority", strconv.Itoa(o.RoCE.Priority), strconv.Itoa(n.RoCE.Priority),
		"switch-dscp-map", "switch-pfc", "switch-queue-map", "host-dscp-map", "host-pfc", "host-ecn")
	add("policy.roce.traffic_class", "policy RoCE traffic class", strconv.Itoa(o.RoCE.TrafficClass), strconv.Itoa(n.RoCE.TrafficClass),
		"switch-queue-map", "switch-ecn", "switch-cnp")
	add("policy.roce.mode", "policy RoCE mode", o.RoCE.Mode, n.RoCE.Mode, "switch-roce-mode", "switch-pfc", "host-pfc")
	// A snapshot taken before roce.host_tsa existed holds the default.
	add("policy.roce.host_tsa", "policy RoCE NIC scheduling", cmp.Or(o.RoCE.HostTSA, "ets"), cmp.Or(n.RoCE.HostTSA, "ets"), "host-ets")
	add("policy.cnp.dscp", "policy CNP DSCP", strconv.Itoa(o.CNP.DSCP), strconv.Itoa(n.CNP.DSCP), "switch-cnp", "host-cnp")
	add("policy.cnp.priority", "policy CNP priority", strconv.Itoa(o.CNP.Priority), strconv.Itoa(n.CNP.Priority), "switch-cnp", "host-cnp")
	add("policy.trust", "policy trust", o.Trust, n.Trust, "switch-trust", "host-trust", "host-dscp-map")
	add("policy.mtu.host", "policy host MTU", strconv.Itoa(o.MTU.Host), strconv.Itoa(n.MTU.Host), "mtu")
	add("policy.mtu.switch", "policy switch MTU", strconv.Itoa(o.MTU.Switch), strconv.Itoa(n.MTU.Switch), "mtu")
	add("policy.ecmp.hash_fields", "policy ECMP hash fields", strings.Join(o.ECMP.HashFields, ","), strings.Join(n.ECMP.HashFields, ","), "ecmp-hash")
	add("policy.pfc.cable_length", "policy PFC cable length", strconv.Itoa(o.CableLength()), strconv.Itoa(n.CableLength()), "pfc-cable-length")
	add("policy.ecmp.adaptive_routing", "policy adaptive routing", onOff(o.ECMP.AdaptiveRouting), onOff(n.ECMP.AdaptiveRouting), "adaptive-routing")
	return out
}

// item is one comparable value of a device, port or NIC, judged against
// the policy on its own side.
type item struct {
	field  string
	order  int
	text   string
	origin string
	checks []string
	bad    bool
	// say describes the state with a value text: "DSCP 26 → switch-priority %s".
	say string
	// unit follows a numeric value in the message ("150000 B").
	unit string
	// phrase, when set, words a value (had: changed from before) itself,
	// or returns "" to leave it to say.
	phrase func(before, after string, had bool) string
}

func (it item) message(before string, hadBefore bool) string {
	if it.phrase != nil {
		if m := it.phrase(before, it.text, hadBefore); m != "" {
			return m
		}
	}
	withUnit := func(v string) string {
		if _, err := strconv.Atoi(v); err == nil {
			return v + it.unit
		}
		return v
	}
	if !hadBefore {
		return fmt.Sprintf(it.say, withUnit(it.text))
	}
	return fmt.Sprintf(it.say, withUnit(it.text)) + ", was " + withUnit(before)
}

func effect(before, after bool) string {
	switch {
	case !before && after:
		return EffectBreaks
	case before && after:
		return EffectStillBreaks
	case before:
		return EffectRepairs
	}
	return EffectNeutral
}

// changeOf builds the change from a to b (a nil: b is new).
func changeOf(iface string, a, b *item) Change {
	if a == nil {
		return Change{
			Interface: iface, Field: b.field, Message: b.message("", false),
			After: b.text, AfterOrigin: b.origin, Effect: effect(false, b.bad), Checks: sortChecks(b.checks),
		}
	}
	return Change{
		Interface: iface, Field: b.field, Message: b.message(a.text, true),
		Before: a.text, After: b.text, BeforeOrigin: a.origin, AfterOrigin: b.origin,
		Effect: effect(a.bad, b.bad), Checks: sortChecks(append(append([]string(nil), a.checks...), b.checks...)),
	}
}

// diffItems compares two lists of items by field; with old nil it lists the
// new items that break the policy. A field on one side only is compared
// with "absent".
func diffItems(iface string, old, new []item, appeared bool) []Change {
	var out []Change
	if appeared {
		for i := range new {
			if new[i].bad {
				out = append(out, changeOf(iface, nil, &new[i]))
			}
		}
		return out
	}
	byField := make(map[string]*item, len(old))
	for i := range old {
		byField[old[i].field] = &old[i]
	}
	seen := make(map[string]bool, len(new))
	for i := range new {
		b := &new[i]
		seen[b.field] = true
		a := byField[b.field]
		if a == nil {
			a = &item{field: b.field, text: "absent"}
		}
		if a.text != b.text {
			out = append(out, changeOf(iface, a, b))
		}
	}
	for i := range old {
		a := &old[i]
		if seen[a.field] {
			continue
		}
		gone := *a
		gone.text, gone.origin, gone.checks, gone.bad = "absent", "", nil, false
		out = append(out, changeOf(iface, a, &gone))
	}
	return out
}

// catalog orders check IDs as `qoslint explain` lists them.
var catalog = func() map[string]int {
	m := map[string]int{}
	for i, c := range checks.All() {
		m[c.ID] = i
	}
	return m
}()

func sortChecks(ids []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return catalog[out[i]] < catalog[out[j]] })
	return out
}

// sortChanges orders a device's changes: device-wide first, then by
// interface (natural order), then in snapshot field order.
func sortChanges(cs []Change, order map[string]int) {
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.Interface != b.Interface {
			return model.NaturalLess(a.Interface, b.Interface)
		}
		if order[a.Field] != order[b.Field] {
			return order[a.Field] < order[b.Field]
		}
		return a.Field < b.Field
	})
}
