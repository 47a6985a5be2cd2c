package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var linkMTU = &Check{
	ID:       "link-mtu",
	Kind:     KindTopology,
	Devices:  AllDevices,
	Severity: judge.Error,
	Title:    "Both ends of every link carry the same frames: equal switch MTUs, a switch port at least its host's",
	Doc: `RoCE does not fragment: a frame larger than the receiving end's MTU is dropped. But RoCE never
sends more than its path MTU, at most 4096 bytes of payload, plus the headers the kernel budgets
beside it (iboe_get_mtu() in Linux include/rdma/ib_addr.h: 96 bytes), whatever the netdev MTU:
a host at 9000 sends RoCE packets of at most 4192 bytes. So each cable LLDP reports is judged by
what crosses it: an end smaller than the other that drops RoCE packets is an error; one that takes
every RoCE packet but drops the hosts' other full-size frames is a warning (between switches: some
host's MTU is above the smaller end, or no host MTU is known; between a host and its switch port:
the port is below the host); one that nothing the hosts send reaches (a 9000/9216 pair of switch
ports when no host is above 9000) is info, since equal MTUs on both ends stay best practice, which
NetQ's link MTU consistency test checks. A host below its switch is fine: it sends smaller
frames. An end below the policy's minimum for its kind is the mtu check's finding, not repeated
here: this check reports what only the two ends together show. Links come from
lldpcli show neighbors on both ends (lldpd/lldpd); a link seen from one end only is still judged,
and the finding says so.`,
	Inputs: []Input{LLDP, NVConfig, ConfigDB, IPLink},
	Run:    runLinkMTU,
}

// linkEndMTU is one end's MTU, or not Known, with the file whose defaults
// apply on a switch.
func linkEndMTU(f *model.Fabric, e model.LinkEnd) (v model.Value[int], port, fallback string) {
	v, port, ok := f.EndMTU(e)
	if !ok {
		return model.Value[int]{}, "", ""
	}
	if port != "" {
		fallback = f.SwitchByName(e.Device).ConfigFile
	}
	return v, port, fallback
}

// mtuEnd is one end of a link with its MTU.
type mtuEnd struct {
	end      model.LinkEnd
	v        model.Value[int]
	port     string // the switch's checked port; "" on a host
	fallback string
}

// fix is the finding that raises this end to mtu.
func (e mtuEnd) fix(l *model.Link, j judge.Judgement, mtu int, other mtuEnd) Finding {
	ch := Change{Kind: LinkMTU, Target: e.end.Port, Value: strconv.Itoa(mtu), Old: strconv.Itoa(e.v.V), HasOld: true}
	iface := e.end.Port
	if e.port != "" {
		o, had := old(e.v)
		ch = nvSet(o, had, strconv.Itoa(mtu), "interface", e.port, "link", "mtu").with(Setting{Aspect: PortMTU, Ports: []string{e.port}, Value: mtu})
		iface = e.port
	}
	return Finding{
		Severity: j.Severity, Device: e.end.Device, Interface: iface,
		Message:  fmt.Sprintf("link %s - %s: %s (%s)", endName(e.end, e.port), endName(other.end, other.port), j.Reason, linkSeen(l)),
		Expected: fmt.Sprintf(">= %d", mtu),
		Actual:   fmt.Sprintf("%s (%s); the other end %s (%s)", strconv.Itoa(e.v.V), at(e.v.Origin, e.fallback), strconv.Itoa(other.v.V), at(other.v.Origin, other.fallback)),
		Source:   at(e.v.Origin, e.fallback),
		Changes:  []Change{ch},
	}
}

func runLinkMTU(f *model.Fabric) []Finding {
	var out []Finding
	sent := f.HostFrames()
	for _, l := range f.Links {
		var ends [2]mtuEnd
		for i, e := range []model.LinkEnd{l.A, l.B} {
			v, p, fb := linkEndMTU(f, e)
			ends[i] = mtuEnd{end: e, v: v, port: p, fallback: fb}
		}
		if !ends[0].v.Known || !ends[1].v.Known {
			continue // an end that is no RoCE NIC or checked port, or no MTU collected: mtu says so
		}
		// An end below its kind's minimum is the mtu check's finding, with
		// its fix; this check adds what only the pair shows.
		j, low := judge.LinkMTU(judge.LinkMTUEnd{MTU: ends[0].v.V, Switch: ends[0].port != ""}, judge.LinkMTUEnd{MTU: ends[1].v.V, Switch: ends[1].port != ""}, sent)
		if !j.OK {
			out = append(out, ends[low].fix(l, j, ends[1-low].v.V, ends[1-low]))
		}
	}
	return append(out, lldpNotCollected(f, "link MTUs")...)
}
