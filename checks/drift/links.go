package drift

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
	"github.com/qoslint/qoslint/model/snapshot"
)

// Link changes are listed under each end's device, on its own interface:
// a link that appeared, disappeared or moved (the same local port, another
// neighbour), whose MTUs changed, or that is now seen from one end only or
// from both. Each side's link is judged with link-mtu's rule
// (judge.LinkMTU) on the MTUs the snapshot recorded; the device
// "breaks" link-mtu where its end is the one the check would ask to raise.

// linkCheck is the check whose rule a link's MTUs feed.
const linkCheck = "link-mtu"

// linkView is one link as one of its ends' devices sees it.
type linkView struct {
	port, peer  string
	here, there snapshot.LinkEnd
	oneSided    bool
	// judged: both MTUs known, so link-mtu judges the pair; bad: it fails
	// with this end the one to raise.
	judged, bad bool
}

func (v *linkView) mtuText() string {
	mtu := func(e snapshot.LinkEnd) string {
		if !e.MTU.Known {
			return "unknown"
		}
		return strconv.Itoa(e.MTU.Value)
	}
	return fmt.Sprintf("MTU %s here, %s at %s", mtu(v.here), mtu(v.there), v.peer)
}

func (v *linkView) seenText() string {
	if v.oneSided {
		return "seen from one end only"
	}
	return "seen from both ends"
}

// evidence is where LLDP saw the link, then the MTUs' origins.
func (v *linkView) evidence() string {
	var parts []string
	for _, s := range []string{v.here.Seen, v.there.Seen, v.here.MTU.Origin, v.there.MTU.Origin} {
		if s != "" && !slices.Contains(parts, s) {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, ", ")
}

func (v *linkView) checks() []string {
	if v.judged {
		return []string{linkCheck}
	}
	return []string{}
}

func endName(e snapshot.LinkEnd) string { return e.Device + ":" + e.Port }

// deviceLinks are the links with an end on dev, keyed by local port and
// neighbour.
func deviceLinks(t *snapshot.Topology, dev string) map[string]*linkView {
	out := map[string]*linkView{}
	if t == nil {
		return out
	}
	sent := hostFrames(t)
	for _, l := range t.Links {
		var j judge.Judgement
		var low int
		judged := l.A.MTU.Known && l.B.MTU.Known
		if judged {
			j, low = judge.LinkMTU(mtuEnd(l.A), mtuEnd(l.B), sent)
		}
		ends := [2]snapshot.LinkEnd{l.A, l.B}
		for i, e := range ends {
			if e.Device != dev {
				continue
			}
			v := &linkView{port: e.Port, peer: endName(ends[1-i]), here: e, there: ends[1-i], oneSided: l.OneSided,
				judged: judged, bad: judged && j.Breaks() && low == i}
			out[v.port+"\x00"+v.peer] = v
		}
	}
	return out
}

// hostFrames are the largest frames the hosts of a snapshot send, from the
// MTUs of the host ends of its links: what link-mtu weighs switch-to-switch
// links by (model.Fabric.HostFrames).
func hostFrames(t *snapshot.Topology) model.HostFrames {
	var hf model.HostFrames
	for _, l := range t.Links {
		for _, e := range []snapshot.LinkEnd{l.A, l.B} {
			if e.SwitchPort == "" && e.MTU.Known {
				hf.Add(e.MTU.Value)
			}
		}
	}
	return hf
}

func mtuEnd(e snapshot.LinkEnd) judge.LinkMTUEnd {
	return judge.LinkMTUEnd{MTU: e.MTU.Value, Switch: e.SwitchPort != ""}
}

// lldpOf tells whether a side read dev's lldp.json.
func lldpOf(t *snapshot.Topology, dev string) bool {
	return t != nil && slices.Contains(t.LLDP, dev)
}

// diffLinks compares the links of device dev. appeared (the device is new)
// lists only the links that break link-mtu there, as for its other values.
func diffLinks(dev string, old, new *snapshot.Topology, appeared bool) []Change {
	if new == nil || (old == nil && !appeared) {
		return nil // a side without links recorded: Diff notes it once
	}
	a, b := deviceLinks(old, dev), deviceLinks(new, dev)
	var out []Change
	var gone, came []*linkView
	for k, v := range b {
		if w, ok := a[k]; ok {
			out = append(out, sameLink(w, v)...)
		} else {
			came = append(came, v)
		}
	}
	for k, w := range a {
		if _, ok := b[k]; !ok {
			gone = append(gone, w)
		}
	}
	for _, v := range came {
		if appeared {
			if v.bad {
				out = append(out, appearedLink(v, "absent"))
			}
			continue
		}
		if w := movedFrom(gone, came, v.port); w != nil {
			out = append(out, Change{
				Interface: v.port, Field: "links", Message: fmt.Sprintf("link to %s, was to %s (the port's cable moved); %s", v.peer, w.peer, v.mtuText()),
				Before: w.peer, After: v.peer, BeforeOrigin: w.evidence(), AfterOrigin: v.evidence(),
				Effect: effect(w.bad, v.bad), Checks: sortChecks(append(w.checks(), v.checks()...)),
			})
			continue
		}
		before := "absent"
		if !lldpOf(old, dev) && !lldpOf(old, v.there.Device) {
			before = notCollected
		}
		out = append(out, appearedLink(v, before))
	}
	for _, w := range gone {
		if movedFrom(came, gone, w.port) != nil {
			continue // reported as moved
		}
		after, why := "absent", ""
		if !lldpOf(new, dev) && !lldpOf(new, w.there.Device) {
			after, why = notCollected, " (LLDP not collected on either end)"
		}
		out = append(out, Change{
			Interface: w.port, Field: "links", Message: fmt.Sprintf("link to %s disappeared%s", w.peer, why),
			Before: w.peer, After: after, BeforeOrigin: w.evidence(),
			Effect: effect(w.bad, false), Checks: sortChecks(w.checks()),
		})
	}
	sort.SliceStable(out, func(i, j int) bool {
		x, y := out[i], out[j]
		if x.Interface != y.Interface {
			return model.NaturalLess(x.Interface, y.Interface)
		}
		return x.Field < y.Field
	})
	return out
}

// movedFrom is the one link of others on port when port has exactly one
// link in others and one in mine: the same local port, another neighbour.
func movedFrom(others, mine []*linkView, port string) *linkView {
	var hit *linkView
	n := 0
	for _, o := range others {
		if o.port == port {
			hit, n = o, n+1
		}
	}
	m := 0
	for _, o := range mine {
		if o.port == port {
			m++
		}
	}
	if n == 1 && m == 1 {
		return hit
	}
	return nil
}

func appearedLink(v *linkView, before string) Change {
	return Change{
		Interface: v.port, Field: "links", Message: fmt.Sprintf("link to %s appeared, %s; %s", v.peer, v.seenText(), v.mtuText()),
		Before: before, After: v.peer, AfterOrigin: v.evidence(),
		Effect: effect(false, v.bad), Checks: sortChecks(v.checks()),
	}
}

// sameLink compares one link on both sides: its MTUs (and their verdict),
// and from how many ends it was seen.
func sameLink(w, v *linkView) []Change {
	var out []Change
	if w.mtuText() != v.mtuText() || w.bad != v.bad || w.judged != v.judged {
		out = append(out, Change{
			Interface: v.port, Field: "links.mtu", Message: fmt.Sprintf("link to %s: %s, was %s", v.peer, strings.TrimPrefix(v.mtuText(), "MTU "), strings.TrimPrefix(w.mtuText(), "MTU ")),
			Before: w.mtuText(), After: v.mtuText(), BeforeOrigin: w.evidence(), AfterOrigin: v.evidence(),
			Effect: effect(w.bad, v.bad), Checks: sortChecks(append(w.checks(), v.checks()...)),
		})
	}
	if w.oneSided != v.oneSided {
		out = append(out, Change{
			Interface: v.port, Field: "links.one_sided", Message: fmt.Sprintf("link to %s %s, was %s", v.peer, v.seenText(), w.seenText()),
			Before: w.seenText(), After: v.seenText(), BeforeOrigin: w.evidence(), AfterOrigin: v.evidence(),
			Effect: EffectNeutral, Checks: []string{},
		})
	}
	return out
}
