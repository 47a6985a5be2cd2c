package devcmd

import (
	"reflect"
	"testing"
)

func TestCheck(t *testing.T) {
	ok := []string{
		"nv config show -o yaml", "nv config show -o commands", "nv show qos roce",
		"nv show system forwarding packet-trim", "nv show qos remark", "ibdev2netdev", "ip -j link show", "cat /etc/nccl.conf", "cat /etc/ucx/ucx.conf",
		"mlnx_qos -i ens1f0np0", "sudo -n mlnx_qos -i ens1f0np0", "ethtool -S ens1f0np0", "sudo -n ethtool -S ens1f0np0",
		"grep -H '' -- /sys/class/net/ens1f0np0/ecn/roce_np/enable/3 /sys/class/infiniband/mlx5_0/tc/1/traffic_class",
		"grep -H '' -- /sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent /sys/class/infiniband/mlx5_1/ports/1/hw_counters/out_of_sequence",
		"sudo -n grep -H '' -- /sys/class/infiniband/mlx5_bond_0/ports/1/hw_counters/rp_cnp_ignored",
		// host-roce-version: GID types and RDMA-CM's default RoCE mode.
		"grep -H '' -- /sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/0 /sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/15",
		"grep -H '' -- /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode",
		// host-acs and host-firmware: lspci and mlxconfig need root.
		"lspci -vvv", "sudo -n lspci -vvv", "cat /proc/cpuinfo",
		"mlxconfig -d mlx5_0 q", "sudo -n mlxconfig -d mlx5_bond_0 q", "sudo -n mlxconfig -d rocep1s0f0 q",
		"grep -H '' -- /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode /sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos",
		// A switch port's operational RoCE status, one port at a time.
		"nv show interface swp16 qos roce status", "nv show interface swp32s0 qos roce status", "nv show interface bond1 qos roce status",
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
		// Packet trimming: only the two show forms; clearing its counters
		// and setting it change the switch.
		"nv action clear system forwarding packet-trim counters", "nv action clear packet-trim counters",
		"nv set system forwarding packet-trim state enabled", "nv unset system forwarding packet-trim",
		"nv show system forwarding packet-trim counters", "nv show system forwarding packet-trim remark",
		"nv show system forwarding packet-trim; nv config apply", "nv show system forwarding  packet-trim",
		"sudo nv show system forwarding packet-trim", "nv show qos remark lossy-multi-tc-host-group",
		"nv set qos remark g rewrite l3", "nv show qos remark\nnv config apply", "nv show qos remark -o json",
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
		// lspci with any other flags, setpci in any form, and every
		// mlxconfig command but the query write or poke the hardware.
		"lspci", "lspci -vvv -D", "lspci -D -vvv", "lspci -vvv -nn", "lspci -vvvxxx", "lspci -xxxx", "lspci -vvv -H1",
		"lspci -vvv -s 3b:00.0", "lspci -vvv; reboot", "lspci  -vvv", "lspci -vvv\nreboot", "sudo lspci -vvv",
		"setpci -s 3c:08.0 ECAP_ACS+0x6.w=0000", "setpci -s 3c:08.0 ECAP_ACS+0x6.w", "sudo -n setpci -s 3c:08.0 ECAP_ACS+0x6.w",
		"setpci --dumpregs", "setpci -v -s 3c:08.0 COMMAND",
		"mlxconfig -d mlx5_0 set CNP_DSCP_P1=48", "mlxconfig -d mlx5_0 -y set CNP_DSCP_P1=48", "sudo -n mlxconfig -d mlx5_0 -y set CNP_DSCP_P1=48",
		"mlxconfig -y -d mlx5_0 q", "mlxconfig -d mlx5_0 -y q", "mlxconfig -d mlx5_0 reset", "mlxconfig -d mlx5_0 -y reset",
		"mlxconfig -d mlx5_0 query", "mlxconfig -d mlx5_0 q CNP_DSCP_P1", "mlxconfig -d mlx5_0 set_raw", "mlxconfig -d mlx5_0 -f x.raw q",
		"mlxconfig -d -y q", "mlxconfig -d  q", "mlxconfig -d mlx5_0 q; reboot", "mlxconfig -d mlx5_0;reboot q", "mlxconfig -d $(id) q",
		"mlxconfig q", "mlxconfig -d /dev/mst/mt4119_pciconf0 q", "mlxconfig -d mlx5_0 q\nreboot",
		"cat /proc/cpuinfo /etc/shadow", "cat /proc/self/environ", "cat /proc/../etc/shadow",
		// Per-port status: one port, this view, nothing appended. The
		// all-interfaces form's layout is not published, so it is not sent.
		"nv show interface qos-roce-status", "nv show interface swp1-4 qos roce status", "nv show interface swp1,swp2 qos roce status",
		"nv show interface swp32s0-3 qos roce status", "nv show interface swp1 qos roce status pool-map", "nv show interface swp1 qos roce counters",
		"nv show interface swp1 qos roce status -o json", "nv show interface swp1;reboot qos roce status", "nv show interface $(id) qos roce status",
		"nv show interface  qos roce status", "nv show interface swp1  qos roce status", "nv show interface -o qos roce status",
		"nv show interface swp1 qos roce status; nv config apply", "nv show interface swp1 qos roce status\nnv config apply",
		"nv set interface swp1 qos roce status", "nv action clear interface swp1 qos roce counters", "nv show interface swp1 qos",
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

func TestMlxconfigQ(t *testing.T) {
	if c, err := MlxconfigQ("mlx5_0"); err != nil || c != "mlxconfig -d mlx5_0 q" || Check(c) != nil {
		t.Errorf("MlxconfigQ = %q, %v", c, err)
	}
	for _, ib := range []string{"", "-y", "mlx5_0 -y", "mlx5_0 set X=1", "mlx5_0;reboot", "a/b", "$(id)"} {
		if c, err := MlxconfigQ(ib); err == nil {
			t.Errorf("MlxconfigQ(%q) = %q, want refused", ib, c)
		}
	}
}

func TestNVShowRoceStatus(t *testing.T) {
	for _, port := range []string{"swp16", "swp32s0", "bond1"} {
		c, err := NVShowRoceStatus(port)
		if err != nil || c != "nv show interface "+port+" qos roce status" || Check(c) != nil {
			t.Errorf("NVShowRoceStatus(%q) = %q, %v", port, c, err)
		}
		if p, ok := ParseNVShowRoceStatus(c); !ok || p != port {
			t.Errorf("ParseNVShowRoceStatus(%q) = %q, %v", c, p, ok)
		}
	}
	for _, port := range []string{"", "swp1-4", "swp1,swp2", "-o", "swp1 -o json", "swp1;reboot", "a/b", "$(id)", "qos-roce-status x"} {
		if c, err := NVShowRoceStatus(port); err == nil {
			t.Errorf("NVShowRoceStatus(%q) = %q, want refused", port, c)
		}
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

func TestSMPQuery(t *testing.T) {
	c, err := SMPQuery("sl2vl", "mlx5_0", 1)
	if err != nil || c != "smpquery -C mlx5_0 -P 1 -D sl2vl 0" || Check(c) != nil || Check(SudoPrefix+c) != nil {
		t.Errorf("SMPQuery = %q, %v", c, err)
	}
	for _, op := range []string{"vlarb", "portinfo"} {
		c, err := SMPQuery(op, "mlx5_1", 2)
		if err != nil || Check(c) != nil {
			t.Errorf("SMPQuery(%s) = %q, %v", op, c, err)
		}
		if gop, ca, port, ok := ParseSMPQuery(c); !ok || gop != op || ca != "mlx5_1" || port != 2 {
			t.Errorf("ParseSMPQuery(%q) = %s %s %d %v", c, gop, ca, port, ok)
		}
	}
	for _, a := range []struct {
		op, ca string
		port   int
	}{{"nodeinfo", "mlx5_0", 1}, {"sl2vl", "mlx5_0;reboot", 1}, {"sl2vl", "-m", 1}, {"sl2vl", "mlx5_0", 0}, {"vlarb", "mlx5_0", 256}, {"", "mlx5_0", 1}} {
		if c, err := SMPQuery(a.op, a.ca, a.port); err == nil {
			t.Errorf("SMPQuery(%q, %q, %d) = %q, want refused", a.op, a.ca, a.port, c)
		}
	}
	for _, c := range []string{"ibstat", "cat /etc/opensm/opensm.conf", "sudo -n cat /etc/opensm/opensm.conf", "sudo -n ibstat",
		"cat /etc/opensm/qos-policy.conf", "sudo -n cat /opt/ufm/files/conf/opensm/qos-policy.conf", "cat /usr/local/etc/opensm/qos-policy.conf"} {
		if err := Check(c); err != nil {
			t.Errorf("Check(%q) = %v", c, err)
		}
	}
	// smpquery with other ops, options or destinations; the tools that
	// set port state or run a subnet manager; editing opensm.conf.
	for _, c := range []string{
		"smpquery -C mlx5_0 -P 1 -D sl2vl 0 1", "smpquery -C mlx5_0 -P 1 -D sl2vl 0,1", "smpquery -C mlx5_0 -P 1 sl2vl 3",
		"smpquery -C mlx5_0 -P 1 -D nodeinfo 0", "smpquery -C mlx5_0 -P 1 -D switchinfo 0", "smpquery -C mlx5_0 -P 1 -m 0x1 -D sl2vl 0",
		"smpquery -C mlx5_0 -P 1 -D sl2vl 0; reboot", "smpquery -C mlx5_0 -P 1 -D sl2vl 0\nreboot", "smpquery  -C mlx5_0 -P 1 -D sl2vl 0",
		"smpquery -C mlx5_0 -P 01 -D sl2vl 0", "smpquery -C mlx5_0 -P 0 -D sl2vl 0", "smpquery -C $(id) -P 1 -D sl2vl 0", "smpquery",
		"smpquery -D portinfo 0", "smpquery -C mlx5_0 -P 1 -D PortInfo 0",
		"ibportstate -C mlx5_0 -P 1 -D 0 1 disable", "ibportstate 3 1 reset", "opensm", "opensm -c /tmp/x", "sudo -n opensm -B",
		"kill -HUP 1234", "ibstat mlx5_0", "ibstat -p", "cat /etc/opensm/opensm.conf /etc/shadow", "cat /etc/opensm/partitions.conf",
		// The QoS policy file only as an absolute .../opensm/.../qos-policy.conf.
		"cat /etc/opensm/../shadow/qos-policy.conf", "cat /etc/opensm/./qos-policy.conf", "cat etc/opensm/qos-policy.conf",
		"cat /etc/qos-policy.conf", "cat /etc/opensm/my-qos.conf", "cat /etc/opensm/qos-policy.conf /etc/shadow",
		"cat /etc/opensm/*.conf", "cat /etc/opensm/qos-policy.conf;id", "cat  /etc/opensm/qos-policy.conf", "cat /etc/opensm//qos-policy.conf",
		"cat /etc/opensm/qos policy/qos-policy.conf", "cat /etc/opensm/$(id)/qos-policy.conf", "cat /etc/opensm/-n/qos-policy.conf",
		"sed -i 's/qos FALSE/qos TRUE/' /etc/opensm/opensm.conf", "ibsetdebug", "smpdump -D 0 0x16", "perfquery -R",
	} {
		if err := Check(c); err == nil {
			t.Errorf("Check(%q) allowed a command outside the list", c)
		}
	}
}

func TestSMPQueryLID(t *testing.T) {
	c, err := SMPQueryLID("sl2vl", 4, 1)
	if err != nil || c != "smpquery sl2vl 4 1" || Check(c) != nil || Check(SudoPrefix+c) != nil {
		t.Errorf("SMPQueryLID = %q, %v", c, err)
	}
	for _, op := range []string{"vlarb", "portinfo"} {
		c, err := SMPQueryLID(op, 49151, 0)
		if err != nil || Check(c) != nil {
			t.Errorf("SMPQueryLID(%s) = %q, %v", op, c, err)
		}
		if gop, lid, port, ok := ParseSMPQueryLID(c); !ok || gop != op || lid != 49151 || port != 0 {
			t.Errorf("ParseSMPQueryLID(%q) = %s %d %d %v", c, gop, lid, port, ok)
		}
	}
	for _, a := range []struct {
		op        string
		lid, port int
	}{{"nodeinfo", 4, 1}, {"sl2vl", 0, 1}, {"sl2vl", 0xc000, 1}, {"vlarb", 4, 255}, {"portinfo", 4, -1}} {
		if c, err := SMPQueryLID(a.op, a.lid, a.port); err == nil {
			t.Errorf("SMPQueryLID(%+v) = %q, want refused", a, c)
		}
	}
	if err := Check("ibswitches"); err != nil {
		t.Error(err)
	}
	// Only a decimal LID and port: no GUID, directed route, hex, option,
	// other operation, second port, leading zero or shell.
	for _, c := range []string{
		"smpquery sl2vl 4", "smpquery sl2vl 4 1 2", "smpquery sl2vl 0x4 1", "smpquery sl2vl 4 0x1", "smpquery sl2vl 04 1", "smpquery sl2vl 4 01",
		"smpquery -G sl2vl 0xfc6a1c0300a1b2c4 1", "smpquery -D sl2vl 0,1 1", "smpquery -m 0x1 sl2vl 4 1", "smpquery nodeinfo 4", "smpquery switchinfo 4",
		"smpquery sl2vl 4 1; reboot", "smpquery sl2vl 4 1\nreboot", "smpquery  sl2vl 4 1", "smpquery sl2vl $(id) 1", "smpquery sl2vl 49152 1",
		"smpquery sl2vl 4 255", "smpquery SL2VL 4 1", "ibswitches -y 0x1", "ibswitches /tmp/topo", "ibswitches; reboot", "ibnetdiscover",
		"ibportstate 4 1 disable", "smpquery -C mlx5_0 -P 1 sl2vl 4 1",
	} {
		if err := Check(c); err == nil {
			t.Errorf("Check(%q) allowed a command outside the list", c)
		}
	}
}

// TestSONiCCommands: a SONiC switch is asked exactly its four reads, with
// or without sudo -n, and never anything that writes CONFIG_DB, redis or
// the lldp container's state.
func TestSONiCCommands(t *testing.T) {
	for _, c := range []string{
		"sonic-cfggen -d --print-data", "show runningconfiguration all", "show platform summary",
		"docker exec lldp lldpcli -f json0 show neighbors details",
		"sudo -n sonic-cfggen -d --print-data", "sudo -n show runningconfiguration all", "sudo -n show platform summary",
		"sudo -n docker exec lldp lldpcli -f json0 show neighbors details",
		SONiCConfigDB, SONiCRunningConfig, SONiCPlatformSummary, SONiCLLDPNeighbors,
	} {
		if err := Check(c); err != nil {
			t.Errorf("Check(%q) = %v, want allowed", c, err)
		}
	}
	for _, c := range []string{
		// The config CLI changes the switch in every form.
		"config", "sudo config", "sudo -n config", "config save -y", "sudo config save -y", "config reload -y",
		"config qos reload", "config apply-patch p.json", "sudo -n config apply-patch p.json", "config load /tmp/x.json -y",
		"config interface cable-length Ethernet0 40m", "/usr/local/bin/config save -y",
		// sonic-cfggen writes with -w / --write-to-db and -a, renders
		// templates with -t, and reads files with -j: only --print-data of
		// the database.
		"sonic-cfggen -d --write-to-db", "sonic-cfggen -j /tmp/x.json --write-to-db", "sonic-cfggen -a '{}' -w",
		"sonic-cfggen -d -w", "sonic-cfggen -d --print-data --write-to-db", "sonic-cfggen -d --print-data -w",
		"sonic-cfggen -d -t /usr/share/sonic/templates/qos_config.j2", "sonic-cfggen -d --print-data > /etc/sonic/config_db.json",
		"sonic-cfggen -d --print-data; config save -y", "sonic-cfggen -d --print-data\nconfig reload -y", "sonic-cfggen  -d --print-data",
		"sonic-cfggen -d --var-json PORT", "sonic-cfggen --print-data", "sonic-cfggen -d --print-data -n asic0",
		// redis-cli and sonic-db-cli in any form (SET, HSET, DEL, FLUSHALL).
		"redis-cli -n 4 SET x y", "redis-cli -n 4 HSET 'PORT|Ethernet0' mtu 9100", "sudo -n redis-cli -n 4 DEL 'PORT|Ethernet0'",
		"redis-cli FLUSHALL", "redis-cli -n 4 KEYS '*'", "sonic-db-cli CONFIG_DB HSET 'PORT|Ethernet0' mtu 9100", "sonic-db-cli CONFIG_DB KEYS '*'",
		// Other show forms, and docker exec beyond lldpcli's show.
		"show runningconfiguration bgp", "show runningconfiguration all --verbose", "show runningconfiguration all; config save -y",
		"show platform summary --json", "show platform syseeprom", "show interfaces status", "show",
		"docker exec lldp lldpcli configure system hostname x", "docker exec -it lldp bash", "docker exec lldp bash",
		"docker exec -i lldp lldpcli -f json0 show neighbors details", "docker exec -it lldp lldpcli -f json0 show neighbors details",
		"docker exec database redis-cli -n 4 SET x y", "docker exec lldp lldpcli -f json0 show neighbors details; reboot",
		"docker restart lldp", "docker exec swss orchagent", "sudo docker exec lldp lldpcli -f json0 show neighbors details",
	} {
		if err := Check(c); err == nil {
			t.Errorf("Check(%q) allowed a command outside the list", c)
		}
	}
}
