package checks

import (
	"testing"
)

var _ = register(switchECN, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "profile disables ECN", edits: []edit{replace(leaf02Y, "ecn: enable", "ecn: disable")},
			want: []string{"error leaf02 swp1-32"}, msg: "ECN is off on traffic-class 3"},
		{name: "default-global disables ECN (5.15 spelling)", edits: []edit{appendTo(spine02C, "nv set qos congestion-control default-global traffic-class 3 ecn disabled\n")},
			want: []string{"error spine02 swp1-32"}},
		{name: "thresholds inverted", edits: []edit{replace(leaf02Y, "min-threshold: 150000", "min-threshold: 2000000")},
			want: []string{"warning leaf02 swp1-32"}, msg: "not below max-threshold"},
	}
})
