package checks

import (
	"testing"
)

// The clean pod's lldp.json files (lldpd's json0 and json forms) cable
// gpuN ens1f0np0 to leaf01 swpN, ens1f1np1 to leaf02 swpN, and each leaf's
// swp31/swp32 to spine01/spine02; leaf02 sees gpu04 through ConnectX
// firmware LLDP (MAC port ID, no system name).
const nicUp = `"flags":["BROADCAST","MULTICAST","UP","LOWER_UP"],"mtu":9000`

func hostMTU(host, nic, mtu string) edit {
	return replace(dev(host, "ip-link.json"), `"ifname":"`+nic+`",`+nicUp,
		`"ifname":"`+nic+`",`+nicUp[:len(nicUp)-4]+mtu)
}

var _ = register(linkMTU, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean"},
		// The hosts are at 9000: RoCE sends at most 4192-byte packets
		// (path MTU 4096 plus the 96 bytes iboe_get_mtu budgets).
		{name: "host above its switch port", edits: []edit{hostMTU("gpu01", "ens1f0np0", "9500")},
			want: []string{"warning leaf01 swp1"}, msg: "switch port MTU 9216 is below the host's 9500: RoCE's packets (at most 4192 bytes) fit both ends"},
		{name: "a switch port below RoCE's packets", edits: []edit{
			replace(leaf01Y, "      swp31:\n        description: uplink-spine01", "      swp1:\n        link:\n          mtu: 4000\n      swp31:\n        description: uplink-spine01")},
			want: []string{"error leaf01 swp1"}, msg: "switch port MTU 4000 is below the host's 9000: RoCE packets of up to 4192 bytes (path MTU 4096 plus 96 bytes of headers) are dropped"},
		{name: "leaf-spine mismatch", edits: []edit{appendTo(spine02C, "nv set interface swp2 link mtu 9000\n")},
			// 9000 is also below the 9216 minimum: that is the mtu check's
			// finding; this one is the mismatch across the cable, which
			// nothing the hosts (at 9000) send reaches.
			want: []string{"info spine02 swp2"}, msg: "the switch ports' MTUs differ (9216 and 9000): nothing the hosts send is that large"},
		{name: "leaf-spine differ above the minimum", edits: []edit{replace("inventory.hcl", "switch = 9216", "switch = 9000"),
			appendTo(spine02C, "nv set interface swp2 link mtu 9100\n")},
			want: []string{"info spine02 swp2"}, msg: "the switch ports' MTUs differ (9216 and 9100)"},
		{name: "leaf-spine below RoCE's packets", edits: []edit{appendTo(spine02C, "nv set interface swp2 link mtu 4000\n")},
			want: []string{"error spine02 swp2"}, msg: "the switch ports' MTUs differ (9216 and 4000): RoCE packets of up to 4192 bytes"},
		// A host below its minimum is the mtu check's finding alone: its
		// switch port still takes its frames.
		{name: "host below the minimum", edits: []edit{hostMTU("gpu03", "ens1f1np1", "1500")}},
		// Without gpu04's own LLDP, leaf02 still sees its NIC through the
		// firmware's MAC port ID, resolved through gpu04's ip-link.json.
		{name: "one-sided, by MAC", edits: []edit{remove(dev("gpu04", "lldp.json")), hostMTU("gpu04", "ens1f1np1", "9500")},
			want: []string{"info gpu04", "warning leaf02 swp4"}, msg: "lldp.json not collected"},
		{name: "no LLDP anywhere", edits: []edit{remove(dev("gpu01", "lldp.json")), remove(dev("gpu02", "lldp.json")),
			remove(dev("gpu03", "lldp.json")), remove(dev("gpu04", "lldp.json")), remove(dev("leaf01", "lldp.json")),
			remove(dev("leaf02", "lldp.json")), remove(dev("spine01", "lldp.json")), remove(dev("spine02", "lldp.json")),
			hostMTU("gpu01", "ens1f0np0", "9500")},
			want: []string{"info gpu01", "info gpu02", "info gpu03", "info gpu04", "info leaf01", "info leaf02", "info spine01", "info spine02"},
			msg:  "lldp.json not collected"},
	}
})
