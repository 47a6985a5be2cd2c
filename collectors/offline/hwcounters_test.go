package offline_test

import (
	"github.com/qoslint/qoslint/collectors/fabric"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/qoslint/qoslint/collectors/offline"
	"github.com/qoslint/qoslint/inventory"
)

// TestHWCounters: the RDMA hw_counters of the NIC's RDMA port (from
// ibdev2netdev) are read from the sysfs mirror, one "%llu\n" per file
// (drivers/infiniband/core/sysfs.c print_hw_stat), and their earlier
// sample from sysfs.before/ when the host has a counters interval.
func TestHWCounters(t *testing.T) {
	inv, err := inventory.Parse("inventory.yaml", []byte("fabric: t\nhosts:\n  - {name: gpu01, address: 198.51.100.1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	const hw = "class/infiniband/mlx5_0/ports/1/hw_counters/"
	base := map[string]string{
		"devices/gpu01/ibdev2netdev.txt":                           "mlx5_0 port 1 ==> ens1f0np0 (Up)\n",
		"devices/gpu01/mlnx_qos-ens1f0np0.txt":                     "Priority trust state: dscp\n",
		"devices/gpu01/sysfs/" + hw + "np_cnp_sent":                "120\n",
		"devices/gpu01/sysfs/" + hw + "np_ecn_marked_roce_packets": "900\n",
		"devices/gpu01/sysfs/" + hw + "out_of_sequence":            "17\n",
	}
	cases := []struct {
		name  string
		extra map[string]string
		// want: np_cnp_sent, np_ecn_marked_roce_packets, out_of_sequence
		want  [3]uint64
		delta bool
		err   string
	}{
		{name: "single sample", want: [3]uint64{120, 900, 17}},
		{name: "two samples", extra: map[string]string{
			"devices/gpu01/sysfs.before/" + hw + "np_cnp_sent": "100\n", "devices/gpu01/sysfs.before/" + hw + "np_ecn_marked_roce_packets": "300\n",
			"devices/gpu01/sysfs.before/" + hw + "out_of_sequence": "17\n", "devices/gpu01/counters-interval.txt": "10s\n"},
			want: [3]uint64{20, 600, 0}, delta: true},
		{name: "before without interval: cumulative", extra: map[string]string{"devices/gpu01/sysfs.before/" + hw + "np_cnp_sent": "100\n"},
			want: [3]uint64{120, 900, 17}},
		{name: "bad value", extra: map[string]string{"devices/gpu01/sysfs/" + hw + "packet_seq_err": "lots\n"},
			want: [3]uint64{120, 900, 17}, err: "devices/gpu01/sysfs/" + hw + "packet_seq_err:1: "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for _, m := range []map[string]string{base, tc.extra} {
				for k, v := range m {
					fsys[k] = &fstest.MapFile{Data: []byte(v)}
				}
			}
			c := offline.CollectFS(fsys, inv)
			var errs []string
			for _, e := range c.Errors {
				errs = append(errs, e.Error())
			}
			if tc.err == "" && len(errs) > 0 || tc.err != "" && (len(errs) != 1 || !strings.Contains(errs[0], tc.err)) {
				t.Fatalf("errors %q, want %q", errs, tc.err)
			}
			nc := fabric.Build(inv, c).Hosts[0].NICs[0].Counters
			if nc == nil {
				t.Fatal("no counters")
			}
			got := [3]uint64{nc.CNPSent.V, nc.ECNMarkedRoCE.V, nc.Transport.OutOfSequence.V}
			if got != tc.want || nc.Delta != tc.delta || nc.HWFile != "devices/gpu01/sysfs/"+strings.TrimSuffix(hw, "/") {
				t.Errorf("got %v delta %t (%s), want %v %t", got, nc.Delta, nc.HWFile, tc.want, tc.delta)
			}
			if tc.delta && nc.Interval != 10*time.Second {
				t.Errorf("interval %s", nc.Interval)
			}
			if p := nc.CNPSent.Origin.Pos(); p.File != "devices/gpu01/sysfs/"+hw+"np_cnp_sent" || p.Line != 1 {
				t.Errorf("evidence %s", p)
			}
		})
	}
	// Without ibdev2netdev the RDMA port is unknown: nothing is read.
	fsys := fstest.MapFS{}
	for k, v := range base {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	delete(fsys, "devices/gpu01/ibdev2netdev.txt")
	inv2, _ := inventory.Parse("inventory.yaml", []byte("fabric: t\nhosts:\n  - {name: gpu01, address: 198.51.100.1, nics: [ens1f0np0]}\n"))
	if nc := fabric.Build(inv2, offline.CollectFS(fsys, inv2)).Hosts[0].NICs[0].Counters; nc != nil {
		t.Errorf("counters without an RDMA port: %+v", nc)
	}
}
