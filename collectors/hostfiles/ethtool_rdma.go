package hostfiles

// RDMAStats are mlx5's vPort RDMA traffic counters in `ethtool -S`: what
// the NIC's RDMA engine (RoCE, UD and RC QPs) received and sent, apart
// from its Ethernet traffic, which the rx/tx_vport_unicast_* counters
// count "excluding RDMA traffic" (Linux Documentation/networking/
// device_drivers/ethernet/mellanox/mlx5/counters.rst, "vPort Counters";
// names and order from mlx5 en_stats.c vport_stats_desc). A NIC whose
// RDMA counters are 0 carried no RoCE, whatever its per-priority bytes
// say. Older drivers may not print them: absent is not zero.
type RDMAStats struct {
	RxPackets, RxBytes, TxPackets, TxBytes Counter // rx/tx_vport_rdma_unicast_*
	// The multicast counters (rx/tx_vport_rdma_multicast_*): RDMA
	// multicast is UD only, but it is RDMA traffic all the same.
	RxMcastPackets, RxMcastBytes, TxMcastPackets, TxMcastBytes Counter
}

// RDMA returns the vPort RDMA counters.
func (e *EthtoolStats) RDMA() RDMAStats {
	return RDMAStats{
		RxPackets: e.Get("rx_vport_rdma_unicast_packets"), RxBytes: e.Get("rx_vport_rdma_unicast_bytes"),
		TxPackets: e.Get("tx_vport_rdma_unicast_packets"), TxBytes: e.Get("tx_vport_rdma_unicast_bytes"),
		RxMcastPackets: e.Get("rx_vport_rdma_multicast_packets"), RxMcastBytes: e.Get("rx_vport_rdma_multicast_bytes"),
		TxMcastPackets: e.Get("tx_vport_rdma_multicast_packets"), TxMcastBytes: e.Get("tx_vport_rdma_multicast_bytes"),
	}
}

// RxCRCErrors is rx_crc_errors_phy: frames the port dropped for a bad FCS
// (counters.rst, "Physical Port Counters"). A lossless fabric still loses
// these, so they tell link corruption from congestion drops.
func (e *EthtoolStats) RxCRCErrors() Counter { return e.Get("rx_crc_errors_phy") }
