package model

import (
	"slices"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// TrimOper is `nv show system forwarding packet-trim`, every value at its
// own row. A row's operational cell is what the switch runs, its applied
// cell what it was told; the published outputs fill most rows in one of
// the two only, so each value here is the operational cell, else the
// applied one (nvue.Field.Value), except State and AppliedState, which
// the troubleshooting example prints apart ("disabled" beside "enabled")
// with the reason in `session-down-reason`.
type TrimOper struct {
	File                string
	State, AppliedState Value[bool]
	// Profile is Known when the row is printed; "" when it is empty.
	Profile     Value[string]
	ServicePort Value[string]
	// TC is the trimmed packets' traffic class ("The traffic class of the
	// trimmed packet is internally derived from the switch priority").
	Size, TC, SwitchPriority Value[int]
	DSCP                     Value[int]
	PortLevel                Value[bool]
	DownReason               Value[string]
	// Eligible maps each traffic class of the eligibility table to its
	// interfaces, expanded; EligiblePos is the table's title, zero when
	// the table was not printed.
	Eligible    map[int]Value[[]string]
	EligiblePos source.Pos
	// Remarks are the port-level remark rows; RemarkPos the title.
	Remarks   []TrimOperRemark
	RemarkPos source.Pos
}

// TrimOperRemark is one row of "Port-Level SP to DSCP Remark Information".
type TrimOperRemark struct {
	Profile, Interface string
	SP, DSCP           int
	Pos                source.Pos
}

// RemarkOper is `nv show qos remark`, by profile name.
type RemarkOper struct {
	File     string
	Profiles map[string]RemarkOperProfile
}

// RemarkOperProfile is one profile's row. SPs are the switch priorities of
// its summary "SP->PCP/DSCP mapping configuration: 4", read as the
// priorities it maps (each lossy-multi-tc profile maps switch priority 4
// alone and prints 4: a count would print 1); SPsKnown is false when the
// summary says none of that.
type RemarkOperProfile struct {
	Rewrite  string
	SPs      []int
	SPsKnown bool
	Pos      source.Pos
}

// AttachTrimShows gives the switch its packet trimming views, lists them
// as not collected where the configuration trims and they are missing,
// and reads what is set on the service port the switch names when the
// configuration names none.
func AttachTrimShows(sw *Switch, show *nvue.PacketTrimShow, remark *nvue.RemarkShow) {
	t := sw.Trim
	if t == nil {
		return
	}
	if show != nil {
		t.Oper = trimOper(sw, show)
	}
	if remark != nil {
		t.RemarkOper = remarkOper(remark)
	}
	if !t.Enabled.V {
		return
	}
	// Clip: NotCollected shares its array with the capture's Missing.
	sw.NotCollected = slices.Clip(sw.NotCollected)
	if t.Oper == nil {
		sw.NotCollected = append(sw.NotCollected, layout.PacketTrimShowFile)
	}
	if t.RemarkOper == nil && len(t.Remark) > 0 {
		sw.NotCollected = append(sw.NotCollected, layout.RemarkShowFile)
	}
	if !t.ServicePort.Known && t.Oper != nil && t.Oper.ServicePort.Known && sw.outside != nil && sw.outside.ifaces != nil {
		t.ServiceSettings = sw.outside.serviceSettings(t.Oper.ServicePort.V)
	}
}

func trimOper(sw *Switch, s *nvue.PacketTrimShow) *TrimOper {
	o := &TrimOper{File: s.File, Eligible: map[int]Value[[]string]{}}
	pos := func(line int) source.Pos { return source.Pos{File: s.File, Line: line} }
	leaf := func(k string) (string, source.Pos, bool) {
		f, ok := s.Leaves[k]
		v := f.Value()
		return v, pos(f.Line), ok && v != "" && v != "-"
	}
	if f, ok := s.Leaves["state"]; ok {
		if v, ok := ParseBool(f.Value()); ok {
			o.State = Explicit(v, pos(f.Line))
		}
		if v, ok := ParseBool(f.Applied); ok {
			o.AppliedState = Explicit(v, pos(f.Line))
		}
	}
	if f, ok := s.Leaves["profile"]; ok {
		o.Profile = Explicit(f.Value(), pos(f.Line))
	}
	if v, at, ok := leaf("service-port"); ok {
		o.ServicePort = Explicit(v, at)
	}
	for k, dst := range map[string]*Value[int]{"size": &o.Size, "traffic-class": &o.TC, "switch-priority": &o.SwitchPriority} {
		if v, at, ok := leaf(k); ok {
			if n, err := strconv.Atoi(v); err == nil {
				*dst = Explicit(n, at)
			}
		}
	}
	if v, at, ok := leaf("remark.dscp"); ok {
		if v == "port-level" {
			o.PortLevel = Explicit(true, at)
		} else if n, err := strconv.Atoi(v); err == nil && n >= 0 && n <= 63 {
			o.DSCP, o.PortLevel = Explicit(n, at), Explicit(false, at)
		}
	}
	if v, at, ok := leaf("session-info.session-down-reason"); ok {
		o.DownReason = Explicit(v, at)
	}
	if s.EligibilityLine > 0 {
		o.EligiblePos = pos(s.EligibilityLine)
		for _, e := range s.Eligibility {
			names, err := ExpandNames(e.Interfaces)
			if err != nil {
				sw.Notes = append(sw.Notes, source.Errorf(s.File, e.Line, "eligible interfaces %q not read: %v", e.Interfaces, err))
				continue
			}
			prev := o.Eligible[e.TC]
			o.Eligible[e.TC] = Explicit(append(prev.V, names...), pos(e.Line))
		}
	}
	if s.RemarkLine > 0 {
		o.RemarkPos = pos(s.RemarkLine)
		for _, r := range s.Remarks {
			o.Remarks = append(o.Remarks, TrimOperRemark{Profile: r.Profile, Interface: r.Interface, SP: r.SP, DSCP: r.DSCP, Pos: pos(r.Line)})
		}
	}
	return o
}

func remarkOper(s *nvue.RemarkShow) *RemarkOper {
	o := &RemarkOper{File: s.File, Profiles: map[string]RemarkOperProfile{}}
	for _, p := range s.Profiles {
		sps, ok := p.MappedSPs()
		o.Profiles[p.Profile] = RemarkOperProfile{Rewrite: strings.TrimSpace(p.Rewrite), SPs: sps, SPsKnown: ok,
			Pos: source.Pos{File: s.File, Line: p.Line}}
	}
	return o
}
