package checks

import (
	"testing"

	"github.com/qoslint/qoslint/collectors/pcap/pcaptest"
)

// gpu01 and gpu02 are both on leaf01 (rail 0) and leaf02 (rail 1) in the
// clean pod; leaf01's ECMP group is its LLDP uplinks to the spines,
// swp31 and swp32. 203.0.113.20 is no inventory host, so its traffic
// is taken to leave gpu01's leaf.
var _ = register(wireEntropy, func(testing.TB) []checkCase {
	// QPs 0x1A2 (gpu01) and 0x3B7 (gpu02): mlx5 sends with 53462 both
	// ways (include/rdma/ib_verbs.h, rdma_calc_flow_label).
	data := pcaptest.Packet{Src: gpu01IP, Dst: gpu02IP, DSCP: 26, ECN: 2, DestQP: 0x3B7, SrcPort: 53462}
	ack := pcaptest.Packet{Src: gpu02IP, Dst: gpu01IP, DSCP: 26, ECN: 2, DestQP: 0x1A2, SrcPort: 53462, Opcode: 0x11}
	qps := func(dst string, ports ...uint16) []pcaptest.Packet {
		var out []pcaptest.Packet
		for i, sp := range ports {
			out = append(out, with(data, func(p *pcaptest.Packet) { p.Dst, p.DestQP, p.SrcPort = dst, uint32(0x10+i), sp }))
		}
		return out
	}
	far := "203.0.113.20"
	return []checkCase{
		{name: "no capture"},
		{name: "one QP, mlx5's port both ways", edits: []edit{capture(data, data, ack)}},
		{name: "application-set flow label", edits: []edit{capture(with(data, func(p *pcaptest.Packet) { p.SrcPort = 49152 }), ack)},
			want: []string{"info gpu01"}, msg: "198.51.100.11 → 198.51.100.12: QP 0x3b7 port 49152 (mlx5 would use 53462): not the source port mlx5 derives"},
		{name: "no reverse QPs: the rule cannot be applied", edits: []edit{capture(with(data, func(p *pcaptest.Packet) { p.SrcPort = 49152 }))}},
		{name: "four QPs on one source port", edits: []edit{capture(qps(gpu02IP, 49152, 49152, 49152, 49152)...)},
			want: []string{"warning gpu01"}, msg: "198.51.100.11 → 198.51.100.12: all 4 QPs (0x10, 0x11, 0x12, 0x13) send with UDP source port 49152: ECMP sees one flow"},
		{name: "four ports spread over leaf01's uplinks", edits: []edit{capture(qps(far, 0xC001, 0xC002, 0xC003, 0xC004)...)}},
		{name: "leaf01 does not hash the source port: one uplink",
			edits: []edit{capture(qps(far, 0xC001, 0xC002, 0xC003, 0xC004)...), replace(leaf01Y, "source-port: on", "source-port: off")},
			want:  []string{"warning gpu01"}, msg: "in a model of leaf01's ECMP hash over its configured fields (source-ip, destination-ip, destination-port, ip-protocol, ipv6-label; a model, not the ASIC's hash function), all 4 QPs fall on"},
		{name: "one port to a far host: both sentences", edits: []edit{capture(qps(far, 49152, 49152)...)},
			want: []string{"warning gpu01"}, msg: "send with UDP source port 49152: ECMP sees one flow; in a model of leaf01's ECMP hash"},
		{name: "a sender of no inventory host: ports only", edits: []edit{capture(
			with(data, func(p *pcaptest.Packet) { p.Src, p.Dst, p.DestQP = "203.0.113.9", far, 1 }),
			with(data, func(p *pcaptest.Packet) { p.Src, p.Dst, p.DestQP = "203.0.113.9", far, 2 }))},
			want: []string{"warning gpu01"}, msg: "203.0.113.9 → 203.0.113.20: all 2 QPs (0x1, 0x2) send with UDP source port 53462: ECMP sees one flow; first at packet 1"},
	}
})
