package trace

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

// Endpoint is one end of a trace: a host, and one of its NICs ("" for each
// NIC paired with the other host's NIC of the same rank).
type Endpoint struct{ Host, NIC string }

func (e Endpoint) String() string {
	if e.NIC == "" {
		return e.Host
	}
	return e.Host + ":" + e.NIC
}

// Step names: the marking chain's hop names (render.Hop*, the same
// strings, see render's test), plus the CNP's steps.
const (
	StepToS            = "tos"
	StepNICPriority    = "nic-priority"
	StepNICPFC         = "nic-pfc"
	StepNICECN         = "nic-ecn"
	StepNICCNP         = "nic-cnp"
	StepSwitchPriority = "switch-priority"
	StepSwitchPFC      = "switch-pfc"
	StepSwitchTC       = "switch-tc"
	StepSwitchECN      = "switch-ecn"
	StepCNPPriority    = "cnp-priority"
	StepCNPTC          = "cnp-tc"
	StepCNPSched       = "cnp-sched"
)

// Directions of a step: RoCE from source to destination, the CNP back.
const (
	DirRoCE = "roce"
	DirCNP  = "cnp"
)

// Step statuses, as the marking chain's.
const (
	StepOK      = "ok"
	StepBroken  = "broken"
	StepUnknown = "unknown"
)

// TraceStep is one judged value of one port on the path.
type TraceStep struct {
	Name, Dir, Port string
	Status          string
	// Label is the value ("DSCP 26 → SP 0"); Reason the judgement's message
	// when it is not ok (a warning's too, though it leaves the hop ok: as
	// in the marking chain, only an error loses RoCE's mark).
	Label, Reason string
	// Source is where the value was read, or why it is a default.
	Source string
	// Check is the check whose judgement this is.
	Check string
}

// TraceHop is one device on a path: the port RoCE enters by (In) and the
// one it leaves by (Out); a host NIC has only one of them.
type TraceHop struct {
	Device, Kind, Role string
	In, Out            string
	Steps              []TraceStep
}

// TracePath is one ECMP path, hop by hop. Broken is the index of the first
// hop with a broken step (-1 when none), Check that step's check.
type TracePath struct {
	Via    string // the spine, "" on a one-leaf path
	Hops   []TraceHop
	Broken int
	Check  string
}

// TracePair is the paths between one source NIC and one destination NIC.
type TracePair struct {
	Src, Dst Endpoint
	Paths    []TracePath
}

// TraceResult is every path of a trace, with the policy's values each hop
// is judged against.
type TraceResult struct {
	Src, Dst                Endpoint
	DSCP, ToS, Priority, TC int
	CNPDSCP, CNPPriority    int
	Lossless                bool
	Pairs                   []TracePair
}

// Broken reports whether some path has a broken hop.
func (r *TraceResult) Broken() bool {
	for _, p := range r.Pairs {
		for _, path := range p.Paths {
			if path.Broken >= 0 {
				return true
			}
		}
	}
	return false
}

// Trace lists the ECMP paths between two GPU NICs from the LLDP links (NIC
// → leaf → each spine linked to both leaves → leaf → NIC; one path without
// spines when both NICs are on one leaf) and judges every port on them with
// the checks' own judgements, for RoCE and for the CNP coming back. A host
// without a NIC pairs its NIC k with NIC k of the other host (the rail
// order: inventory nics, else ibdev2netdev.txt, else netdev order): in a
// rail-optimised fabric that is the traffic NCCL sends between two ranks.
// The error names an unknown device or NIC, a NIC LLDP sees on no switch,
// or leaves no spine joins.
func Trace(f *model.Fabric, src, dst Endpoint) (*TraceResult, error) {
	if len(f.Policy.RoCE.DSCP) == 0 {
		return nil, fmt.Errorf("the policy names no RoCE DSCP: nothing to follow")
	}
	pairs, err := tracePairs(f, src, dst)
	if err != nil {
		return nil, err
	}
	p := f.Policy
	r := &TraceResult{Src: src, Dst: dst, DSCP: p.RoCE.DSCP[0], ToS: model.ToSOfDSCP(p.RoCE.DSCP[0]),
		Priority: p.RoCE.Priority, TC: p.RoCE.TrafficClass, CNPDSCP: p.CNP.DSCP, CNPPriority: p.CNP.Priority,
		Lossless: judge.PFCRequired(p)}
	for _, pr := range pairs {
		paths, err := tracePaths(f, pr[0], pr[1])
		if err != nil {
			return nil, err
		}
		r.Pairs = append(r.Pairs, TracePair{Src: pr[0], Dst: pr[1], Paths: paths})
	}
	return r, nil
}

// tracePairs resolves the endpoints into NIC pairs.
func tracePairs(f *model.Fabric, src, dst Endpoint) ([][2]Endpoint, error) {
	sn, err := traceNICs(f, src)
	if err != nil {
		return nil, err
	}
	dn, err := traceNICs(f, dst)
	if err != nil {
		return nil, err
	}
	if src.Host == dst.Host && (src.NIC == dst.NIC || src.NIC == "" || dst.NIC == "") {
		return nil, fmt.Errorf("%s and %s are one NIC: give two hosts or two NICs", src, dst)
	}
	switch {
	case src.NIC != "" && dst.NIC != "":
		return [][2]Endpoint{{src, dst}}, nil
	case src.NIC != "":
		k := slices.Index(sn, src.NIC)
		if k >= len(dn) {
			return nil, fmt.Errorf("%s is NIC %d of %s, and %s has no NIC %d: name the destination NIC", src, k, src.Host, dst.Host, k)
		}
		return [][2]Endpoint{{src, {dst.Host, dn[k]}}}, nil
	case dst.NIC != "":
		k := slices.Index(dn, dst.NIC)
		if k >= len(sn) {
			return nil, fmt.Errorf("%s is NIC %d of %s, and %s has no NIC %d: name the source NIC", dst, k, dst.Host, src.Host, k)
		}
		return [][2]Endpoint{{{src.Host, sn[k]}, dst}}, nil
	}
	var out [][2]Endpoint
	for k := range min(len(sn), len(dn)) {
		out = append(out, [2]Endpoint{{src.Host, sn[k]}, {dst.Host, dn[k]}})
	}
	return out, nil
}

// traceNICs is a host's RoCE NICs in rail order; the error names an
// unknown host or an endpoint NIC the host does not have.
func traceNICs(f *model.Fabric, e Endpoint) ([]string, error) {
	h := f.Host(e.Host)
	if h == nil {
		if f.SwitchByName(e.Host) != nil {
			return nil, fmt.Errorf("%s is a switch: a trace runs between two GPU hosts", e.Host)
		}
		return nil, fmt.Errorf("no host %q in the inventory", e.Host)
	}
	var all []string
	if f.Rails != nil {
		for _, n := range f.Rails.NICs[h.Name] {
			if h.NIC(n.Netdev) != nil {
				all = append(all, n.Netdev)
			}
		}
	}
	if len(all) == 0 {
		for _, n := range h.NICs {
			all = append(all, n.Netdev)
		}
		slices.SortFunc(all, func(a, b string) int {
			if model.NaturalLess(a, b) {
				return -1
			}
			if model.NaturalLess(b, a) {
				return 1
			}
			return cmp.Compare(a, b)
		})
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("%s has no RoCE NIC (%s not collected?)", e.Host, layout.IBDev2NetdevFile)
	}
	if e.NIC != "" && !slices.Contains(all, e.NIC) {
		return nil, fmt.Errorf("%s has no RoCE NIC %q (it has %s)", e.Host, e.NIC, strings.Join(all, ", "))
	}
	return all, nil
}

// nicLeaf is the switch end of the LLDP link of a host NIC.
func nicLeaf(f *model.Fabric, e Endpoint) (model.LinkEnd, error) {
	var ends []model.LinkEnd
	for _, l := range f.Links {
		this, other, ok := l.End(e.Host)
		if ok && this.Port == e.NIC && other.Kind == layout.KindSwitch {
			ends = append(ends, other)
		}
	}
	switch len(ends) {
	case 0:
		why := ""
		if _, ok := f.LLDPFile[e.Host]; !ok {
			why = fmt.Sprintf(" (%s's %s not collected)", e.Host, layout.LLDPFile)
		}
		return model.LinkEnd{}, fmt.Errorf("LLDP shows no switch at the end of %s%s: no path to trace", e, why)
	case 1:
		return ends[0], nil
	}
	return model.LinkEnd{}, fmt.Errorf("LLDP shows %s on %d switch ports (%s:%s, %s:%s): no single path to trace",
		e, len(ends), ends[0].Device, ends[0].Port, ends[1].Device, ends[1].Port)
}
