package checks

import (
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

var packetTrimServicePort = &Check{
	ID:       "packet-trim-service-port",
	Kind:     KindConfig,
	Devices:  Switches,
	Applies:  appliesTrim(false),
	Severity: judge.Error,
	Title:    "The packet trimming service port carries no other configuration",
	Doc: `"When you enable packet trimming, one service port is used. By default, this is the last
service port on the switch. To change the service port, run the nv set system forwarding
packet-trim service-port <interface-id> command", and "When you enable packet trimming, do not
configure packet trimming port eligibility, port security, adaptive routing, QoS, ACLs, PTP,
VRR, PBR, telemetry, or histograms on the service port" (CumulusNetworks/docs
content/cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/Packet-Trimming.md; the
same in content/nvue-reference/Set-and-Unset-Commands/Packet-Trimming.md; CL 5.14 calls it "the
recirculation port that loops the dropped packets internally to another traffic class"). On a
switch that trims, each of those settings found on the service port (the configured one, else
the one nv show system forwarding packet-trim names) is an error naming it, with the commands
that unset it and set it back. A service port that is a bond ("you can configure a bond on the
service ports, then use the bond for the packet trimming service port") is judged with its
members. Without a configured service port and without nv show system forwarding packet-trim,
the port is not known: not verified. One revision of the CL 5.19 page says "On Spectrum-4 and
Spectrum-5 switches, when you enable packet trimming, one service port is used": on a Spectrum-6
the findings are said as not verified (info). Settings that apply to every port (qos roce,
default-global profiles) are not judged here.`,
	Inputs: []Input{NVConfig, NVShowPacketTrim},
	Run:    runPacketTrimServicePort,
}

func runPacketTrimServicePort(f *model.Fabric) []Finding {
	var out []Finding
	for _, sw := range trimming(f) {
		t := sw.Trim
		port := t.ServicePort
		if !port.Known {
			switch {
			case t.Oper == nil:
				out = append(out, notCollected(sw.Name, []string{layout.PacketTrimShowFile + " not collected"}, "what is configured on the packet trimming service port (the configuration names none)"))
				continue
			case !t.Oper.ServicePort.Known:
				out = append(out, Finding{
					Severity: judge.Info, Device: sw.Name,
					Message: "neither the configuration nor nv show system forwarding packet-trim names the packet trimming service port: what is configured on it is not verified",
					Actual:  "not known", Source: pickPos(t.Oper.State.Origin.Pos(), t.Oper.State.Origin.Pos(), t.Oper.File),
				})
				continue
			}
			port = t.Oper.ServicePort
		}
		sev, note := judge.Error, ""
		if model.SpectrumGen(sw.Flow.ASIC) >= 6 {
			sev, note = judge.Info, fmt.Sprintf(" (not verified on a %s: one revision of the CL 5.19 guide documents the service port for Spectrum-4 and Spectrum-5 only)", sw.Flow.ASIC)
		}
		for _, s := range t.ServiceSettings {
			var fix []Change
			var paths []string
			for _, l := range s.Leaves {
				path := append([]string{"interface", s.Iface}, l.Path...)
				fix = append(fix, nvUnset(l.Value, path...))
				paths = append(paths, strings.Join(l.Path, " "))
			}
			on := port.V
			if s.Iface != port.V {
				on = s.Iface + ", a member of " + port.V
			}
			out = append(out, Finding{
				Severity: sev, Device: sw.Name, Interface: s.Iface,
				Message: fmt.Sprintf("%s is configured on the packet trimming service port %s: \"When you enable packet trimming, do not configure packet trimming port eligibility, port security, adaptive routing, QoS, ACLs, PTP, VRR, PBR, telemetry, or histograms on the service port\"%s",
					s.What, on, note),
				Expected: "no " + s.What + " on " + s.Iface,
				Actual:   strings.Join(paths, "; "),
				Source:   s.At, Changes: fix,
			})
		}
	}
	return out
}
