package checks

import (
	"testing"
)

var _ = register(switchPFC, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "moved to 4", edits: []edit{appendTo(spine02C, "nv set qos pfc default-global switch-priority 4\n")},
			want: []string{"error spine02 swp1-32"}, msg: "instead of 3"},
		{name: "extra priority", edits: []edit{replace(leaf02Y, "'3': {}", "'3': {}\n            '4': {}")},
			want: []string{"warning leaf02 swp1-32"}, msg: "also on switch-priority 4"},
		// A port bound to a pfc profile written for other traffic (the
		// broken pod's defect 20): the finding is that port's, named after
		// the profile, the others keep default-global's PFC on 3.
		{name: "one port's own pfc profile without the RoCE priority", edits: []edit{appendTo(spine02C,
			"nv set qos pfc storage-pfc switch-priority 2\nnv set interface swp5 qos pfc profile storage-pfc\n")},
			want: []string{"error spine02 swp5"}, msg: "PFC is on switch-priority 2 instead of 3"},
		{name: "tx disabled", edits: []edit{replace(leaf02Y, "tx: enable", "tx: disable")},
			want: []string{"error leaf02 swp1-32"}, msg: "PFC tx is disabled"},
		{name: "lossy RoCE has no PFC", edits: []edit{replace(spine01Y, "mode: lossless", "mode: lossy")},
			want: []string{"error spine01 swp1-32"}, msg: "not on switch-priority 3"},
	}
})
