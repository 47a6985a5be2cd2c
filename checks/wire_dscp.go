package checks

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var wireDSCP = inRun(&Check{
	ID:       "wire-dscp",
	Kind:     KindEvidence,
	Devices:  AllDevices,
	Applies:  appliesWire,
	Severity: judge.Error,
	Title:    "RoCEv2 data packets on the wire carry the RoCE DSCP",
	Doc: `Wire evidence from packet captures, devices/<device>/captures/*.pcap and *.pcapng (tcpdump on the
RoCE netdev, or a switch's ERSPAN or GRE mirror). A RoCEv2 packet is UDP to port 4791 with an
InfiniBand Base Transport Header (InfiniBand Architecture Specification Vol. 1, Annex A17); its
DSCP is the upper six bits of the IPv4 ToS or IPv6 traffic class (RFC 2474, 3). The check counts,
per capture and per sending IP, the RoCEv2 data packets (every opcode but CNP, 0x81) whose DSCP is
not one of the policy's RoCE DSCPs: those land in whatever priority the switches map that DSCP to,
usually the lossy priority 0. It reports their count, share and DSCPs and the first such packet
(number in the file and timestamp). An IP that is an inventory host's address is reported on that
host, and the finding names the host-tos finding there that it corroborates (a ToS of 0 gives
DSCP 0 on the wire); other IPs are reported as they are. Silent without captures.`,
	Inputs:   []Input{Captures},
	Requires: []*Check{hostToS},
}, runWireDSCP)

func runWireDSCP(r *run) []Finding {
	f := r.f
	want := f.Policy.RoCE.DSCP
	bad := func(v int) bool { return !slices.Contains(want, v) }
	var out []Finding
	wireSources(f, func(ws wireSource) {
		var total, wrong uint64
		var hist [64]uint64
		var first model.WireMark
		flows := 0
		for _, fl := range ws.flows {
			total += fl.Packets
			n := uint64(0)
			for _, c := range fl.DSCP() {
				hist[c.Value()] += c.Count()
				if bad(c.Value()) {
					n += c.Count()
				}
			}
			if n > 0 {
				flows++
				wrong += n
				firstOf(fl.DSCP(), bad, &first)
			}
		}
		if wrong == 0 {
			return
		}
		device, host := ws.who(f)
		out = append(out, Finding{
			Severity: judge.Error, Device: device,
			Message: fmt.Sprintf("%s sent %d of %d RoCEv2 data packets (%.1f%%) in %d flows with a DSCP that is not the RoCE DSCP; %s",
				ws.ip, wrong, total, pct(wrong, total), flows, markText(first)) + wireCorroborates(r, host, ws.ip, hostToS),
			Expected: "DSCP " + model.IntList(want),
			Actual:   histText("DSCP", hist[:], strconv.Itoa),
			Source:   wirePos(ws.s),
		})
	})
	return out
}
