package layout

import "strconv"

// InfiniBand files of a host (README "Fabric directory", InfiniBand). The
// per-port names carry the HCA and port as `ibstat` prints them, so one
// host with several HCAs keeps one file per port.
const (
	// IBStatFile holds `ibstat`: the HCAs, their ports, LIDs and link
	// layers.
	IBStatFile = "ibstat.txt"
	// OpenSMConfFile is /etc/opensm/opensm.conf of the host that runs the
	// subnet manager (OpenSMConfPath); only that host has it.
	OpenSMConfFile = "opensm.conf"
	OpenSMConfPath = "/etc/opensm/opensm.conf"
)

// SMPQueryFile holds `smpquery <op>` of one HCA port (op: sl2vl, vlarb,
// portinfo), e.g. smpquery-sl2vl-mlx5_0-1.txt.
func SMPQueryFile(op, ca string, port int) string {
	return "smpquery-" + op + "-" + ca + "-" + strconv.Itoa(port) + txtSuffix
}

// The fabric-wide ibdiagnet folder at the fabric directory's root: the
// files `ibdiagnet` writes to its output directory (/var/tmp/ibdiagnet2 by
// default), copied as they are. It is optional; the db_csv database is the
// one file it needs.
const (
	IBDiagnetDir      = "ibdiagnet"
	IBDiagnetDBFile   = IBDiagnetDir + "/ibdiagnet2.db_csv"
	IBDiagnetSLVLFile = IBDiagnetDir + "/ibdiagnet2.slvl"
)
