// Package nvuetest generates large NVUE configurations for benchmarks and
// scale tests. The shape is `nv config show -o commands` as the
// CumulusNetworks/docs repository prints it: one `nv set` per line, ranges
// and lists compressed (`swp1-4,swp6`), values shell-quoted
// (content/cumulus-linux-514/Layer-1-and-Switch-Ports/Quality-of-Service/
// _index.md for the qos profiles and their bindings,
// `nv set interface swp1-4,swp6 qos pfc profile my_pfc_ports`;
// content/cumulus-linux-515/Layer-3/Border-Gateway-Protocol-BGP/ for the
// unnumbered neighbors).
package nvuetest

import (
	"bytes"
	"fmt"
)

// Commands returns a lossless RoCE leaf's `nv config show -o commands` of
// about lines lines: a profile set per group of 64 ports, and per port a
// quoted description, MTU, link state, an address, the three qos bindings
// and a BGP unnumbered neighbor, with range and list keys over each group.
// The same lines gives the same bytes.
func Commands(lines int) []byte {
	var b bytes.Buffer
	b.Grow(lines * 48)
	n := 0
	w := func(format string, a ...any) {
		fmt.Fprintf(&b, format, a...)
		b.WriteByte('\n')
		n++
	}
	w("nv set qos roce mode lossless")
	w("nv set qos roce enable on")
	w("nv set system hostname leaf-scale")
	w("nv set router bgp autonomous-system 65101")
	w("nv set router bgp router-id 10.10.10.1")
	// A port's block is 9 lines, its neighbor 2; a group adds 7 profile
	// lines and 2 range lines per 64 ports.
	const perPort, perGroup = 11, 9
	ports := max(1, (lines-n)*64/(perPort*64+perGroup))
	for g := 0; g*64 < ports; g++ {
		first, last := g*64+1, min(g*64+64, ports)
		w("nv set qos mapping ROCE_MAP_%d trust l3", g)
		w("nv set qos mapping ROCE_MAP_%d dscp 26 switch-priority 3", g)
		w("nv set qos pfc ROCE_PFC_%d switch-priority 3", g)
		w("nv set qos pfc ROCE_PFC_%d tx enable", g)
		w("nv set qos pfc ROCE_PFC_%d rx enable", g)
		w("nv set qos congestion-control ROCE_ECN_%d traffic-class 3 ecn enable", g)
		w("nv set qos congestion-control ROCE_ECN_%d traffic-class 3 min-threshold 150000", g)
		w("nv set interface swp%d-%d link state up", first, last)
		w("nv set interface swp%d-%d,%d type swp", first, max(first, last-1), last)
		for p := first; p <= last; p++ {
			w("nv set interface swp%d description 'rail %d gpu%d port %d'", p, p%8, p/8, p)
			w("nv set interface swp%d ip address 10.%d.%d.%d/31", p, p>>16&255, p>>8&255, p&255)
			w("nv set interface swp%d link mtu 9216", p)
			w("nv set interface swp%d link state up", p)
			w("nv set interface swp%d router adaptive-routing enable off", p)
			w("nv set interface swp%d type swp", p)
			w("nv set interface swp%d qos mapping profile ROCE_MAP_%d", p, g)
			w("nv set interface swp%d qos pfc profile ROCE_PFC_%d", p, g)
			w("nv set interface swp%d qos congestion-control profile ROCE_ECN_%d", p, g)
		}
	}
	for p := 1; p <= ports; p++ {
		w("nv set vrf default router bgp neighbor swp%d remote-as external", p)
		w("nv set vrf default router bgp neighbor swp%d type unnumbered", p)
	}
	return b.Bytes()
}
