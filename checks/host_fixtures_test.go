package checks

// The hosts' device files the check tests of several host checks edit, and
// the collectors' host testdata they read.

import (
	"os"
	"testing"
)

var (
	gpu01Q0 = dev("gpu01", "mlnx_qos-ens1f0np0.txt")
	gpu01N  = dev("gpu01", "nccl.conf")
	gpu03TC = dev("gpu03", "sysfs/class/infiniband/mlx5_0/tc/1/traffic_class")
	gpu01Sy = dev("gpu01", "sysfs/class/net/ens1f0np0/ecn")
)

func hostfile(t testing.TB, name string) string {
	data, err := os.ReadFile("../collectors/hostfiles/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
