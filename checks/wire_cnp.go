package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var wireCNP = inRun(&Check{
	ID:       "wire-cnp",
	Kind:     KindEvidence,
	Devices:  AllDevices,
	Applies:  appliesWire,
	Severity: judge.Error,
	Title:    "CNPs on the wire carry the CNP DSCP (and 802.1p priority when tagged)",
	Doc: `Wire evidence from packet captures (see wire-dscp). A Congestion Notification Packet is a RoCEv2
packet with BTH opcode 0x81 (InfiniBand Architecture Specification Vol. 1, Annex A17; Wireshark's
epan/dissectors/packet-infiniband.c decodes it as "CNP"). The NIC that received CE-marked packets
sends it with the DSCP and 802.1p priority of its cnp_dscp and cnp_802p_prio settings
(mlx5 sysfs /sys/class/net/<netdev>/ecn/roce_np/, NVIDIA MLNX_OFED "DCQCN" documentation), and the
switches give that DSCP a strict-priority queue so the sender slows down in time. The check
reports, per capture and sending IP, the CNPs whose DSCP is not the policy's CNP DSCP, or whose
VLAN tag (the one nearest the IP header) carries another priority than the policy's CNP priority;
untagged CNPs are judged on DSCP alone. The finding names the host-cnp finding of that host it
corroborates. Silent without captures.`,
	Inputs:   []Input{Captures},
	Requires: []*Check{hostCNP},
}, runWireCNP)

func runWireCNP(r *run) []Finding {
	f := r.f
	wantD, wantP := f.Policy.CNP.DSCP, f.Policy.CNP.Priority
	badD := func(v int) bool { return v != wantD }
	badP := func(v int) bool { return v != wantP && v != model.WireUntagged }
	var out []Finding
	wireSources(f, func(ws wireSource) {
		var total, wrongD, wrongP uint64
		var dscp [64]uint64
		var pcp [9]uint64
		var first model.WireMark
		for _, fl := range ws.flows {
			if fl.CNPs == 0 {
				continue
			}
			total += fl.CNPs
			for _, c := range fl.CNPDSCP() {
				dscp[c.Value()] += c.Count()
				if badD(c.Value()) {
					wrongD += c.Count()
				}
			}
			for _, c := range fl.CNPPCP() {
				pcp[c.Value()] += c.Count()
				if badP(c.Value()) {
					wrongP += c.Count()
				}
			}
			firstOf(fl.CNPDSCP(), badD, &first)
			firstOf(fl.CNPPCP(), badP, &first)
		}
		if wrongD == 0 && wrongP == 0 {
			return
		}
		device, host := ws.who(f)
		actual := histText("DSCP", dscp[:], strconv.Itoa)
		if tagged := histText("PCP", pcp[:model.WireUntagged], strconv.Itoa); tagged != "" {
			actual += "; " + tagged
		}
		out = append(out, Finding{
			Severity: judge.Error, Device: device,
			Message: fmt.Sprintf("%s sent %d CNPs: %d with a DSCP other than %d, %d tagged with a priority other than %d; %s",
				ws.ip, total, wrongD, wantD, wrongP, wantP, markText(first)) + wireCorroborates(r, host, ws.ip, hostCNP),
			Expected: fmt.Sprintf("DSCP %d, PCP %d when tagged", wantD, wantP),
			Actual:   actual,
			Source:   wirePos(ws.s),
		})
	})
	return out
}
