package sim

import (
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/qoslint/qoslint/collectors/devcmd"
	"github.com/qoslint/qoslint/internal/layout"
)

// ethtoolPrio is the priority the synthetic counters carry RoCE traffic
// and PFC pause on: the policy default's (inventory preset
// cumulus-default, roce.priority 3).
const ethtoolPrio = 3

// ethtoolS answers `ethtool -S <netdev>` from ethtool-S-<netdev>.txt, else
// with synthetic mlx5 counters so that every simulated NIC has some. The
// error wording for an unknown interface is the simulator's own.
func (d *device) ethtoolS(netdev string) result {
	if _, err := devcmd.EthtoolS(netdev); err != nil {
		// Also keeps '/' out of the file name.
		return stderr("Cannot get stats strings information: No such device\n", exitFail)
	}
	var epoch int64
	if d.f != nil {
		epoch = d.f.samples.Load()
	}
	synthetic := stdout(syntheticEthtoolAt(d.name, netdev, epoch), exitOK)
	return d.file(layout.EthtoolFile(netdev), synthetic)
}

// syntheticEthtool is an mlx5 `ethtool -S` output in ethtool's layout
// (ethtool.c do_gstats: "NIC statistics:" then "     %s: %llu"), with the
// counter names of the mlx5 driver (Linux Documentation/networking/
// device_drivers/ethernet/mellanox/mlx5/counters.rst). RoCE traffic and
// pause appear on ethtoolPrio only; the pause counters exist only there,
// as mlx5 prints them only for priorities with PFC on. The values are a
// deterministic function of the device and the netdev, so a capture is
// reproducible. The DCQCN counters are left out: mlx5 exports them as RDMA
// hw_counters, not through ethtool -S.
func syntheticEthtool(dev, netdev string) string { return syntheticEthtoolAt(dev, netdev, 0) }

// Per Advance the synthetic NIC moves a second of a RoCE flow under PFC on
// ethtoolPrio, so two samples show growth only where it belongs.
const (
	ethtoolPktsStep  = 1_000_000
	ethtoolPauseStep = 10
)

// syntheticEthtoolAt is syntheticEthtool after epoch Advances.
func syntheticEthtoolAt(dev, netdev string, epoch int64) string {
	h := fnv.New64a()
	_, _ = h.Write([]byte(dev + "\x00" + netdev))
	seed := h.Sum64()
	step := uint64(max(epoch, 0))
	rxPkts := 900_000_000 + seed%100_000_000 + step*ethtoolPktsStep
	txPkts := 900_000_000 + (seed>>20)%100_000_000 + step*ethtoolPktsStep
	rxBytes, txBytes := rxPkts*4096, txPkts*4096
	pause := 1000 + (seed>>40)%9000 + step*ethtoolPauseStep

	var b strings.Builder
	put := func(name string, v uint64) { fmt.Fprintf(&b, "     %s: %d\n", name, v) }
	b.WriteString("NIC statistics:\n")
	put("rx_packets", rxPkts)
	put("rx_bytes", rxBytes)
	put("tx_packets", txPkts)
	put("tx_bytes", txBytes)
	put("rx_out_of_buffer", 0)
	put("rx_vport_rdma_unicast_packets", rxPkts)
	put("rx_vport_rdma_unicast_bytes", rxBytes)
	put("tx_vport_rdma_unicast_packets", txPkts)
	put("tx_vport_rdma_unicast_bytes", txBytes)
	put("rx_packets_phy", rxPkts)
	put("tx_packets_phy", txPkts)
	put("rx_discards_phy", 0)
	put("tx_discards_phy", 0)
	for p := range 8 {
		var rb, rp, tb, tp uint64
		if p == ethtoolPrio {
			rb, rp, tb, tp = rxBytes, rxPkts, txBytes, txPkts
		}
		put(fmt.Sprintf("rx_prio%d_bytes", p), rb)
		put(fmt.Sprintf("rx_prio%d_packets", p), rp)
		put(fmt.Sprintf("rx_prio%d_discards", p), 0)
		put(fmt.Sprintf("tx_prio%d_bytes", p), tb)
		put(fmt.Sprintf("tx_prio%d_packets", p), tp)
	}
	pfx := fmt.Sprintf("prio%d_pause", ethtoolPrio)
	put("rx_"+pfx, pause)
	put("rx_"+pfx+"_duration", pause*2)
	put("tx_"+pfx, pause/2)
	put("tx_"+pfx+"_duration", pause)
	put("tx_pause_storm_warning_events", 0)
	put("tx_pause_storm_error_events", 0)
	return b.String()
}
