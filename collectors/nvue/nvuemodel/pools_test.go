package nvuemodel

import (
	"slices"
	"strings"
	"testing"

	"github.com/qoslint/qoslint/model"
)

// TestTrafficPools: the RoCE page's remap-to-lossy recipe (CumulusNetworks/docs
// content/cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/
// RDMA-over-Converged-Ethernet-RoCE.md), read as written and sorted by pool.
func TestTrafficPools(t *testing.T) {
	cfg := "nv set qos roce mode lossless\nnv set qos roce state enabled\nnv set interface swp1-8 type swp\n" +
		"nv set qos traffic-pool default-lossy switch-priority 0-3,5-7\n" +
		"nv set qos traffic-pool roce-lossy memory-percent 60\n" +
		"nv set qos traffic-pool default-lossy memory-percent 40\n" +
		"nv set qos traffic-pool roce-lossy switch-priority 4\n"
	sw, probs := cmdSwitch(t, cfg)
	if probs != "" {
		t.Fatal(probs)
	}
	if len(sw.Pools) != 2 || sw.Pools[0].Name != "default-lossy" || sw.Pools[1].Name != "roce-lossy" {
		t.Fatalf("pools %+v", sw.Pools)
	}
	d, r := sw.Pools[0], sw.Pools[1]
	if !slices.Equal(d.SPs, []int{0, 1, 2, 3, 5, 6, 7}) || d.SPsPos.Line != 4 || d.MemoryPercent.V != 40 || d.MemoryPercent.Origin.Pos().Line != 6 {
		t.Errorf("default-lossy %+v", d)
	}
	if !slices.Equal(r.SPs, []int{4}) || r.MemoryPercent.V != 60 || !r.MemoryPercent.Known {
		t.Errorf("roce-lossy %+v", r)
	}
	if !model.LossyPool("roce-lossy") || model.LossyPool("roce-lossless") {
		t.Error("LossyPool")
	}

	_, probs = cmdSwitch(t, cfg+"nv set qos traffic-pool roce-lossless memory-percent 150\n")
	if !strings.Contains(probs, ":8: memory-percent: \"150\" is not a number in 0-100") {
		t.Errorf("problems %q", probs)
	}
}
