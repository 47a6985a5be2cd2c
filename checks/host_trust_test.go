package checks

import (
	"testing"
)

var _ = register(hostTrust, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "pcp", edits: []edit{replace(gpu01Q0, "Priority trust state: dscp", "Priority trust state: pcp")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "trusts pcp"},
		{name: "not collected", edits: []edit{remove(gpu01Q0)},
			want: []string{"info gpu01"}, msg: "mlnx_qos-ens1f0np0.txt not collected: trust not checked"},
	}
})
