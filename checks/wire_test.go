package checks

import (
	"testing"

	"github.com/qoslint/qoslint/collectors/pcap"
	"github.com/qoslint/qoslint/collectors/pcap/pcaptest"
)

// The captures are generated with gopacket (pcaptest) in the shape tcpdump
// writes on a ConnectX netdev (Ethernet, pcap or pcapng). gpu01 is
// 198.51.100.11 and gpu02 198.51.100.12 in the clean pod's inventory.
const (
	gpu01IP = "198.51.100.11"
	gpu02IP = "198.51.100.12"
)

var wireFile = dev("gpu01", "captures/job.pcap")

func capture(ps ...pcaptest.Packet) edit { return write(wireFile, string(pcaptest.Pcap(ps...))) }

func times(n int, p pcaptest.Packet) []pcaptest.Packet {
	out := make([]pcaptest.Packet, n)
	for i := range out {
		out[i] = p
	}
	return out
}

var (
	good    = pcaptest.Packet{Src: gpu01IP, Dst: gpu02IP, DSCP: 26, ECN: 2, DestQP: 0x3B7}
	goodCNP = pcaptest.Packet{Src: gpu02IP, Dst: gpu01IP, DSCP: 48, Opcode: pcap.OpcodeCNP, DestQP: 0x1A2, VLANs: []uint8{6}}
)

func with(p pcaptest.Packet, mod func(*pcaptest.Packet)) pcaptest.Packet { mod(&p); return p }

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

var _ = register(wireCNP, func(testing.TB) []checkCase {
	return []checkCase{
		{name: "clean", edits: []edit{capture(good, goodCNP)}},
		{name: "untagged CNP with the CNP DSCP", edits: []edit{capture(with(goodCNP, func(p *pcaptest.Packet) { p.VLANs = nil }))}},
		{name: "CNP DSCP 0 corroborates host-cnp", edits: []edit{
			capture(good, with(goodCNP, func(p *pcaptest.Packet) { p.DSCP = 0 })),
			write(dev("gpu02", "sysfs/class/net/ens1f0np0/ecn/roce_np/cnp_dscp"), "0\n")},
			want: []string{"error gpu02"}, msg: "198.51.100.12 sent 1 CNPs: 1 with a DSCP other than 48, 0 tagged with a priority other than 6; first at packet 2"},
		{name: "CNP PCP 0", edits: []edit{capture(with(goodCNP, func(p *pcaptest.Packet) { p.VLANs = []uint8{0} }))},
			want: []string{"error gpu02"}, msg: "0 with a DSCP other than 48, 1 tagged with a priority other than 6"},
	}
})

var _ = register(wireECN, func(testing.TB) []checkCase {
	ce := with(good, func(p *pcaptest.Packet) { p.ECN = 3 })
	return []checkCase{
		{name: "clean", edits: []edit{capture(good, good)}},
		{name: "Not-ECT data", edits: []edit{capture(good, with(good, func(p *pcaptest.Packet) { p.ECN = 0 }))},
			want: []string{"warning gpu01"}, msg: "198.51.100.11 sent 1 of 2 RoCEv2 data packets (50.0%) Not-ECT"},
		{name: "CE answered by a CNP", edits: []edit{capture(ce, ce, good, goodCNP)},
			want: []string{"info gpu01"}, msg: "198.51.100.11 → 198.51.100.12: 2 of 3 RoCEv2 data packets (66.7%) arrived CE-marked; 1 CNPs went back, 2.0 CE-marked packets per CNP"},
		{name: "CE without a CNP", edits: []edit{capture(ce)},
			want: []string{"info gpu01"}, msg: "no CNP went back in this capture"},
	}
})
