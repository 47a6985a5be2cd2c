package checks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var pfcCableLength = &Check{
	ID:       "pfc-cable-length",
	Kind:     KindConfig,
	Devices:  Switches,
	Severity: judge.Error,
	Title:    "PFC headroom is sized for the policy's cable length, alike on every switch",
	Doc: `A lossless port reserves headroom for the bytes still in flight after it sends a pause
frame, and the switch sizes it from the cable length: "Incorrect cable length settings cause
wasted buffer space (triggering congestion too early) or packet drops (congestion occurs before
flow control activates)" (CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-Switch-
Ports/Quality-of-Service/_index.md, Priority Flow Control). A port's cable length is its PFC
profile's: default-global takes qos roce's (nv set qos roce cable-length, 1 to 100000 m,
"The default setting is 100 meters", NVUE command reference) unless default-global sets its own
(nv set qos pfc default-global cable-length); another profile has its own or the PFC default,
"The default is 10 meters" (the same _index.md, All PFC commands). Every port with PFC on must be
sized for at least the policy's pfc.cable_length (the longest cable, 100 m unless the inventory
says otherwise): shorter is an error. NetQ's check roce compares the cable length across the
fabric; a lossless port group whose cable length differs from the one most switches use (the
longest on a tie) is a warning, unless it is already too short. A SONiC switch sizes each port for
its own cable (CABLE_LENGTH, which SONiC's templates set port by port from the neighbour's role:
sonic-net/sonic-buildimage files/build_templates/buffers_config.j2, ports2cable), so neither the
policy's longest cable nor the other switches measure its ports: there a lossless port with no
cable length, which SONiC's buffer managers give no lossless headroom, is the error.`,
	Inputs: []Input{NVConfig, ConfigDB},
	Run:    runPFCCableLength,
}

func runPFCCableLength(f *model.Fabric) []Finding {
	var out []Finding
	want := f.Policy.PFC.CableLength
	for _, sw := range f.ConfiguredSwitches() {
		if sw.CableLengthPerPort() {
			out = append(out, perPortCable(sw, want)...)
			continue
		}
		for _, g := range sw.PortGroups() {
			v := g.Q.CableLength
			if j := judge.PFCCableLength(f.Policy, lossless(g.Q), v.V, -1); j.OK {
				continue
			}
			out = append(out, Finding{
				Severity: judge.Error, Device: sw.Name, Interface: g.Iface,
				Message: fmt.Sprintf("PFC headroom is sized for %d m of cable, shorter than the policy's %d m: "+
					"pause frames come too late and lossless traffic drops", v.V, want),
				Expected: fmt.Sprintf("cable-length >= %d", want),
				Actual:   fmt.Sprintf("cable-length %d%s", v.V, originNote(v.Origin)),
				Source:   at(v.Origin, sw.ConfigFile),
				Changes:  []Change{cableChange(g.Q, want)},
			})
		}
	}
	return append(out, cableAcrossFabric(f)...)
}

// perPortCable judges a switch that sizes each port for its own cable
// (SONiC's CABLE_LENGTH): only a lossless port with none fails.
func perPortCable(sw *model.Switch, want int) []Finding {
	var out []Finding
	for _, g := range sw.PortGroups() {
		v := g.Q.CableLength
		j := judge.PortCableLength(lossless(g.Q), v.V)
		if j.OK {
			continue
		}
		out = append(out, Finding{
			Severity: j.Severity, Device: sw.Name, Interface: g.Iface, Message: j.Reason,
			Expected: "the port's cable length (CABLE_LENGTH)",
			Actual:   fmt.Sprintf("cable-length %d%s", v.V, originNote(v.Origin)),
			Source:   at(v.Origin, sw.ConfigFile),
			// Sized for the policy's longest cable, as a lossless
			// port must be at least (the check's Doc).
			Changes: []Change{{Kind: SwitchSetting, Set: &Setting{Aspect: CableLength, Ports: portsOf(sw, g), Value: TradCable(sw, want)}}},
		})
	}
	return out
}

// lossless reports whether a port group pauses any priority.
func lossless(q *model.QoS) bool {
	if !q.PFCRx.V && !q.PFCTx.V {
		return false
	}
	for _, on := range q.PFC {
		if on.V {
			return true
		}
	}
	return false
}

// cableChange sets the cable length where the port group's comes from.
func cableChange(q *model.QoS, metres int) Change {
	o, had := old(q.CableLength)
	if q.CableFrom == "roce" {
		return nvSet(o, had, strconv.Itoa(metres), "qos", "roce", "cable-length")
	}
	return nvSet(o, had, strconv.Itoa(metres), "qos", "pfc", q.CableFrom, "cable-length")
}

// CableUsers maps each cable length of a lossless port group to the
// switches using it, CableReference's input.
func CableUsers(f *model.Fabric) map[int]map[string]bool {
	users := map[int]map[string]bool{}
	for _, sw := range f.ConfiguredSwitches() {
		if sw.CableLengthPerPort() {
			continue
		}
		for _, g := range sw.PortGroups() {
			if !lossless(g.Q) {
				continue
			}
			l := g.Q.CableLength.V
			if users[l] == nil {
				users[l] = map[string]bool{}
			}
			users[l][sw.Name] = true
		}
	}
	return users
}

// cableAcrossFabric compares the cable length of every lossless port group
// of the fabric with the one most switches use (the longest on a tie).
func cableAcrossFabric(f *model.Fabric) []Finding {
	ref, refNames := judge.CableReference(CableUsers(f))
	if ref < 0 {
		return nil
	}
	var out []Finding
	for _, sw := range f.ConfiguredSwitches() {
		if sw.CableLengthPerPort() {
			continue
		}
		for _, g := range sw.PortGroups() {
			v := g.Q.CableLength
			// Too short is the error above.
			if j := judge.PFCCableLength(f.Policy, lossless(g.Q), v.V, ref); j.OK || j.Severity != judge.Warning {
				continue
			}
			out = append(out, Finding{
				Severity: judge.Warning, Device: sw.Name, Interface: g.Iface,
				Message: fmt.Sprintf("PFC cable length %d m differs from the %d m of %s: the fabric's lossless headroom is not sized alike",
					v.V, ref, strings.Join(refNames, ", ")),
				Expected: fmt.Sprintf("cable-length %d", ref),
				Actual:   fmt.Sprintf("cable-length %d%s", v.V, originNote(v.Origin)),
				Source:   at(v.Origin, sw.ConfigFile),
				Changes:  []Change{cableChange(g.Q, ref)},
			})
		}
	}
	return out
}
