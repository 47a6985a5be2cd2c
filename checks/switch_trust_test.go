package checks

import (
	"testing"
)

// The switch checks judge the inventory's ports only: the port outside it
// is link-qos's finding alone, not counted twice.
var _ = register(switchTrust, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "a port outside the inventory's ports list is link-qos's", edits: append([]edit{leaf01PortsWithoutSwp4}, leaf01Swp4Edge...)},
	}
})

var _ = register(switchTrust, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "profile trusts l2", edits: []edit{replace(leaf02Y, "trust: both", "trust: l2")},
			want: []string{"error leaf02 swp1-32"}, msg: "ports trust l2"},
		{name: "default-global trusts port", edits: []edit{appendTo(spine02C, "nv set qos mapping default-global trust port\n")},
			want: []string{"error spine02 swp1-32"}},
		{name: "l3 is fine", edits: []edit{appendTo(spine02C, "nv set qos mapping default-global trust l3\n")}},
	}
})
