package checks

import (
	"fmt"

	"github.com/qoslint/qoslint/model"
)

var linkMTU = &Check{
	ID:       "link-mtu",
	Kind:     KindTopology,
	Devices:  AllDevices,
	Severity: Error,
	Title:    "Both ends of every link carry the same frames: equal switch MTUs, a switch port at least its host's",
	Doc: `RoCE does not fragment: a frame larger than the receiving end's MTU is dropped, and a RoCE path
MTU the sender picks from its own netdev is only safe when every hop takes it. So across each
cable LLDP reports, two switch ports must have the same MTU, and the switch port a host NIC
plugs into must be at least the NIC's MTU (a host below its switch is fine: it sends smaller
frames). An end below the policy's minimum for its kind is the mtu check's finding, not repeated
here: this check reports what only the two ends together show. Links come from
lldpcli show neighbors on both ends (lldpd/lldpd); a link seen from one end only is still judged,
and the finding says so.`,
	Inputs: []Input{LLDP, NVConfig, IPLink},
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
func (e mtuEnd) fix(f *model.Fabric, l *model.Link, reason string, mtu int, other mtuEnd) Finding {
	ch := Change{Kind: LinkMTU, Target: e.end.Port, Value: itoa(mtu), Old: itoa(e.v.V), HasOld: true}
	iface := e.end.Port
	if e.port != "" {
		o, had := old(e.v)
		ch, iface = nvSet(o, had, itoa(mtu), "interface", e.port, "link", "mtu"), e.port
	}
	return Finding{
		Severity: Error, Device: e.end.Device, Interface: iface,
		Message:  fmt.Sprintf("link %s - %s: %s (%s)", endName(e.end, e.port), endName(other.end, other.port), reason, linkSeen(l)),
		Expected: fmt.Sprintf(">= %d", mtu),
		Actual:   fmt.Sprintf("%s (%s); the other end %s (%s)", itoa(e.v.V), at(e.v.Origin, e.fallback), itoa(other.v.V), at(other.v.Origin, other.fallback)),
		Source:   at(e.v.Origin, e.fallback),
		Changes:  []Change{ch},
	}
}

func runLinkMTU(f *model.Fabric) []Finding {
	var out []Finding
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
		j, low := JudgeLinkMTU(LinkMTUEnd{ends[0].v.V, ends[0].port != ""}, LinkMTUEnd{ends[1].v.V, ends[1].port != ""})
		if !j.OK {
			out = append(out, ends[low].fix(f, l, j.Reason, ends[1-low].v.V, ends[1-low]))
		}
	}
	return append(out, lldpNotCollected(f, "link MTUs")...)
}
