package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

// ecnNames are the ECN codepoints (RFC 3168, 5).
var ecnNames = [4]string{"Not-ECT", "ECT(1)", "ECT(0)", "CE"}

var wireECN = inRun(&Check{
	ID:       "wire-ecn",
	Kind:     KindEvidence,
	Devices:  AllDevices,
	Applies:  appliesWire,
	Severity: judge.Warning,
	Title:    "RoCEv2 data is sent ECN-capable, and CE marks meet CNPs",
	Doc: `Wire evidence from packet captures (see wire-dscp). DCQCN works only when the sending NIC marks its
RoCEv2 data ECN-capable (ECT, RFC 3168, 5): a switch may set CE on an ECT packet when its queue
passes the ECN threshold, the receiving NIC answers CE with a CNP, and the sender slows down. Every
Cumulus qos roce mode enables ECN on the RoCE traffic class, so every policy relies on DCQCN. A
warning names, per capture and sending IP, the RoCEv2 data packets sent Not-ECT (codepoint 00):
no switch can mark them, so congestion on their path is left to PFC alone; the usual cause is
ECN (roce_np/roce_rp) disabled on the NIC's priority, and the finding names the host-ecn finding
it corroborates. An info finding gives, per pair of IPs, the share of data packets that arrived
CE-marked and the CNPs seen going back, as a CE-to-CNP ratio: the NIC rate-limits CNPs (one per
QP per interval, NVIDIA DCQCN documentation), so the ratio is above 1 under congestion, while CE
without any CNP back means the receiver does not answer. A capture that shows one direction only
cannot tell, and the message says so. Silent without captures.`,
	Inputs:   []Input{Captures},
	Requires: []*Check{hostECN},
}, runWireECN)

func runWireECN(r *run) []Finding {
	f := r.f
	notECT := func(v int) bool { return v == 0 }
	var out []Finding
	wireSources(f, func(ws wireSource) {
		var total, plain uint64
		var hist [4]uint64
		var first model.WireMark
		for _, fl := range ws.flows {
			total += fl.Packets
			for _, c := range fl.ECN() {
				hist[c.Value()] += c.Count()
			}
			plain += fl.ECN().Count(0)
			firstOf(fl.ECN(), notECT, &first)
		}
		if plain == 0 {
			return
		}
		device, host := ws.who(f)
		out = append(out, Finding{
			Severity: judge.Warning, Device: device,
			Message: fmt.Sprintf("%s sent %d of %d RoCEv2 data packets (%.1f%%) Not-ECT: no switch can mark them CE, so DCQCN never slows these flows; %s",
				ws.ip, plain, total, pct(plain, total), markText(first)) + wireCorroborates(r, host, ws.ip, hostECN),
			Expected: "ECT(0) or ECT(1)",
			Actual:   histText("ECN", hist[:], func(v int) string { return ecnNames[v] }),
			Source:   wirePos(ws.s),
		})
	})
	return append(out, wireCE(r)...)
}

// wireCE is the info finding per IP pair with CE-marked data: its share
// and the CNPs that went back (CNPs travel from the receiver to the
// sender, so they are the flows of the reversed pair).
func wireCE(r *run) []Finding {
	var out []Finding
	for _, s := range r.f.Wire {
		type pair struct{ src, dst string }
		data, ce, cnps := map[pair]uint64{}, map[pair]uint64{}, map[pair]uint64{}
		var order []pair
		for _, fl := range s.Flows {
			p := pair{fl.Src.String(), fl.Dst.String()}
			if _, ok := data[p]; !ok {
				order = append(order, p)
			}
			data[p] += fl.Packets
			ce[p] += fl.ECN().Count(3)
			if fl.CNPs > 0 {
				cnps[pair{p.dst, p.src}] += fl.CNPs
			}
		}
		for _, p := range order {
			if ce[p] == 0 {
				continue
			}
			ratio := "no CNP went back in this capture (it may show one direction only)"
			if cnps[p] > 0 {
				ratio = fmt.Sprintf("%d CNPs went back, %.1f CE-marked packets per CNP", cnps[p], float64(ce[p])/float64(cnps[p]))
			}
			ws := wireSource{s: s, ip: s.Flows[0].Src}
			for _, fl := range s.Flows {
				if fl.Src.String() == p.src {
					ws.ip = fl.Src
					break
				}
			}
			device, _ := ws.who(r.f)
			out = append(out, Finding{
				Severity: judge.Info, Device: device,
				Message: fmt.Sprintf("%s → %s: %d of %d RoCEv2 data packets (%.1f%%) arrived CE-marked; %s",
					p.src, p.dst, ce[p], data[p], pct(ce[p], data[p]), ratio),
				Expected: "CE answered by CNPs",
				Actual:   fmt.Sprintf("CE %d, CNP %d", ce[p], cnps[p]),
				Source:   wirePos(s),
			})
		}
	}
	return out
}
