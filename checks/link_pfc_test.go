package checks

import (
	"testing"
)

var _ = register(linkPFC, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "spine PFC on 4", edits: []edit{appendTo(spine02C, "nv set qos pfc default-global switch-priority 4\n")},
			want: []string{"info leaf01 swp32", "info leaf02 swp32"}, msg: "spine02:swp1: PFC is on switch-priority 4 instead of 3"},
		{name: "host PFC on 4", edits: []edit{replace(dev("gpu02", "mlnx_qos-ens1f1np1.txt"), "enabled     0   0   0   1   0   0   0   0", "enabled     0   0   0   0   1   0   0   0")},
			want: []string{"info gpu02 ens1f1np1"}, msg: "gpu02:ens1f1np1: PFC is on priority 4 instead of 3"},
		{name: "a second PFC priority is no link break", edits: []edit{replace(dev("leaf02", "nv-config.yaml"), "'3': {}", "'3': {}\n            '4': {}")}},
		{name: "not collected", edits: []edit{remove(dev("spine01", "lldp.json"))}, want: []string{"info spine01"}},
	}
})
