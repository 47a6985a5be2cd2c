package model

import (
	"github.com/qoslint/qoslint/internal/source"
)

// RailNIC is a host's k-th NIC: NIC k belongs to rail k.
type RailNIC struct {
	Netdev string
	// From is where the order comes from: the inventory's nics, or the
	// line of ibdev2netdev.txt that names the NIC.
	From source.Pos
}

// Rails is the inventory's rail rule with each host's NIC order; nil when
// the inventory sets none.
type Rails struct {
	// Groups[k] are the leaves of rail k.
	Groups [][]string
	Pos    source.Pos
	// NICs are each host's NICs in rail order; a host absent has no order
	// (neither inventory nics nor ibdev2netdev.txt).
	NICs map[string][]RailNIC
}
