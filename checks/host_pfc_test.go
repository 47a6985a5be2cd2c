package checks

import (
	"testing"
)

var _ = register(hostPFC, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "moved to 4", edits: []edit{replace(gpu01Q0, "enabled     0   0   0   1   0", "enabled     0   0   0   0   1")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "PFC is on priority 4 instead of 3"},
		{name: "off", edits: []edit{replace(gpu01Q0, "enabled     0   0   0   1   0", "enabled     0   0   0   0   0")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "not on priority 3"},
		{name: "extra", edits: []edit{replace(gpu01Q0, "enabled     0   0   0   1   0", "enabled     1   0   0   1   0")},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "also on priority 0"},
	}
})
