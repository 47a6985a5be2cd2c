package checks

import (
	"slices"
	"testing"

	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

// TestFirmwareParamNames: the snapshot records the parameters
// model.FirmwareParamNames lists, which must be every one host-firmware
// judges under any policy.
func TestFirmwareParamNames(t *testing.T) {
	for _, port := range []int{1, 2} {
		var names []string
		for _, w := range firmwareParams(inventory.Policy{ECMP: inventory.ECMPPolicy{AdaptiveRouting: true}}, port) {
			names = append(names, w.name)
		}
		if got := model.FirmwareParamNames(port); !slices.Equal(got, names) {
			t.Errorf("port %d: model lists %v, host-firmware judges %v", port, got, names)
		}
	}
}
