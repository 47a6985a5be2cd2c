package hostfiles

import (
	"os"
	"path"
	"strings"
	"testing"
	"testing/fstest"
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
	dir := HWCountersDir("sys", "mlx5_1", 1)
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
