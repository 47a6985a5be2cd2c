package checks

import (
	"testing"
)

var _ = register(ecmpHash, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "source-port off (5.15)", edits: []edit{replace(spine02C, "ecmp-hash source-port enabled", "ecmp-hash source-port disabled")},
			want: []string{"error spine02"}, msg: "UDP source port"},
		{name: "source-port off (5.14)", edits: []edit{replace(leaf01Y, "source-port: on", "source-port: off")},
			want: []string{"error leaf01"}},
		{name: "policy field off", edits: []edit{replace(leaf01Y, "ip-protocol: on", "ip-protocol: off")},
			want: []string{"warning leaf01"}, msg: "ip-protocol"},
	}
})
