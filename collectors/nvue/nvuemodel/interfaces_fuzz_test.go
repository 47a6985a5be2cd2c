package nvuemodel

import (
	"testing"

	"github.com/qoslint/qoslint/collectors/nvue"
	"github.com/qoslint/qoslint/internal/nvrange"
)

// FuzzInterfaces feeds any configuration the command parser accepts to the
// interface semantics: no panic, and every checked port, once and in
// order, has a QoS and an MTU.
func FuzzInterfaces(f *testing.F) {
	for _, s := range []string{
		"nv set interface bond1 bond member swp1-4\nnv set interface bond1 qos mapping profile default-global\n",
		"nv set interface swp1 link breakout 4x\nnv set interface swp1s0-3 link state up\n",
		"nv set interface swp1 link breakout 2x lanes-per-port 2\nnv set interface swp1s1 link mtu 1500\n",
		"nv set interface peerlink bond member swp49-50\nnv set interface peerlink.4094 type sub\nnv set interface vlan10 type svi\n",
		"nv set router adaptive-routing state enabled\nnv set interface swp51 router adaptive-routing state enabled\n" +
			"nv set vrf default router bgp neighbor swp51 remote-as external\n",
		"nv set interface bond1 bond member swp1\nnv set interface bond2 bond member swp1\nnv set interface swp1 qos pfc profile X\n",
		roce515,
		// The QoS guide's flow-control commands (CumulusNetworks/docs
		// content/cumulus-linux-518/.../Quality-of-Service/_index.md) and the
		// ECMP page's hash seed and resilient hashing (cumulus-linux-519).
		"nv set qos roce cable-length 1000\nnv set qos pfc P cable-length 50\nnv set interface swp1-4 qos pfc profile P\n" +
			"nv set qos link-pause L tx enable\nnv set interface swp5 qos link-pause profile L\nnv set interface swp1 qos pfc-watchdog\n" +
			"nv set interface swp2 qos pfc-watchdog state disable\nnv set interface swp3 link speed 400G\n",
		"nv set system forwarding hash-seed 50\nnv set system forwarding resilient-hash state enabled\n",
		// traffic pools and the 802.1p map (pools.go, applyMapping).
		"nv set qos traffic-pool default-lossy,roce-lossy switch-priority 0-3,5-7\nnv set qos traffic-pool roce-lossless memory-percent 60\n" +
			"nv set qos mapping edge pcp 2,3,4 switch-priority 0\nnv set interface swp1-4 qos mapping profile edge\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		cfg, errs, _ := nvue.ParseCommands("c.txt", []byte(src))
		if cfg == nil || len(errs) > 0 {
			return
		}
		sw, _ := Switch("s", "leaf", cfg, nil, nil)
		for i, p := range sw.Ports {
			if i > 0 && !nvrange.NaturalLess(sw.Ports[i-1], p) {
				t.Fatalf("ports not sorted or repeated: %v", sw.Ports)
			}
			if sw.PortQoS.At(p) == nil || !sw.MTU.At(p).Known {
				t.Fatalf("port %s without QoS or MTU", p)
			}
			if _, isBond := sw.Bonds[p]; !isBond {
				for _, ms := range sw.Bonds {
					for _, m := range ms {
						if m == p {
							t.Fatalf("bond member %s checked as a port", p)
						}
					}
				}
			}
		}
	})
}
