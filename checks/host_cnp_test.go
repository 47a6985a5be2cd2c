package checks

import (
	"testing"
)

var _ = register(hostCNP, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "CNP DSCP 46", edits: []edit{write(gpu01Sy+"/roce_np/cnp_dscp", "46\n")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "CNPs leave with DSCP 46"},
		{name: "CNP 802.1p 0", edits: []edit{write(gpu01Sy+"/roce_np/cnp_802p_prio", "0\n")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "802.1p priority 0"},
	}
})
