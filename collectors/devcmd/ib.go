package devcmd

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/names"
)

// InfiniBand commands of a host (`qoslint help infiniband`).
const (
	// IBStat is `ibstat` → ibstat.txt: it only reads the HCAs' sysfs
	// attributes (linux-rdma/rdma-core infiniband-diags/ibstat.c).
	IBStat = "ibstat" // → ibstat.txt
	// CatOpenSMConf reads the subnet manager's configuration →
	// opensm.conf; only the SM's host has the file.
	CatOpenSMConf = "cat " + layout.OpenSMConfPath
	// SMPQueryPrefix starts the only smpquery form qoslint sends.
	SMPQueryPrefix = "smpquery "
)

// smpqueryOps are the smpquery operations qoslint reads. smpquery sends
// only SubnGet MADs for every operation it knows (rdma-core
// infiniband-diags/smpquery.c: smp_query_via for each match_tbl entry),
// but the list still names the three whose output ibfiles parses and no
// other.
var smpqueryOps = map[string]bool{"sl2vl": true, "vlarb": true, "portinfo": true}

// smpqueryRe is SMPQuery's one form: -C/-P choose the local HCA port
// the MAD leaves from, -D a directed route, and "0" the empty route, i.e.
// that port itself (smpquery.c usage: "-D nodeinfo 0 # nodeinfo by
// direct route"). No other option (-m sets an M_Key, -s a source LID, -c
// a combined route, -G a GUID) is ever sent.
var smpqueryRe = regexp.MustCompile(`^smpquery -C (` + names.IBDevPattern + `) -P ([0-9]{1,3}) -D (sl2vl|vlarb|portinfo) 0$`)

// SMPQuery is `smpquery -C <ca> -P <port> -D <op> 0` →
// smpquery-<op>-<ca>-<port>.txt: one table of the HCA port itself.
func SMPQuery(op, ca string, port int) (string, error) {
	if !smpqueryOps[op] {
		return "", fmt.Errorf("smpquery %q is not an operation qoslint reads (sl2vl, vlarb, portinfo)", op)
	}
	if !names.IBDev(ca) {
		return "", fmt.Errorf("HCA %q is not a safe RDMA device name (%s)", ca, names.IBDevRule)
	}
	if port < 1 || port > 255 {
		return "", fmt.Errorf("HCA port %d: want 1-255", port)
	}
	return SMPQueryPrefix + "-C " + ca + " -P " + strconv.Itoa(port) + " -D " + op + " 0", nil
}

// ParseSMPQuery reads cmd back as SMPQuery's arguments; ok is false for
// anything SMPQuery would not have written.
func ParseSMPQuery(cmd string) (op, ca string, port int, ok bool) {
	m := smpqueryRe.FindStringSubmatch(cmd)
	if m == nil {
		return "", "", 0, false
	}
	port, err := strconv.Atoi(m[2])
	if err != nil {
		return "", "", 0, false
	}
	if c, err := SMPQuery(m[3], m[1], port); err != nil || c != cmd {
		return "", "", 0, false
	}
	return m[3], m[1], port, true
}

// Switch reads (internal/layout/ib.go): a switch answers only SMPs, so
// a host reads it by LID through its default HCA port (the first Active
// one, as infiniband-diags' -C/-P defaults pick; a host on two subnets
// reads the first's switches).
const (
	// IBSwitches is `ibswitches` → ibswitches.txt: a script over
	// ibnetdiscover, which only sends SubnGet MADs
	// (linux-rdma/rdma-core infiniband-diags/scripts/ibswitches.in).
	IBSwitches = "ibswitches"
)

// smpqueryLIDRe is SMPQueryLID's one form: an operation, a decimal LID and
// a decimal port, nothing else (smpquery.c usage "portinfo 3 1 # portinfo
// by lid, with port modifier"; sl2vl's modifier is the output port).
var smpqueryLIDRe = regexp.MustCompile(`^smpquery (sl2vl|vlarb|portinfo) ([1-9][0-9]{0,4}) (0|[1-9][0-9]{0,2})$`)

// SMPQueryLID is `smpquery <op> <lid> <port>` →
// smpquery-<op>-lid<lid>-<port>.txt: one table of a switch port.
func SMPQueryLID(op string, lid, port int) (string, error) {
	if !smpqueryOps[op] {
		return "", fmt.Errorf("smpquery %q is not an operation qoslint reads (sl2vl, vlarb, portinfo)", op)
	}
	if lid < 1 || lid > 0xbfff {
		return "", fmt.Errorf("LID %d: want a unicast LID 1-49151", lid)
	}
	if port < 0 || port > 254 {
		return "", fmt.Errorf("switch port %d: want 0-254", port)
	}
	return SMPQueryPrefix + op + " " + strconv.Itoa(lid) + " " + strconv.Itoa(port), nil
}

// ParseSMPQueryLID reads cmd back as SMPQueryLID's arguments; ok is false
// for anything SMPQueryLID would not have written.
func ParseSMPQueryLID(cmd string) (op string, lid, port int, ok bool) {
	m := smpqueryLIDRe.FindStringSubmatch(cmd)
	if m == nil {
		return "", 0, 0, false
	}
	lid, err1 := strconv.Atoi(m[2])
	port, err2 := strconv.Atoi(m[3])
	if err1 != nil || err2 != nil {
		return "", 0, 0, false
	}
	if c, err := SMPQueryLID(m[1], lid, port); err != nil || c != cmd {
		return "", 0, 0, false
	}
	return m[1], lid, port, true
}

// CatPrefix starts CatQoSPolicy's command.
const CatPrefix = "cat "

// qosPolicyRe is the one path form CatQoSPolicy reads: an absolute path
// of plain name characters, with a directory named opensm on the way, to
// a file named qos-policy.conf: /etc/opensm/qos-policy.conf (opensm's
// OSM_DEFAULT_QOS_POLICY_FILE, include/opensm/osm_base.h), or
// /opt/ufm/files/conf/opensm/qos-policy.conf where UFM keeps it beside
// its opensm.conf. opensm.conf's qos_policy_file names the file; a path
// of another form is not read (partitions.conf, or any other file, stays
// off the allowlist).
var qosPolicyRe = regexp.MustCompile(`^(/[A-Za-z0-9_][A-Za-z0-9._-]*)*/opensm(/[A-Za-z0-9_][A-Za-z0-9._-]*)*/qos-policy\.conf$`)

// CatQoSPolicy is `cat <path>` → qos-policy.conf, the QoS policy file
// opensm.conf's qos_policy_file names, in qosPolicyRe's form only.
func CatQoSPolicy(path string) (string, error) {
	if len(path) > 255 || !qosPolicyRe.MatchString(path) || strings.Contains(path, "/../") || strings.Contains(path, "/./") {
		return "", fmt.Errorf("QoS policy file %q: qoslint reads only an absolute /…/opensm/…/qos-policy.conf path of letters, digits, '.', '_' and '-'", path)
	}
	return CatPrefix + path, nil
}
