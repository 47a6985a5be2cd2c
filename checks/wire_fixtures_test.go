package checks

// The packet captures the wire-* and host ToS check tests build.

import (
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
