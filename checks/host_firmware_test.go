package checks

import (
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
)

// TestFirmwareParamNames: the snapshot records the parameters
// model.FirmwareParamNames lists, which must be every one host-firmware
// judges under any policy.
func TestFirmwareParamNames(t *testing.T) {
	for _, port := range []int{1, 2} {
		var names []string
		for _, w := range judge.FirmwareWants(policy.Policy{ECMP: policy.ECMPPolicy{AdaptiveRouting: true}}, port) {
			names = append(names, w.Name)
		}
		if got := model.FirmwareParamNames(port); !slices.Equal(got, names) {
			t.Errorf("port %d: model lists %v, host-firmware judges %v", port, got, names)
		}
	}
}

var (
	gpu01Mlx = dev("gpu01", "mlxconfig-mlx5_0.txt")
	gpu01PCI = dev("gpu01", "lspci.txt")
	gpu01CPU = dev("gpu01", "cpuinfo.txt")
)

var _ = register(hostFirmware, func(t testing.TB) []checkCase {
	fw := hostfile(t, "mlxconfig/constructed_next_boot.txt")
	return []checkCase{
		{name: "clean"},
		{name: "policy values", edits: []edit{write(gpu01Mlx, fw)}},
		{name: "CNP DSCP 46 at next boot", edits: []edit{write(gpu01Mlx, strings.Replace(fw, "CNP_DSCP_P1                         48", "CNP_DSCP_P1                         46", 1))},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "CNP_DSCP_P1 of mlx5_0 (ens1f0np0 port 1) is 46 at the next boot"},
		{name: "RoCE priority not in the CC mask", edits: []edit{write(gpu01Mlx, strings.Replace(fw, "ROCE_CC_PRIO_MASK_P1                255", "ROCE_CC_PRIO_MASK_P1                247", 1))},
			want: []string{"warning gpu01 ens1f0np0"}, msg: "must cover RoCE priority 3"},
		{name: "not collected", edits: []edit{remove(gpu01Mlx)},
			want: []string{"info gpu01"}, msg: "mlxconfig-mlx5_0.txt not collected: firmware configuration not checked"},
		{name: "link type IB", edits: []edit{write(gpu01Mlx, strings.Replace(fw, "LINK_TYPE_P1                        ETH(2)", "LINK_TYPE_P1                        IB(1)", 1))},
			want: []string{"error gpu01 ens1f0np0"}, msg: "must be Ethernet"},
	}
})
