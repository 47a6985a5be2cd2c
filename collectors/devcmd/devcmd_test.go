package devcmd

import (
	"reflect"
	"testing"
)

func TestCheck(t *testing.T) {
	ok := []string{
		"nv config show -o yaml", "nv config show -o commands", "nv show qos roce", "ibdev2netdev", "ip -j link show", "cat /etc/nccl.conf", "cat /etc/ucx/ucx.conf",
		"mlnx_qos -i ens1f0np0", "sudo -n mlnx_qos -i ens1f0np0", "ethtool -S ens1f0np0", "sudo -n ethtool -S ens1f0np0",
		"grep -H '' -- /sys/class/net/ens1f0np0/ecn/roce_np/enable/3 /sys/class/infiniband/mlx5_0/tc/1/traffic_class",
		"grep -H '' -- /sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent /sys/class/infiniband/mlx5_1/ports/1/hw_counters/out_of_sequence",
		"sudo -n grep -H '' -- /sys/class/infiniband/mlx5_bond_0/ports/1/hw_counters/rp_cnp_ignored",
		// host-roce-version: GID types and RDMA-CM's default RoCE mode.
		"grep -H '' -- /sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/0 /sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/15",
		"grep -H '' -- /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode",
		"grep -H '' -- /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos",
	}
	bad := []string{
		"nv set qos roce mode lossy", "nv config apply", "nv unset qos roce", "mlnx_qos -i eth0 --trust dscp",
		"mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0", "mlnx_qos -i -f", "mlnx_qos -i eth0;reboot", "mlnx_qos",
		"sudo mlnx_qos -i eth0", "sudo -n reboot", "echo 1 > /sys/class/net/eth0/ecn/roce_np/enable/3",
		"cat /etc/shadow", "cat /etc/ucx/ucx.conf /etc/shadow", "cat /etc/ucx/../shadow", "cat ~/ucx.conf", "grep -H '' -- /etc/shadow", "grep -H '' -- /sys/class/net/../../etc/shadow",
		"grep -H '' -- /sys/class/net/eth0/ecn/roce_np/enable/3; reboot", "ip link set dev eth0 mtu 1500",
		"ethtool -S", "ethtool -S ", "ethtool -s ens1f0np0 speed 100000", "ethtool -S ens1f0np0 -s", "ethtool -S -s",
		"ethtool -S ens1f0np0;reboot", "ethtool -S ens1f0np0 ens1f1np1", "ethtool -A ens1f0np0 rx off", "ethtool -K ens1f0np0 gro off",
		"ethtool --set-priv-flags ens1f0np0 x on", "ethtool -S $(reboot)", "ethtool -S ens1f0np0\nreboot", "ethtool  -S ens1f0np0",
		"ethtool -S --all-groups", "ethtool -S averyveryverylongname0",
		"nv show qos roce; nv config apply", "nv show qos roce\nnv config apply", "",
		"grep -H '' -- /sys/class/infiniband/mlx5_0/ports/1/hw_counters/lifespan",
		"grep -H '' -- /sys/class/infiniband/mlx5_0/ports/1/hw_counters/../../../../../../etc/shadow",
		"grep -H '' -- /sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_data",
		"grep -H '' -- /sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sentx",
		"echo 1 > /sys/class/infiniband/mlx5_0/ports/1/hw_counters/lifespan",
		// Writing the RoCE mode, creating or removing its configfs group,
		// and reading anything else there or in gid_attrs stay off the list.
		"echo 'RoCE v2' > /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode",
		"mkdir /sys/kernel/config/rdma_cm/mlx5_0", "mkdir -p /sys/kernel/config/rdma_cm/mlx5_0", "rmdir /sys/kernel/config/rdma_cm/mlx5_0",
		"cma_roce_mode -d mlx5_0 -p 1 -m 2", "tee /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode",
		"echo 106 > /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos",
		"tee /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos",
		"grep -H '' -- /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tosx",
		"grep -H '' -- /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_",
		"grep -H '' -- /sys/kernel/config/rdma_cm/mlx5_0/ports/1/../../../../../../etc/shadow",
		"grep -H '' -- /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode /etc/shadow",
		"grep -H '' -- /sys/kernel/config/usb_gadget/g1/UDC",
		"grep -H '' -- /sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/0",
		"grep -H '' -- /sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/1000",
		"grep -H '' -- /sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/x",
		"grep -H '' -- /sys/class/infiniband/mlx5_0/ports/1/gids/3",
	}
	for _, c := range ok {
		if err := Check(c); err != nil {
			t.Errorf("Check(%q) = %v, want allowed", c, err)
		}
	}
	for _, c := range bad {
		if err := Check(c); err == nil {
			t.Errorf("Check(%q) allowed a command outside the list", c)
		}
	}
}

func TestParseSysfs(t *testing.T) {
	paths := []string{"/sys/class/net/e/ecn/roce_np/enable/3", "/sys/class/net/e/ecn/roce_np/cnp_dscp",
		"/sys/class/infiniband/mlx5_0/tc/1/traffic_class", "/sys/class/net/e/ecn/roce_rp/enable/3"}
	out := "/sys/class/net/e/ecn/roce_np/enable/3:1\n/sys/class/net/e/ecn/roce_np/cnp_dscp:48\n" +
		"grep: /sys/class/net/e/ecn/roce_rp/enable/3: No such file or directory\n"
	present, missing, err := ParseSysfs(paths, out)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{paths[0]: "1\n", paths[1]: "48\n", paths[2]: ""}
	if !reflect.DeepEqual(present, want) || !reflect.DeepEqual(missing, []string{paths[3]}) {
		t.Errorf("present %q missing %q", present, missing)
	}
	if _, _, err := ParseSysfs(paths, "garbage\n"); err == nil {
		t.Error("garbage accepted")
	}
}

func TestEthtoolS(t *testing.T) {
	if c, err := EthtoolS("ens1f0np0"); err != nil || c != "ethtool -S ens1f0np0" || Check(c) != nil {
		t.Errorf("EthtoolS = %q, %v", c, err)
	}
	for _, nd := range []string{"", "-s", "--all-groups", "eth0 -s", "eth0;reboot", "a/b", "$(id)", "averyveryverylongname0"} {
		if c, err := EthtoolS(nd); err == nil {
			t.Errorf("EthtoolS(%q) = %q, want refused", nd, c)
		}
	}
}
