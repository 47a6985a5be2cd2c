package checks

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// wireSource is the flows of one capture that one IP address sent.
type wireSource struct {
	s     *model.WireCapture
	ip    netip.Addr
	flows []*model.WireFlow
}

// wireSources groups each capture's flows by source IP (flows are sorted
// by source, so each group is one run).
func wireSources(f *model.Fabric, fn func(ws wireSource)) {
	for _, s := range f.Wire {
		for i := 0; i < len(s.Flows); {
			j := i
			for j < len(s.Flows) && s.Flows[j].Src == s.Flows[i].Src {
				j++
			}
			fn(wireSource{s: s, ip: s.Flows[i].Src, flows: s.Flows[i:j]})
			i = j
		}
	}
}

// who is the device a wire finding belongs to: the inventory host whose
// address ip is, else the device that holds the capture, else the IP
// itself (a capture given on the command line without an inventory).
func (ws wireSource) who(f *model.Fabric) (device, host string) {
	if h, ok := f.HostOfIP[ws.ip.Unmap()]; ok {
		return h, h
	}
	if ws.s.Device != "" {
		return ws.s.Device, ""
	}
	return ws.ip.String(), ""
}

// wireCorroborates names the configuration findings of cs on host (any
// NIC) that the wire evidence corroborates.
func wireCorroborates(r *run, host string, ip netip.Addr, cs ...*Check) string {
	if host == "" {
		return fmt.Sprintf("; %s is no inventory host's address, so no host configuration is compared", ip)
	}
	if !slices.ContainsFunc(r.f.Hosts, func(h *model.Host) bool { return h.Name == host }) {
		// qoslint pcap: captures judged without the hosts' saved outputs.
		return "; " + host + "'s configuration was not read, so none is compared"
	}
	var ids []string
	for _, c := range cs {
		for _, fd := range r.findings(c) {
			if fd.Device == host && fd.Severity != judge.Info && !slices.Contains(ids, c.ID) {
				ids = append(ids, c.ID)
			}
		}
	}
	if len(ids) == 0 {
		return "; no configuration finding on " + host + " explains it"
	}
	return fmt.Sprintf("; corroborates %s on %s", strings.Join(ids, ", "), host)
}

// firstOf is the earliest mark among the values of a histogram that bad
// rejects.
func firstOf(h model.WireHist, bad func(v int) bool, first *model.WireMark) {
	for _, c := range h {
		if !bad(c.Value()) {
			continue
		}
		if first.Packet == 0 || c.Packet() < first.Packet {
			*first = c.First()
		}
	}
}

// histText lists a histogram's nonzero values ("DSCP 0: 900, DSCP 26: 100").
func histText(label string, counts []uint64, name func(v int) string) string {
	var parts []string
	for v, n := range counts {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s %s: %d", label, name(v), n))
		}
	}
	return strings.Join(parts, ", ")
}

func markText(m model.WireMark) string {
	return fmt.Sprintf("first at packet %d (%s)", m.Packet, m.Time.UTC().Format(time.RFC3339Nano))
}

func wirePos(s *model.WireCapture) source.Pos { return source.Pos{File: s.File} }

func pct(n, of uint64) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}
