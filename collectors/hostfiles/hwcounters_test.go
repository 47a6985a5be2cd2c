package hostfiles

import (
	"os"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/qoslint/qoslint/internal/layout"
)

// testdata/sysfs_hw_counters mirrors /sys/class/infiniband/mlx5_0/ports/1/
// hw_counters of a ConnectX RoCE port, one value per file as the RDMA core
// prints it (drivers/infiniband/core/sysfs.c print_hw_stat: "%llu\n"),
// with the file names of drivers/infiniband/hw/mlx5/counters.c and the
// directory layout prometheus/procfs reads (sysfs/class_infiniband.go,
// InfiniBandHwCounters). The values are our own; the files qoslint does
// not read (lifespan, out_of_buffer, rx_write_requests, ...) are there
// because a real directory has them.
func TestReadHWCounters(t *testing.T) {
	h, errs := ReadHWCounters(os.DirFS("testdata"), "sysfs_hw_counters", "mlx5_0", 1)
	if len(errs) != 0 || h == nil {
		t.Fatalf("%v %+v", errs, h)
	}
	want := map[string]uint64{
		HWCNPSent: 2261950, HWECNMarkedRoCE: 52118903, HWCNPHandled: 1804477, HWCNPIgnored: 0,
		HWOutOfSequence: 0, HWPacketSeqErr: 3, HWImpliedNakSeqErr: 0, HWLocalAckTimeoutErr: 1, HWRnrNakRetryErr: 0,
	}
	for name, v := range want {
		c := h.Get(name)
		if !c.Present() || c.Value != v || c.File != "sysfs_hw_counters/class/infiniband/mlx5_0/ports/1/hw_counters/"+name {
			t.Errorf("%s = %+v, want %d", name, c, v)
		}
	}
	if len(want) != len(HWCounterNames) {
		t.Errorf("the test covers %d of %d counters", len(want), len(HWCounterNames))
	}
	if c := h.Get("lifespan"); c.Present() {
		t.Errorf("lifespan is not a counter qoslint reads: %+v", c)
	}
}

func TestReadHWCountersPartialAndBad(t *testing.T) {
	dir := layout.HWCountersDir("sys", "mlx5_1", 1)
	fsys := fstest.MapFS{
		path.Join(dir, HWCNPSent):       {Data: []byte("12\n")},
		path.Join(dir, HWECNMarkedRoCE): {Data: []byte("N/A\n")},
		path.Join(dir, HWOutOfSequence): {Data: []byte("")},
	}
	h, errs := ReadHWCounters(fsys, "sys", "mlx5_1", 1)
	if h == nil || h.Get(HWCNPSent).Value != 12 || h.Get(HWECNMarkedRoCE).Present() || h.Get(HWCNPHandled).Present() {
		t.Fatalf("%+v", h)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), dir+"/"+HWECNMarkedRoCE+":1") || !strings.Contains(errs[1].Error(), "empty") {
		t.Errorf("errors %v", errs)
	}
	// Not collected: nil, no error. A bad name or port is ReadSysfs's to
	// report.
	for _, c := range []struct {
		ib   string
		port int
	}{{"mlx5_0", 1}, {"mlx5_1", 2}, {"../x", 1}, {"mlx5_1", 0}} {
		if h, errs := ReadHWCounters(fsys, "sys", c.ib, c.port); h != nil || len(errs) != 0 {
			t.Errorf("%s/%d: %+v %v", c.ib, c.port, h, errs)
		}
	}
}

func TestParseHWCounter(t *testing.T) {
	for in, want := range map[string]uint64{"0\n": 0, "2261950\n": 2261950, "18446744073709551615\n": 1<<64 - 1, " 7 \r\n": 7} {
		if v, err := ParseHWCounter("f", []byte(in)); err != nil || v != want {
			t.Errorf("%q: %d %v", in, v, err)
		}
	}
	for _, in := range []string{"", "\n", "-1\n", "18446744073709551616\n", "1 2\n", "1\n2\n", "0x10\n", "N/A (no PMA)\n"} {
		if _, err := ParseHWCounter("f", []byte(in)); err == nil || !strings.HasPrefix(err.Error(), "f:1") {
			t.Errorf("%q: %v", in, err)
		}
	}
}

func TestEthtoolRDMA(t *testing.T) {
	data, err := os.ReadFile("testdata/ethtool/constructed_cx6_prio3.txt")
	if err != nil {
		t.Fatal(err)
	}
	e, err := ParseEthtool("e.txt", data)
	if err != nil {
		t.Fatal(err)
	}
	r := e.RDMA()
	if r.TxBytes.Value != 7598764833297 || r.TxBytes.Line != 21 || r.RxPackets.Value != 912341166 || r.TxMcastBytes.Present() {
		t.Errorf("%+v", r)
	}
	if c := e.RxCRCErrors(); !c.Present() || c.Value != 0 {
		t.Errorf("crc %+v", c)
	}
	if r := (&EthtoolStats{}).RDMA(); r.TxBytes.Present() {
		t.Errorf("absent counters present: %+v", r)
	}
}

// testdata/ethtool/constructed_tcp_only_vport_rdma.txt is a ConnectX port
// that carried only TCP: ethtool's layout (ethtool.c do_gstats), mlx5's
// counter names and group order (en_stats.c: sw, vport_stats_desc with
// the eight rx/tx_vport_rdma_{unicast,multicast}_{packets,bytes} after
// the Ethernet vport counters, 802.3 phy, per-priority traffic, PFC of
// priority 3; Linux drivers/net/ethernet/mellanox/mlx5/core/en_stats.c);
// our own values, every RDMA counter 0 (Linux counters.rst, "vPort Counters":
// the Ethernet vport counters exclude RDMA traffic, the RDMA ones count
// only it).
func TestEthtoolTCPOnly(t *testing.T) {
	e := readEthtool(t, "constructed_tcp_only_vport_rdma.txt")
	r := e.RDMA()
	for _, c := range []Counter{r.RxPackets, r.RxBytes, r.TxPackets, r.TxBytes, r.RxMcastPackets, r.RxMcastBytes, r.TxMcastPackets, r.TxMcastBytes} {
		if !c.Present() || c.Value != 0 {
			t.Errorf("RDMA counter %+v, want printed and 0", c)
		}
	}
	if r.TxMcastBytes.Line != r.TxBytes.Line+4 {
		t.Errorf("multicast after unicast: lines %d, %d", r.TxBytes.Line, r.TxMcastBytes.Line)
	}
	if p0 := e.Prio(0); p0.TxBytes.Value < 700<<30 {
		t.Errorf("priority 0: %+v", p0)
	}
}
