package model

import (
	"fmt"

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
	VLArb    *VLArb
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
		return SMClassSW0
	}
	return SMClassSWE
}
