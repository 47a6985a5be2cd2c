package checks

import (
	"fmt"
	"net/netip"
	"slices"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

var wireEntropy = &Check{
	ID:       "wire-entropy",
	Kind:     KindEvidence,
	Devices:  AllDevices,
	Applies:  appliesWire,
	Severity: judge.Warning,
	Title:    "The QPs between two GPUs spread over UDP source ports and uplinks",
	Doc: `Wire evidence from packet captures. Between two GPU addresses every RoCEv2 packet goes to UDP
port 4791, so the UDP source port is the only per-QP entropy ECMP has. For each sending IP and
destination IP of a capture the check counts the QPs (BTH destination QPs of data packets) and
the distinct source ports they use, and warns when two or more QPs all share one port: ECMP sees
one flow. Where the sender is an inventory host whose leaf's configuration and ECMP group (its
uplinks, from LLDP) are known, and the destination is not on that leaf, it also places each flow
on an uplink under the leaf's configured ecmp-hash fields and warns when all the QPs of the pair
land on one uplink. That placement is a model of a hash over the configured fields (FNV-1a), not
the Spectrum ASIC's hash function, which NVIDIA does not publish: it shows what the fields allow
(flows that differ only in a field the switch does not hash always share an uplink), not which
uplink a flow really takes. A ConnectX (mlx5) RC QP derives its source port from the two QP
numbers (Linux include/rdma/ib_verbs.h, rdma_calc_flow_label and rdma_flow_label_to_udp_sport:
QPs 0x1A2 and 0x3B7 send with 53462); the local QP number is visible as the destination QP of
the reverse direction's packets, when the capture holds them. A port that no reverse QP explains
is reported as an application-set flow label (info). Silent without captures.`,
	Inputs: []Input{Captures},
	Run:    runWireEntropy,
}

// wirePair is the flows of one capture from one IP to another.
type wirePair struct {
	s        *model.WireCapture
	src, dst netip.Addr
	flows    []*model.WireFlow
	// reverse are the destination QPs of the dst→src flows: the source
	// QPs of this direction.
	reverse []uint32
}

func runWireEntropy(f *model.Fabric) []Finding {
	var out []Finding
	for _, s := range f.Wire {
		for _, p := range wirePairs(s) {
			out = append(out, entropyFindings(f, p)...)
		}
	}
	return out
}

// wirePairs groups a capture's data flows by source and destination
// (flows are sorted by both) and finds each direction's reverse QPs.
func wirePairs(s *model.WireCapture) []wirePair {
	qps := map[[2]netip.Addr][]uint32{}
	var out []wirePair
	for _, fl := range s.Flows {
		k := [2]netip.Addr{fl.Src, fl.Dst}
		qps[k] = append(qps[k], fl.DestQP)
		if fl.Packets == 0 {
			continue // CNPs only: their QP counts as a reverse QP, no more
		}
		if n := len(out); n == 0 || out[n-1].src != fl.Src || out[n-1].dst != fl.Dst {
			out = append(out, wirePair{s: s, src: fl.Src, dst: fl.Dst})
		}
		out[len(out)-1].flows = append(out[len(out)-1].flows, fl)
	}
	for i := range out {
		out[i].reverse = qps[[2]netip.Addr{out[i].dst, out[i].src}]
	}
	return out
}

func entropyFindings(f *model.Fabric, p wirePair) []Finding {
	var out []Finding
	device, _ := wireSource{s: p.s, ip: p.src}.who(f)
	var ports []uint16
	for _, fl := range p.flows {
		for _, sp := range fl.SrcPorts {
			if !slices.Contains(ports, sp) {
				ports = append(ports, sp)
			}
		}
	}
	slices.Sort(ports)
	pair := fmt.Sprintf("%s → %s", p.src, p.dst)
	var why []string
	if len(p.flows) >= 2 && len(ports) == 1 {
		why = append(why, fmt.Sprintf("all %d QPs (%s) send with UDP source port %d: ECMP sees one flow", len(p.flows), qpList(p.flows), ports[0]))
	}
	if m := uplinkModel(f, p, ports); m != "" {
		why = append(why, m)
	}
	if len(why) > 0 {
		out = append(out, Finding{
			Severity: judge.Warning, Device: device,
			Message:  pair + ": " + strings.Join(why, "; ") + "; " + markText(firstPacket(p.flows)),
			Expected: "the QPs of a GPU pair on distinct UDP source ports, spread over the uplinks",
			Actual:   fmt.Sprintf("%d QPs, %d source ports (%s)", len(p.flows), len(ports), portList(ports)),
			Source:   wirePos(p.s),
		})
	}
	if fd, ok := appFlowLabel(p, pair, device); ok {
		out = append(out, fd)
	}
	return out
}

// uplinkModel places the pair's flows on the sender's leaf's uplinks
// under its configured hash fields; "" when they spread, or when there is
// nothing to model (no leaf known, or the destination on the same leaf).
func uplinkModel(f *model.Fabric, p wirePair, ports []uint16) string {
	if len(p.flows) < 2 {
		return ""
	}
	sw := senderLeaf(f, p)
	if sw == nil {
		return ""
	}
	var on []string
	set := map[string]bool{}
	for _, fd := range model.ECMPFields {
		if v, ok := sw.ECMP[fd.Name]; ok && v.V {
			set[fd.Name] = true
			on = append(on, fd.Name)
		}
	}
	uplinks := sw.ECMPGroup.Ports
	used := map[int]bool{}
	for _, sp := range ports {
		used[model.ModelECMPMember(set, model.ECMPTuple{Src: p.src, Dst: p.dst, SrcPort: sp, DstPort: model.RoCEv2Port, Protocol: 17}, len(uplinks))] = true
	}
	if len(used) != 1 {
		return ""
	}
	var one int
	for m := range used {
		one = m
	}
	return fmt.Sprintf("in a model of %s's ECMP hash over its configured fields (%s; a model, not the ASIC's hash function), all %d QPs fall on %s of its %d uplinks (%s)",
		sw.Name, strings.Join(on, ", "), len(p.flows), uplinks[one], len(uplinks), model.CompressNames(uplinks))
}

// senderLeaf is the first leaf (by name) of the sending host that has a
// configuration and an ECMP group of two ports or more and that the
// destination host is not on.
func senderLeaf(f *model.Fabric, p wirePair) *model.Switch {
	src, ok := f.HostOfIP[p.src.Unmap()]
	if !ok {
		return nil
	}
	dstLeaves := hostSwitches(f, f.HostOfIP[p.dst.Unmap()])
	for _, leaf := range hostSwitches(f, src) {
		sw := f.SwitchByName(leaf)
		if sw == nil || sw.ConfigFile == "" || len(sw.ECMPGroup.Ports) < 2 || slices.Contains(dstLeaves, leaf) {
			continue
		}
		return sw
	}
	return nil
}

// hostSwitches are the switches a host is cabled to, sorted.
func hostSwitches(f *model.Fabric, host string) []string {
	var out []string
	if host == "" {
		return nil
	}
	for _, l := range f.LinksOf(host) {
		if _, other, ok := l.End(host); ok && other.Kind == layout.KindSwitch && !slices.Contains(out, other.Device) {
			out = append(out, other.Device)
		}
	}
	sort.Strings(out)
	return out
}

// appFlowLabel is the info finding for flows whose source ports the mlx5
// rule does not give from any reverse QP of the capture.
func appFlowLabel(p wirePair, pair, device string) (Finding, bool) {
	if len(p.reverse) == 0 {
		return Finding{}, false // the source QPs are not in the capture
	}
	var odd []string
	for _, fl := range p.flows {
		for _, sp := range fl.SrcPorts {
			if slices.ContainsFunc(p.reverse, func(l uint32) bool { return model.RoCEv2SourcePort(l, fl.DestQP) == sp }) {
				continue
			}
			o := fmt.Sprintf("QP %#x port %d", fl.DestQP, sp)
			if len(p.reverse) == 1 {
				o += fmt.Sprintf(" (mlx5 would use %d)", model.RoCEv2SourcePort(p.reverse[0], fl.DestQP))
			}
			odd = append(odd, o)
		}
	}
	if len(odd) == 0 {
		return Finding{}, false
	}
	return Finding{
		Severity: judge.Info, Device: device,
		Message: fmt.Sprintf("%s: %s: not the source port mlx5 derives from the QP numbers (rdma_calc_flow_label) with any of the %d reverse QPs seen (%s), so the application set the flow label; %s",
			pair, strings.Join(odd, ", "), len(p.reverse), qpNums(p.reverse), markText(firstPacket(p.flows))),
		Expected: "source port from rdma_calc_flow_label(local QP, remote QP)",
		Actual:   strings.Join(odd, ", "),
		Source:   wirePos(p.s),
	}, true
}

// firstPacket is the earliest data packet of the flows.
func firstPacket(fs []*model.WireFlow) model.WireMark {
	var first model.WireMark
	for _, f := range fs {
		firstOf(f.DSCP(), func(int) bool { return true }, &first)
	}
	return first
}

func qpList(fs []*model.WireFlow) string {
	var qs []uint32
	for _, f := range fs {
		qs = append(qs, f.DestQP)
	}
	return qpNums(qs)
}

func qpNums(qs []uint32) string {
	var parts []string
	for _, q := range qs {
		parts = append(parts, fmt.Sprintf("%#x", q))
	}
	return strings.Join(parts, ", ")
}

func portList(ps []uint16) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, fmt.Sprint(p))
	}
	return strings.Join(parts, ", ")
}
