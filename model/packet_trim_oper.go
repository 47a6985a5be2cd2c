package model

import (
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
