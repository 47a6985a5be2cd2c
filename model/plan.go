package model

import (
	"github.com/qoslint/qoslint/internal/source"
)

// PlanEnd is one end of a planned cable, on an inventory device.
type PlanEnd struct{ Device, Port string }

func (e PlanEnd) String() string { return e.Device + ":" + e.Port }

// PlannedLink is a cable of the cabling plan (topology.dot), at its line.
type PlannedLink struct {
	A, B PlanEnd
	Pos  source.Pos
}

// Plan is the fabric's cabling plan; nil when it has none.
type Plan struct {
	File  string
	Links []*PlannedLink
	// Devices are the inventory devices the plan cables.
	Devices map[string]bool
}
