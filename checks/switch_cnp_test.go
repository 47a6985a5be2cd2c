package checks

import (
	"testing"
)

var _ = register(switchCNP, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "CNP DSCP to 0", edits: []edit{appendTo(spine02C, "nv set qos mapping default-global dscp 48 switch-priority 0\n")},
			want: []string{"error spine02 swp1-32"}, msg: "CNP DSCP 48 maps to switch-priority 0"},
		{name: "CNP priority into the RoCE queue", edits: []edit{appendTo(spine02C, "nv set qos egress-queue-mapping default-global switch-priority 6 traffic-class 3\n")},
			want: []string{"error spine02"}, msg: "CNPs wait behind"},
		{name: "CNP queue not strict", edits: []edit{appendTo(spine02C, "nv set qos egress-scheduler default-global traffic-class 6 mode dwrr\n")},
			want: []string{"warning spine02 swp1-32"}, msg: "not strict"},
	}
})
