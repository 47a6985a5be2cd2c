package checks

import (
	"testing"
)

var _ = register(hostECN, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		{name: "rp off", edits: []edit{write(gpu01Sy+"/roce_rp/enable/3", "0\n")},
			want: []string{"error gpu01 ens1f0np0"}, msg: "reaction point is off for priority 3"},
		{name: "np and rp off", edits: []edit{write(gpu01Sy+"/roce_rp/enable/3", "0\n"), write(gpu01Sy+"/roce_np/enable/3", "0\n")},
			want: []string{"error gpu01 ens1f0np0", "error gpu01 ens1f0np0"}},
		{name: "not collected", edits: []edit{remove(gpu01Sy + "/roce_rp/enable/3"), remove(gpu01Sy + "/roce_np/enable/3")},
			want: []string{"info gpu01"}},
	}
})
