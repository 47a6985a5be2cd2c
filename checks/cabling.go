package checks

import (
	"fmt"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

var cabling = &Check{
	ID:       "cabling",
	Kind:     KindTopology,
	Devices:  AllDevices,
	Applies:  appliesCabling,
	Severity: judge.Error,
	Title:    "The cables LLDP sees are the cables topology.dot plans",
	Doc: `A NIC on the wrong leaf, or two cables swapped, leaves every device's QoS right and the fabric
wrong: traffic of a rail crosses the spines, and a port's lossless queue protects another flow
than the one it was sized for. When the fabric directory has a topology.dot (the cabling plan in
the format of Cumulus Linux's Prescriptive Topology Manager, CumulusNetworks/docs
Prescriptive-Topology-Manager-PTM.md), each planned cable must be one LLDP reports. A cable the
plan has and LLDP does not is missing; one LLDP reports on a device the plan cables but the plan
does not have is unexpected; two planned cables whose far ends are exchanged are one swap; a
planned port LLDP sees on another far end is one miscabling. A device whose lldp.json was not
collected has its cables "not collected", never missing. Without topology.dot the check is
silent.`,
	Inputs: []Input{LLDP, Topology},
	Run:    runCabling,
}

// cableKey is a cable's two ends, in order, whatever the source.
func cableKey(a, b model.PlanEnd) [2]model.PlanEnd {
	if b.String() < a.String() {
		a, b = b, a
	}
	return [2]model.PlanEnd{a, b}
}

func seenEnds(l *model.Link) (model.PlanEnd, model.PlanEnd) {
	return model.PlanEnd{Device: l.A.Device, Port: l.A.Port}, model.PlanEnd{Device: l.B.Device, Port: l.B.Port}
}

// cablingState holds what is left to explain after exact matches.
type cablingState struct {
	f       *model.Fabric
	missing []*model.PlannedLink
	extra   map[[2]model.PlanEnd]*model.Link
}

func runCabling(f *model.Fabric) []Finding {
	if f.Plan == nil {
		return nil
	}
	s := &cablingState{f: f, extra: map[[2]model.PlanEnd]*model.Link{}}
	for _, l := range f.Links {
		a, b := seenEnds(l)
		if f.Plan.Devices[a.Device] || f.Plan.Devices[b.Device] {
			s.extra[cableKey(a, b)] = l
		}
	}
	for _, p := range f.Plan.Links {
		k := cableKey(p.A, p.B)
		if _, ok := s.extra[k]; ok {
			delete(s.extra, k)
			continue
		}
		s.missing = append(s.missing, p)
	}
	out := s.swaps()
	out = append(out, s.miscabled()...)
	out = append(out, s.rest()...)
	return append(out, s.notCollected()...)
}

// swaps reports once each pair of planned cables a-b, c-d seen as a-d,
// c-b: the two far ends are exchanged.
func (s *cablingState) swaps() []Finding {
	var out []Finding
	used := map[*model.PlannedLink]bool{}
	for i, p := range s.missing {
		for _, q := range s.missing[i+1:] {
			if used[p] || used[q] {
				continue
			}
			for _, qq := range [][2]model.PlanEnd{{q.A, q.B}, {q.B, q.A}} {
				k1, k2 := cableKey(p.A, qq[1]), cableKey(qq[0], p.B)
				l1, ok1 := s.extra[k1]
				l2, ok2 := s.extra[k2]
				if !ok1 || !ok2 || k1 == k2 {
					continue
				}
				used[p], used[q] = true, true
				delete(s.extra, k1)
				delete(s.extra, k2)
				out = append(out, Finding{
					Severity: judge.Error, Device: p.B.Device, Interface: p.B.Port,
					Message: fmt.Sprintf("cables swapped: the plan has %s - %s (%s) and %s - %s (%s); LLDP sees %s - %s (%s) and %s - %s (%s)",
						p.A, p.B, p.Pos, qq[0], qq[1], q.Pos, p.A, qq[1], seenAt(l1), qq[0], p.B, seenAt(l2)) + physical,
					Expected: fmt.Sprintf("%s - %s, %s - %s", p.A, p.B, qq[0], qq[1]),
					Actual:   fmt.Sprintf("%s - %s, %s - %s", p.A, qq[1], qq[0], p.B),
					Source:   p.Pos,
				})
				break
			}
		}
	}
	s.missing = unplanned(s.missing, used)
	return out
}

// miscabled reports a planned cable whose end LLDP sees on another far
// end once, rather than as a missing and an unexpected cable.
func (s *cablingState) miscabled() []Finding {
	var out []Finding
	used := map[*model.PlannedLink]bool{}
	for _, p := range s.missing {
		for _, k := range sortedKeys(s.extra) {
			l := s.extra[k]
			near, planned, seen, ok := sharedEnd(p, k)
			if !ok {
				continue
			}
			used[p] = true
			delete(s.extra, k)
			out = append(out, Finding{
				Severity: judge.Error, Device: near.Device, Interface: near.Port,
				Message: fmt.Sprintf("miscabled: %s goes to %s (%s), the plan says %s (%s)",
					near, seen, seenAt(l), planned, p.Pos) + physical,
				Expected: near.String() + " - " + planned.String(),
				Actual:   near.String() + " - " + seen.String(),
				Source:   p.Pos,
			})
			break
		}
	}
	s.missing = unplanned(s.missing, used)
	return out
}

// sharedEnd is the end a planned cable and a seen one share, with each
// one's far end.
func sharedEnd(p *model.PlannedLink, k [2]model.PlanEnd) (near, planned, seen model.PlanEnd, ok bool) {
	for _, pe := range [][2]model.PlanEnd{{p.A, p.B}, {p.B, p.A}} {
		for _, se := range [][2]model.PlanEnd{{k[0], k[1]}, {k[1], k[0]}} {
			if pe[0] == se[0] {
				return pe[0], pe[1], se[1], true
			}
		}
	}
	return model.PlanEnd{}, model.PlanEnd{}, model.PlanEnd{}, false
}

// rest reports the planned cables LLDP does not see and the seen ones the
// plan does not have; a planned cable with an end whose LLDP was not
// collected is notCollected's.
func (s *cablingState) rest() []Finding {
	var out []Finding
	for _, p := range s.missing {
		if !s.collected(p.A.Device) || !s.collected(p.B.Device) {
			continue
		}
		out = append(out, Finding{
			Severity: judge.Error, Device: p.A.Device, Interface: p.A.Port,
			Message: fmt.Sprintf("cable %s - %s of the plan (%s) is missing: neither %s nor %s reports it",
				p.A, p.B, p.Pos, s.f.LLDPFile[p.A.Device], s.f.LLDPFile[p.B.Device]) + physical,
			Expected: p.A.String() + " - " + p.B.String(),
			Actual:   "not seen by LLDP",
			Source:   p.Pos,
		})
	}
	for _, k := range sortedKeys(s.extra) {
		l := s.extra[k]
		out = append(out, Finding{
			Severity: judge.Error, Device: k[0].Device, Interface: k[0].Port,
			Message:  fmt.Sprintf("cable %s - %s (%s) is not in the plan (%s)", k[0], k[1], seenAt(l), s.f.Plan.File) + physical,
			Expected: "no cable",
			Actual:   k[0].String() + " - " + k[1].String(),
			Source:   l.Source().Pos(),
		})
	}
	return out
}

func (s *cablingState) collected(dev string) bool {
	_, ok := s.f.LLDPFile[dev]
	return ok
}

// notCollected: a planned device without lldp.json.
func (s *cablingState) notCollected() []Finding {
	var devs []string
	for d := range s.f.Plan.Devices {
		if !s.collected(d) {
			devs = append(devs, d)
		}
	}
	sort.Strings(devs)
	var out []Finding
	for _, d := range devs {
		out = append(out, notCollected(d, []string{layout.LLDPFile + " not collected"}, "cabling against "+s.f.Plan.File))
	}
	return out
}

// physical ends every cabling error: its fix is a cable or the plan.
const physical = "; move the cable or correct the plan (qoslint prints no command for a cable)"

// seenAt is where LLDP reported a link, from each end that did.
func seenAt(l *model.Link) string {
	var by []string
	for _, p := range l.Evidence() {
		by = append(by, p.String())
	}
	return "LLDP " + strings.Join(by, ", ")
}

func sortedKeys(m map[[2]model.PlanEnd]*model.Link) [][2]model.PlanEnd {
	keys := make([][2]model.PlanEnd, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0].String() < keys[j][0].String()
		}
		return keys[i][1].String() < keys[j][1].String()
	})
	return keys
}

func unplanned(ps []*model.PlannedLink, used map[*model.PlannedLink]bool) []*model.PlannedLink {
	var out []*model.PlannedLink
	for _, p := range ps {
		if !used[p] {
			out = append(out, p)
		}
	}
	return out
}
