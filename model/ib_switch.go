package model

import (
	"fmt"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/ibfiles"
	"github.com/qoslint/qoslint/internal/source"
)

// IBSwitch is one switch ibswitches listed, with the ports read by LID
// from Host (internal/layout/ib.go: a switch answers only SMPs).
type IBSwitch struct {
	// Host is the host whose directory holds the switch's files; a
	// finding on the switch is reported there.
	Host     string
	Name     string // the node description's host name, else the description
	GUID     string
	LID      int
	Enhanced bool // an enhanced port 0, which OpenSM programs as qos_sw0_
	Pos      source.Pos
	Ports    []*IBSwitchPort // by port number
}

// IBSwitchPort is one switch port's tables. Port 0 is the management
// port.
type IBSwitchPort struct {
	Switch *IBSwitch
	Port   int
	Active bool // PortInfo LinkState Active
	// SL2VL is one row per input port towards this output port, by input
	// port; nil when not collected.
	SL2VL []SL2VLIn
	// VLArb is nil when not collected or a base port 0 has none.
	VLArb    *ibfiles.VLArb
	VLArbPos source.Pos
	// OperVLs 0: not known; HighLimit -1: not known.
	OperVLs      int
	OperVLsPos   source.Pos
	HighLimit    int
	HighLimitPos source.Pos
}

// SL2VLIn is the SL2VL table from input port In to the port.
type SL2VLIn struct {
	In  int
	VL  [16]int
	Pos source.Pos
}

// Label is "ib-leaf01 (lid 5)".
func (s *IBSwitch) Label() string { return fmt.Sprintf("%s (lid %d)", s.Name, s.LID) }

// Name is "ib-leaf01 (lid 5) port 1".
func (p *IBSwitchPort) Name() string { return fmt.Sprintf("%s port %d", p.Switch.Label(), p.Port) }

// Port returns port n, nil when it was not collected.
func (s *IBSwitch) Port(n int) *IBSwitchPort {
	for _, p := range s.Ports {
		if p.Port == n {
			return p
		}
	}
	return nil
}

// switchName takes the host name out of an NVIDIA switch's node
// description, "MF0;<hostname>:<model>/U1" (ibnetdiscover output of
// Quantum switches, e.g. "MF0;ib-leaf01:MQM9700/U1"); any other
// description is kept whole.
func switchName(desc string) string {
	if _, rest, ok := strings.Cut(desc, ";"); ok {
		if h, _, ok := strings.Cut(rest, ":"); ok && h != "" {
			return h
		}
	}
	if desc == "" {
		return "switch"
	}
	return desc
}

func buildIBSwitches(host string, file string, caps []*collectors.IBSwitchCapture) []*IBSwitch {
	var out []*IBSwitch
	for _, c := range caps {
		sw := &IBSwitch{Host: host, Name: switchName(c.Desc), GUID: c.GUID, LID: c.LID, Enhanced: c.Enhanced,
			Pos: source.Pos{File: file, Line: c.Line}}
		for _, pc := range c.Ports {
			sw.Ports = append(sw.Ports, buildIBSwitchPort(sw, pc))
		}
		sort.Slice(sw.Ports, func(i, j int) bool { return sw.Ports[i].Port < sw.Ports[j].Port })
		out = append(out, sw)
	}
	return out
}

func buildIBSwitchPort(sw *IBSwitch, pc *collectors.IBSwitchPortCapture) *IBSwitchPort {
	p := &IBSwitchPort{Switch: sw, Port: pc.Port, HighLimit: -1}
	if pi := pc.PortInfo; pi != nil {
		p.Active = pi.LinkState == "Active"
		if pi.OperVLs > 0 {
			p.OperVLs, p.OperVLsPos = pi.OperVLs, source.Pos{File: pi.File, Line: pi.OperVLsLine}
		}
		if pi.VLHighLimit >= 0 {
			p.HighLimit, p.HighLimitPos = pi.VLHighLimit, source.Pos{File: pi.File, Line: pi.VLHighLimitLine}
		}
	}
	if s := pc.SL2VL; s != nil {
		for _, r := range s.Rows {
			// smpquery prints the rows of the output port it was asked
			// for; a row of another one is not this port's.
			if r.Out == pc.Port {
				p.SL2VL = append(p.SL2VL, SL2VLIn{In: r.In, VL: r.VL, Pos: source.Pos{File: s.File, Line: r.Line}})
			}
		}
		sort.Slice(p.SL2VL, func(i, j int) bool { return p.SL2VL[i].In < p.SL2VL[j].In })
	}
	if v := pc.VLArb; v != nil && !v.NoTables {
		p.VLArb, p.VLArbPos = v, source.Pos{File: v.File, Line: v.Line}
	}
	return p
}

// TrafficIn reports whether input port in carries the jobs' traffic into
// the switch: an Active external port other than out. Port 0 is the
// switch's own management traffic, and a port whose PortInfo was not
// collected or is not Active carries none the audit can see.
func (s *IBSwitch) TrafficIn(in, out int) bool {
	if in == 0 || in == out {
		return false
	}
	p := s.Port(in)
	return p != nil && p.Active
}

// SMClass is the OpenSM class that programs port p (opensm/osm_qos.c
// osm_qos_setup: qos_swe_ for the external ports, qos_sw0_ for an
// enhanced port 0).
func (p *IBSwitchPort) SMClass() string {
	if p.Port == 0 {
		return ibfiles.ClassSW0
	}
	return ibfiles.ClassSWE
}
