package checks

import (
	"testing"

	"github.com/qoslint/qoslint/collectors/pcap/pcaptest"
)

var _ = register(wireDSCP, func(testing.TB) []checkCase {
	zero := with(good, func(p *pcaptest.Packet) { p.DSCP = 0 })
	return []checkCase{
		{name: "no capture"},
		{name: "clean", edits: []edit{capture(good, good, goodCNP)}},
		{name: "pure TCP", edits: []edit{capture(with(good, func(p *pcaptest.Packet) { p.TCP, p.DSCP = true, 0 }))}},
		{name: "DSCP 0 from gpu01 corroborates host-tos",
			edits: []edit{capture(append(times(3, zero), good)...), replace(gpu01N, "NCCL_IB_TC=106", "")},
			want:  []string{"error gpu01"}, msg: "198.51.100.11 sent 3 of 4 RoCEv2 data packets (75.0%) in 1 flows with a DSCP that is not the RoCE DSCP; first at packet 1 (2025-06-02T09:14:03Z); corroborates host-tos on gpu01"},
		{name: "DSCP 0 without a configuration cause",
			edits: []edit{capture(good, zero)},
			want:  []string{"error gpu01"}, msg: "first at packet 2 (2025-06-02T09:14:03.000001Z); no configuration finding on gpu01 explains it"},
		{name: "an IP of no inventory host", edits: []edit{capture(with(zero, func(p *pcaptest.Packet) { p.Src = "203.0.113.9" }))},
			want: []string{"error gpu01"}, msg: "203.0.113.9 is no inventory host's address"},
		{name: "ERSPAN mirror on a switch", edits: []edit{write(dev("leaf01", "captures/span.pcapng"),
			string(pcaptest.Pcapng(with(zero, func(p *pcaptest.Packet) { p.Mirror = "erspan3"; p.VLANs = []uint8{3} }))))},
			want: []string{"error gpu01"}, msg: "198.51.100.11 sent 1 of 1"},
	}
})
