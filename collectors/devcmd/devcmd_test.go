package devcmd

import (
	"reflect"
	"testing"
)

func TestCheck(t *testing.T) {
	ok := []string{
		"nv config show -o yaml", "nv config show -o commands", "nv show qos roce", "ibdev2netdev", "ip -j link show", "cat /etc/nccl.conf",
		"mlnx_qos -i ens1f0np0", "sudo -n mlnx_qos -i ens1f0np0",
		"grep -H '' -- /sys/class/net/ens1f0np0/ecn/roce_np/enable/3 /sys/class/infiniband/mlx5_0/tc/1/traffic_class",
	}
	bad := []string{
		"nv set qos roce mode lossy", "nv config apply", "nv unset qos roce", "mlnx_qos -i eth0 --trust dscp",
		"mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0", "mlnx_qos -i -f", "mlnx_qos -i eth0;reboot", "mlnx_qos",
		"sudo mlnx_qos -i eth0", "sudo -n reboot", "echo 1 > /sys/class/net/eth0/ecn/roce_np/enable/3",
		"cat /etc/shadow", "grep -H '' -- /etc/shadow", "grep -H '' -- /sys/class/net/../../etc/shadow",
		"grep -H '' -- /sys/class/net/eth0/ecn/roce_np/enable/3; reboot", "ip link set dev eth0 mtu 1500",
		"nv show qos roce; nv config apply", "nv show qos roce\nnv config apply", "",
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
