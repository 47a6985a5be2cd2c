package hostmodel

import (
	"path"
	"strconv"
	"testing"
	"testing/fstest"
	"time"

	"github.com/qoslint/qoslint/model"

	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/layout"
)

// ethtoolWithRDMA is ethtool -S with the vPort RDMA counters in mlx5's
// order (en_stats.c vport_stats_desc: unicast, then multicast) and the
// per-priority bytes of priority 0.
func ethtoolWithRDMA(t *testing.T, rdmaTx, mcastTx, prio0Tx uint64) *hostfiles.EthtoolStats {
	t.Helper()
	text := "NIC statistics:\n" +
		"     rx_vport_rdma_unicast_packets: 10\n     rx_vport_rdma_unicast_bytes: 40960\n" +
		"     tx_vport_rdma_unicast_packets: 20\n     tx_vport_rdma_unicast_bytes: " + strconv.FormatUint(rdmaTx, 10) + "\n" +
		"     rx_vport_rdma_multicast_packets: 0\n     rx_vport_rdma_multicast_bytes: 0\n" +
		"     tx_vport_rdma_multicast_packets: 1\n     tx_vport_rdma_multicast_bytes: " + strconv.FormatUint(mcastTx, 10) + "\n" +
		"     rx_crc_errors_phy: 4\n     tx_prio0_bytes: " + strconv.FormatUint(prio0Tx, 10) + "\n"
	e, err := hostfiles.ParseEthtool("e.txt", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func hwCounters(t *testing.T, vals map[string]string) *hostfiles.HWCounters {
	t.Helper()
	fsys := fstest.MapFS{}
	dir := layout.HWCountersDir("sysfs", "mlx5_0", 1)
	for name, v := range vals {
		fsys[path.Join(dir, name)] = &fstest.MapFile{Data: []byte(v)}
	}
	h, errs := hostfiles.ReadHWCounters(fsys, "sysfs", "mlx5_0", 1)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	return h
}

func TestBuildCountersRDMAAndHW(t *testing.T) {
	hw := hwCounters(t, map[string]string{hostfiles.HWCNPSent: "7\n", hostfiles.HWECNMarkedRoCE: "90\n", hostfiles.HWOutOfSequence: "3\n", hostfiles.HWPacketSeqErr: "2\n"})
	c := buildCounters(ethtoolWithRDMA(t, 4096, 100, 5), hw)
	if !c.RDMA.Known() || c.RDMA.None() || c.RDMA.TxBytes.V != 4196 || c.RDMA.TxBytes.Origin.Pos().Line != 5 || c.RDMA.TxPackets.V != 21 {
		t.Errorf("rdma %+v", c.RDMA)
	}
	if c.CNPSent.V != 7 || c.ECNMarkedRoCE.V != 90 || c.ECNMarkedRoCE.Origin.Pos().File != "sysfs/class/infiniband/mlx5_0/ports/1/hw_counters/np_ecn_marked_roce_packets" || c.CNPHandled.Known {
		t.Errorf("dcqcn %+v %+v %+v", c.CNPSent, c.ECNMarkedRoCE, c.CNPHandled)
	}
	if n, ok := c.Transport.Losses(); !ok || n != 5 || c.RxCRCErrors.V != 4 || c.HWFile != hw.Dir {
		t.Errorf("losses %d %t, crc %+v", n, ok, c.RxCRCErrors)
	}
	// hw_counters alone still give counters; ethtool alone has no losses.
	if c := buildCounters(nil, hw); c == nil || c.CNPSent.V != 7 || c.RDMA.Known() || c.Prio[3].TxBytes.Known {
		t.Errorf("hw only %+v", c)
	}
	if _, ok := buildCounters(ethtoolWithRDMA(t, 0, 0, 5), nil).Transport.Losses(); ok {
		t.Error("losses without hw_counters")
	}
	if buildCounters(nil, nil) != nil {
		t.Error("counters from nothing")
	}
	// A NIC that carried only TCP: every RDMA counter 0.
	e := ethtoolWithRDMA(t, 0, 0, 1<<40)
	e.Stats["rx_vport_rdma_unicast_packets"], e.Stats["rx_vport_rdma_unicast_bytes"] = 0, 0
	e.Stats["tx_vport_rdma_unicast_packets"], e.Stats["tx_vport_rdma_multicast_packets"] = 0, 0
	if c := buildCounters(e, nil); !c.RDMA.None() {
		t.Errorf("tcp-only NIC carried RDMA: %+v", c.RDMA)
	}
}

func TestDeltaRDMAAndHW(t *testing.T) {
	before := buildCounters(ethtoolWithRDMA(t, 4096, 0, 5), hwCounters(t, map[string]string{hostfiles.HWCNPSent: "7\n", hostfiles.HWOutOfSequence: "3\n", hostfiles.HWRnrNakRetryErr: "9\n"}))
	after := buildCounters(ethtoolWithRDMA(t, 4096, 0, 5), hwCounters(t, map[string]string{hostfiles.HWCNPSent: "7\n", hostfiles.HWOutOfSequence: "10\n", hostfiles.HWRnrNakRetryErr: "2\n"}))
	model.DeltaNIC(after, before, 30*time.Second)
	if !after.RDMA.TxBytes.Known || after.RDMA.TxBytes.V != 0 || after.RDMA.RxPackets.V != 0 || !after.RDMA.None() {
		t.Errorf("no RDMA growth: %+v", after.RDMA)
	}
	// out_of_sequence grew by 7; rnr_nak_retry_err went down: reset, 2 since.
	if after.Transport.OutOfSequence.V != 7 || after.Transport.RnrNakRetryErr.V != 2 || after.CNPSent.V != 0 || after.RxCRCErrors.V != 0 {
		t.Errorf("transport %+v cnp %+v crc %+v", after.Transport, after.CNPSent, after.RxCRCErrors)
	}
}
