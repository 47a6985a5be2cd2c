package collectors

import "github.com/qoslint/qoslint/collectors/ibfiles"

// IBCapture is what was read from a host's InfiniBand ports.
type IBCapture struct {
	// OpenSM is opensm.conf when this host runs the subnet manager; nil
	// otherwise.
	OpenSM *ibfiles.OpenSMConf
	// QoSPolicy is OpenSM's QoS policy file next to opensm.conf; nil when
	// absent or unreadable.
	QoSPolicy *ibfiles.QoSPolicy
	// IBStat is `ibstat`; nil when not collected or unreadable.
	IBStat *ibfiles.IBStat
	// Ports are the InfiniBand ports (link layer InfiniBand) ibstat lists,
	// in its order.
	Ports []*IBPortCapture
	// Switches are the switches this host's ibswitches.txt lists, with
	// the ports read by LID from here; nil when the file is absent.
	Switches []*IBSwitchCapture
}

// IBPortCapture is one HCA port's QoS tables; a nil table was not
// collected or could not be read.
type IBPortCapture struct {
	CA string
	// NodeGUID is the CA's node GUID from ibstat ("" when not printed),
	// which finds the port in ibdiagnet's files.
	NodeGUID string
	Port     int
	LID      int
	Line     int // the port's line in ibstat
	SL2VL    *ibfiles.SL2VL
	VLArb    *ibfiles.VLArb
	PortInfo *ibfiles.PortInfo
}

// IBSwitchCapture is one switch `ibswitches` listed, read by LID from the
// host that holds the file.
type IBSwitchCapture struct {
	ibfiles.IBSwitch
	// Ports are the ports whose PortInfo was collected, by port number.
	Ports []*IBSwitchPortCapture
}

// IBSwitchPortCapture is one switch port's tables; a nil table was not
// collected or could not be read. SL2VL has one row per input port
// towards this output port.
type IBSwitchPortCapture struct {
	Port     int
	SL2VL    *ibfiles.SL2VL
	VLArb    *ibfiles.VLArb
	PortInfo *ibfiles.PortInfo
}
