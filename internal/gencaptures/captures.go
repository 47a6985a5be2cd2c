// Command gencaptures writes the packet captures of the shipped examples
// (examples/*/devices/<host>/captures/roce.pcap) with gopacket's
// serialisation (collectors/pcap/pcaptest), so no capture is hand-edited
// and regenerating gives the same bytes: pcaptest's timestamps start at a
// fixed instant, 1 µs apart.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/qoslint/qoslint/collectors/pcap/pcaptest"
	"github.com/qoslint/qoslint/model"
)

//go:generate go run . -root ../..

func main() {
	root := flag.String("root", ".", "the repository root")
	flag.Parse()
	files := Files()
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		file := filepath.Join(*root, filepath.FromSlash(p))
		err := os.MkdirAll(filepath.Dir(file), 0o755)
		if err == nil {
			err = os.WriteFile(file, files[p], 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "gencaptures:", err)
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "gencaptures: wrote", p)
	}
}

// The hosts' addresses are the examples' inventory addresses
// (examples/clean-pod/inventory.hcl, examples/broken-pod/inventory.yaml),
// in 198.51.100.0/24 (RFC 5737 documentation range).
const (
	gpu01 = "198.51.100.11"
	gpu02 = "198.51.100.12"
	gpu03 = "198.51.100.13"
	gpu04 = "198.51.100.14"
)

// ect0 is the ECN codepoint DCQCN senders mark (ECT(0), RFC 3168, 5).
// No packet is CE-marked: neither capture was taken under congestion, so
// no CNP went back (a CE-marked packet would be a wire-ecn info finding).
const ect0 = 2

// Files are the captures by path relative to the repository root.
func Files() map[string][]byte {
	return map[string][]byte{
		"examples/clean-pod/devices/gpu01/captures/roce.pcap":  pcaptest.Pcap(cleanPod()...),
		"examples/broken-pod/devices/gpu04/captures/roce.pcap": pcaptest.Pcap(brokenPod()...),
	}
}

// conversation is n data packets each way between a and b on QPs qa (a's)
// and qb (b's), marked with the given DSCPs. The UDP source port is the one
// mlx5 derives from the two QP numbers (rdma_calc_flow_label,
// torvalds/linux include/rdma/ib_verbs.h), the same both ways.
func conversation(a, b string, qa, qb uint32, dscpA, dscpB uint8, n int) []pcaptest.Packet {
	port := model.FlowLabelSourcePort(model.RoCEv2FlowLabel(qa, qb))
	var out []pcaptest.Packet
	for i := range n {
		out = append(out,
			pcaptest.Packet{Src: a, Dst: b, DSCP: dscpA, ECN: ect0, DestQP: qb, PSN: uint32(i), SrcPort: port, Payload: 1024},
			pcaptest.Packet{Src: b, Dst: a, DSCP: dscpB, ECN: ect0, DestQP: qa, PSN: uint32(i), SrcPort: port, Payload: 1024})
	}
	return out
}

// cleanPod is tcpdump on gpu01's RoCE netdev during a job with gpu02: two
// QP pairs, everything at the policy's DSCP 26.
func cleanPod() []pcaptest.Packet {
	out := conversation(gpu01, gpu02, 0x1A2, 0x3B7, 26, 26, 20)
	return append(out, conversation(gpu01, gpu02, 0x1A3, 0x3B8, 26, 26, 20)...)
}

// brokenPod is tcpdump on gpu04's RoCE netdev during a job with gpu03.
// gpu04 sends with ToS 0 (no NCCL_IB_TC, defect 16): DSCP 0. gpu03 sends
// with NCCL_IB_TC=26, a DSCP where the ToS belongs (defect 14): ToS 26 is
// DSCP 6 with ECT(0). Without congestion no CNP was sent, and the pod's
// RoCE is untagged, so gpu03's cnp_802p_prio of 0 (defect 15) could not
// show on this wire anyway.
func brokenPod() []pcaptest.Packet {
	return conversation(gpu04, gpu03, 0x1A2, 0x3B7, 0, 6, 20)
}
