package collectors

import "github.com/qoslint/qoslint/collectors/ibfiles"

// IBCapture is what was read from a host's InfiniBand ports.
type IBCapture struct {
	// OpenSM is opensm.conf when this host runs the subnet manager; nil
	// otherwise.
	OpenSM *ibfiles.OpenSMConf
	// IBStat is `ibstat`; nil when not collected or unreadable.
	IBStat *ibfiles.IBStat
	// Ports are the InfiniBand ports (link layer InfiniBand) ibstat lists,
	// in its order.
	Ports []*IBPortCapture
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
