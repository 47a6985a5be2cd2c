package checks

import (
	"testing"
)

var _ = register(switchQueueMap, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "RoCE to TC 0", edits: []edit{appendTo(spine02C, "nv set qos egress-queue-mapping default-global switch-priority 3 traffic-class 0\n")},
			want: []string{"error spine02"}, msg: "traffic-class 0"},
		{name: "another priority shares TC 3", edits: []edit{appendTo(spine02C, "nv set qos egress-queue-mapping default-global switch-priority 0 traffic-class 3\n")},
			want: []string{"warning spine02"}, msg: "shares the RoCE traffic-class"},
	}
})
