package layout

import "strconv"

// InfiniBand files of a host (`qoslint help infiniband`). The
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
	// QoSPolicyFile is OpenSM's QoS policy file on the same host, next to
	// opensm.conf, whatever path opensm.conf's qos_policy_file gives it
	// (UFM keeps both under its conf directory). QoSPolicyPath is the
	// path when qos_policy_file is unset: OSM_DEFAULT_QOS_POLICY_FILE,
	// OPENSM_CONFIG_DIR "/qos-policy.conf" (linux-rdma/opensm
	// include/opensm/osm_base.h; /etc/opensm on distribution packages).
	QoSPolicyFile = "qos-policy.conf"
	QoSPolicyPath = "/etc/opensm/qos-policy.conf"
)

// SMPQueryFile holds `smpquery <op>` of one HCA port (op: sl2vl, vlarb,
// portinfo), e.g. smpquery-sl2vl-mlx5_0-1.txt.
func SMPQueryFile(op, ca string, port int) string {
	return "smpquery-" + op + "-" + ca + "-" + strconv.Itoa(port) + txtSuffix
}

// InfiniBand switches (`qoslint help infiniband`). A
// switch runs no shell qoslint could reach: it answers only subnet
// management packets, which any host with an HCA port on the subnet can
// send. So its tables are read from one host (the subnet manager's host,
// else the first InfiniBand host) and kept in that host's directory:
// `ibswitches` names the switches and their LIDs, and per switch LID L and
// port P (0, the management port, to the switch's port count)
// `smpquery <op> L P` (linux-rdma/rdma-core infiniband-diags/smpquery.c:
// "portinfo 3 1 # portinfo by lid, with port modifier"; sl2vl's
// modifier is the output port and prints one row per input port, vlarb's
// and portinfo's is the port). The switch is named by its LID, not by an
// inventory entry: the LID is what the SMPs address, and ibswitches
// prints it with the switch's GUID and node description.
const IBSwitchesFile = "ibswitches.txt"

// SwitchSMPQueryFile holds `smpquery <op> <lid> <port>` of one switch port,
// e.g. smpquery-sl2vl-lid5-1.txt.
func SwitchSMPQueryFile(op string, lid, port int) string {
	return "smpquery-" + op + "-lid" + strconv.Itoa(lid) + "-" + strconv.Itoa(port) + txtSuffix
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
