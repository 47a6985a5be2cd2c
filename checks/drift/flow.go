package drift

import (
	"fmt"
	"github.com/qoslint/qoslint/internal/layout"
	"sort"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/model/snapshot"
)

// The flow control beside PFC (pfc-cable-length, pfc-watchdog, link-pause)
// and the forwarding settings (ecmp-hash-seed). An item's text carries the
// context its verdict depends on when the verdict breaks ("off on a
// lossless port", "50, also the seed of leaf02"), so a verdict that changes
// with a value elsewhere (the port's PFC, another switch's seed) is a
// change of the item too, and a value that stays right is no noise.

// sectionInfo words each optional section for the notes.
var sectionInfo = map[string]struct{ what, checks string }{
	snapshot.SectionFlowControl:  {"PFC cable lengths, PFC watchdogs and link pause", "pfc-cable-length, pfc-watchdog and link-pause are"},
	snapshot.SectionForwarding:   {"ECMP hash seeds", "ecmp-hash-seed is"},
	snapshot.SectionPCPMap:       {"802.1p (PCP) maps", "switch-pcp-map is"},
	snapshot.SectionTrafficPools: {"traffic pools", "switch-buffer-pool is"},
	snapshot.SectionRoCEVersion:  {"GID types, RDMA-CM RoCE modes and NCCL's GID parameters", "host-roce-version is"},
	snapshot.SectionFirmware:     {"NIC firmware settings (mlxconfig)", "host-firmware is"},
	snapshot.SectionApplications: {"NCCL's QPs per connection and control-message class, UCX and NVSHMEM ToS and SL, and RDMA-CM default ToS", "host-nccl-qps, host-nccl-fifo-tc, host-app-tos and host-rdma-cm-tos are"},
}

// sectionNotes say which optional sections a side did not record: a
// snapshot written before a section existed does not know its values, so
// they are not compared rather than reported as changed.
func sectionNotes(old, new *snapshot.Snapshot) []string {
	var out []string
	for _, sec := range snapshot.AllSections {
		for _, side := range []struct {
			name string
			s    *snapshot.Snapshot
		}{{"old", old}, {"new", new}} {
			if !side.s.Has(sec) {
				in := sectionInfo[sec]
				out = append(out, fmt.Sprintf("%s were not recorded in the %s snapshot (taken by a qoslint that did not record them): %s not compared on them", in.what, side.name, in.checks))
			}
		}
	}
	return out
}

// fabricFacts are one side's verdict inputs that span switches.
type fabricFacts struct {
	// cableRef is checks.CableReference over the side's lossless port
	// groups; -1 when they use one length.
	cableRef int
	// seeds are the switches (sorted) that set each explicit hash seed.
	seeds map[int64][]string
}

func fabricOf(s *snapshot.Snapshot) fabricFacts {
	users := map[int]map[string]bool{}
	seeds := map[int64][]string{}
	for i := range s.Switches {
		sw := &s.Switches[i]
		if sw.ConfigFile == "" || sw.OS == layout.OSSONiC {
			continue
		}
		for j := range sw.PortGroups {
			g := &sw.PortGroups[j]
			if g.CableLength == nil || !groupLossless(g) {
				continue
			}
			l := g.CableLength.Value
			if users[l] == nil {
				users[l] = map[string]bool{}
			}
			users[l][sw.Name] = true
		}
		if sw.HashSeed != nil && sw.HashSeed.Known {
			seeds[sw.HashSeed.Value] = append(seeds[sw.HashSeed.Value], sw.Name)
		}
	}
	for _, names := range seeds {
		sort.Strings(names)
	}
	ref, _ := judge.CableReference(users)
	return fabricFacts{cableRef: ref, seeds: seeds}
}

// groupLossless: the port group pauses a priority (checks' lossless).
func groupLossless(g *snapshot.PortGroup) bool {
	return (g.PFCRx.Value || g.PFCTx.Value) && len(g.PFC.Value) > 0
}

// cableItem is a port group's PFC cable length, pfc-cable-length's.
func cableItem(g *snapshot.PortGroup, r *policyRules, perPort bool) item {
	it := item{field: "cable_length", text: notCollected, say: "PFC cable length %s"}
	if g.CableLength == nil || !g.CableLength.Known {
		return it
	}
	v, lossless := g.CableLength.Value, groupLossless(g)
	it.text, it.origin = strconv.Itoa(v)+" m", g.CableLength.Origin
	if perPort {
		it.judge("pfc-cable-length", judge.PortCableLength(lossless, v))
		return it
	}
	j := judge.PFCCableLength(r.p, lossless, v, r.fabric.cableRef)
	switch {
	case j.OK:
	case j.Severity == judge.Error:
		it.text += fmt.Sprintf(" on a lossless port, under the policy's %d m", r.p.PFC.CableLength)
	default:
		it.text += fmt.Sprintf(", the fabric's lossless ports use %d m", r.fabric.cableRef)
	}
	it.judge("pfc-cable-length", j)
	return it
}

// flowIndex is a switch's flow_control section per interface.
type flowIndex struct {
	bonds     map[string][]string
	watchdog  map[string]*snapshot.PortValue[bool]
	linkPause map[string]*snapshot.PortValue[string]
}

func indexFlow(f *snapshot.Flow) *flowIndex {
	x := &flowIndex{bonds: map[string][]string{}, watchdog: map[string]*snapshot.PortValue[bool]{}, linkPause: map[string]*snapshot.PortValue[string]{}}
	if f == nil {
		return x
	}
	for _, b := range f.Bonds {
		x.bonds[b.Bond] = expandMembers(b.Members)
	}
	for i := range f.Watchdog {
		for _, p := range expand(f.Watchdog[i].Ports) {
			x.watchdog[p] = &f.Watchdog[i]
		}
	}
	for i := range f.LinkPause {
		for _, p := range expand(f.LinkPause[i].Ports) {
			x.linkPause[p] = &f.LinkPause[i]
		}
	}
	return x
}

func expandMembers(spec string) []string {
	if spec == "" {
		return nil
	}
	return expand(spec)
}

// portGroup is the port group of a port, nil when it has none.
func (sp *switchPorts) portGroup(port string) *snapshot.PortGroup {
	i, ok := sp.group[port]
	if !ok || sp.sw == nil {
		return nil
	}
	return &sp.sw.PortGroups[i]
}

// watchdogItem is pfc-watchdog on a port, judged on its bond members for a
// bond (the watchdog belongs on them). A switch the policy's lossless mode
// makes lossless needs it too (checks/pfc_watchdog.go).
func (sp *switchPorts) watchdogItem(port string) item {
	it := item{field: "pfc_watchdog", say: "PFC watchdog %s"}
	g := sp.portGroup(port)
	if port == "" || g == nil {
		it.text = "not judged"
		return it
	}
	members, bond := sp.flow.bonds[port]
	if !bond {
		members = []string{port}
	}
	var off []string
	origin := func(m string) string {
		if v := sp.flow.watchdog[m]; v != nil {
			return v.Origin
		}
		return "not set on the port (off by default)"
	}
	for _, m := range members {
		if v := sp.flow.watchdog[m]; v == nil || !v.Value {
			off = append(off, m)
		}
	}
	// The evidence is the first member without the watchdog, else the
	// first member.
	if len(off) > 0 {
		it.origin = origin(off[0])
	} else if len(members) > 0 {
		it.origin = origin(members[0])
	}
	roce := sp.sw.RoCE
	lossless := groupLossless(g) || sp.r.p.RoCE.Lossless() && !(roce.Enabled.Value && model.LosslessMode(roce.Mode.Value))
	j := judge.PFCWatchdog(lossless, len(off) == 0)
	switch {
	case len(off) == 0:
		it.text = "on"
	case bond:
		it.text = "off on member " + model.CompressNames(off)
	default:
		it.text = "off"
	}
	switch {
	case j.OK:
	case groupLossless(g):
		it.text += " on a lossless port"
	default:
		it.text += " on a port the policy's lossless RoCE mode makes lossless"
	}
	it.judge("pfc-watchdog", j)
	return it
}

// linkPauseItem is link-pause on a port and, for a bond, its members.
func (sp *switchPorts) linkPauseItem(port string) item {
	it := item{field: "link_pause", text: "off", say: "link pause %s"}
	g := sp.portGroup(port)
	if port == "" || g == nil {
		it.text = "not judged"
		return it
	}
	var bound []string
	var origins []string
	for _, p := range append([]string{port}, sp.flow.bonds[port]...) {
		v := sp.flow.linkPause[p]
		if v == nil {
			continue
		}
		s := "qos link-pause"
		if v.Value != "" {
			s += " profile " + v.Value
		}
		if p != port {
			s = p + ": " + s
		}
		bound = append(bound, s)
		origins = append(origins, v.Origin)
	}
	j := judge.LinkPause(len(bound) > 0, groupLossless(g))
	if len(bound) > 0 {
		it.text, it.origin = strings.Join(bound, "; "), strings.Join(origins, "; ")
	}
	if !j.OK {
		it.text += " with PFC on"
	}
	it.judge("link-pause", j)
	return it
}

// hashPairItem is ecmp-hash-seed on one ecmp-hash pair: set unlike, the
// switch hashes asymmetrically.
func hashPairItem(sw *snapshot.Switch, pair [2]string) item {
	a, b := sw.ECMPHash[pair[0]], sw.ECMPHash[pair[1]]
	it := item{field: "ecmp_hash_pair." + pair[0] + "/" + pair[1], text: "alike", say: "ecmp-hash " + pair[0] + " and " + pair[1] + " set %s"}
	j := judge.ECMPHashPair(a.Value, b.Value)
	if !j.OK {
		it.text = fmt.Sprintf("unlike (%s %s, %s %s): symmetric hashing off", pair[0], onOff(a.Value), pair[1], onOff(b.Value))
		it.origin = a.Origin + "; " + b.Origin
	}
	it.judge("ecmp-hash-seed", j)
	return it
}

// hashSeedItem is ecmp-hash-seed on the switch's hash seed: shared with
// another switch on its side, it polarizes ECMP.
func hashSeedItem(sw *snapshot.Switch, r *policyRules) item {
	it := item{field: "hash_seed", text: "not set (random)", say: "hash-seed %s"}
	if sw.HashSeed == nil || !sw.HashSeed.Known {
		return it
	}
	seed := sw.HashSeed.Value
	var others []string
	for _, n := range r.fabric.seeds[seed] {
		if n != sw.Name {
			others = append(others, n)
		}
	}
	it.text, it.origin = fmt.Sprint(seed), sw.HashSeed.Origin
	j := judge.HashSeed(others)
	if !j.OK {
		it.text += ", also the seed of " + strings.Join(others, ", ")
	}
	it.judge("ecmp-hash-seed", j)
	return it
}
