package ibfiles

import (
	"sort"
	"strings"
)

// Typed views of the db_csv sections qoslint reads. Their columns are the
// ones seen in public readers of real files:
//
//	NODES: NodeDesc,NumPorts,NodeType,ClassVersion,BaseVersion,
//	  SystemImageGUID,NodeGUID,PortGUID,DeviceID,PartitionCap,revision,
//	  VendorID,LocalPortNum (a Rust loader of ibdiagnet2 exports, its
//	  NodeRecord; older files stop after PortGUID, as in the Go test
//	  fixtures of several db_csv parsers)
//	PORTS: NodeGuid,PortGuid,PortNum,MKey,GIDPrfx,MSMLID,LID,...,
//	  VLArbHighCap,VLHighLimit,InitType,VLCap,...,OpVLs,...,VLArbLowCap,...
//	  (54 columns; the same loader's PortRecord and the log_parser3000
//	  sections/ports.go portsHeader agree column for column)
//	LINKS: NodeGuid1,PortNum1,NodeGuid2,PortNum2 (the loader's LinkRecord)
//
// None of them names the ibdiagnet version that wrote the file; the
// section names are those of ibutils2 ibdiag_types.h (NVIDIA copyright
// 2021-2025, i.e. ibdiagnet 2.x of MLNX_OFED/DOCA-OFED of those years).
// VL_ARBITRATION_TABLE, QOS_CONFIG_SL and QOS_CONFIG_VL exist by name in
// that header, but no public file, writer or reader showing their columns
// was found (one Python reader assumes NodeGUID,PortNum,Priority,VL,Weight
// without citing a file), so qoslint does not read them: see VLArbitration.

// Node types of NodeInfo.NodeType (IBA vol. 1 §14.2.5.3), which ibdiagnet
// prints as the number.
const (
	NodeCA     = 1
	NodeSwitch = 2
	NodeRouter = 3
)

// DiagNode is a NODES row.
type DiagNode struct {
	GUID     string // NodeGUID, 0x + 16 lower-case hex digits
	Desc     string // NodeDesc, unquoted
	Type     int
	NumPorts int
	Line     int
}

// DiagPort is a PORTS row: the PortInfo of one port as ibdiagnet read it.
type DiagPort struct {
	NodeGUID, PortGUID string
	Port, LID          int
	// OperVLs and VLCap are numbers of data VLs (1, 2, 4, 8 or 15),
	// decoded from PortInfo's OperationalVLs/VLCap codes 1-5 as
	// libibmad/dump.c mad_dump_opervls does; 0 when the code is 0 ("No
	// change") or the column is absent.
	OperVLs, VLCap int
	// VLHighLimit, VLArbHighCap and VLArbLowCap are -1 when absent.
	VLHighLimit, VLArbHighCap, VLArbLowCap int
	Line                                   int
}

// DiagLink is a LINKS row: one cable, both ends.
type DiagLink struct {
	GUID1 string
	Port1 int
	GUID2 string
	Port2 int
	Line  int
}

// vlCode maps PortInfo OperationalVLs / VLCap codes to data VLs
// (libibmad/dump.c mad_dump_opervls: 1 VL0, 2 VL0-1, 3 VL0-3, 4 VL0-7,
// 5 VL0-14; 0 is "No change").
var vlCode = map[int]int{0: 0, 1: 1, 2: 2, 3: 4, 4: 8, 5: 15}

// Nodes reads the NODES section, sorted by GUID.
func (d *DBCSV) Nodes() ([]DiagNode, error) {
	sec, err := d.Section("NODES")
	if err != nil {
		return nil, err
	}
	c, err := d.cols(sec, "NodeDesc", "NumPorts", "NodeType", "NodeGUID")
	if err != nil {
		return nil, err
	}
	seen := map[string]int{}
	var out []DiagNode
	for _, r := range sec.Rows {
		n := DiagNode{Desc: r.Fields[c[0]], Line: r.Line}
		if n.NumPorts, err = d.num(sec, r, c[1], 0, 255); err != nil {
			return nil, err
		}
		if n.Type, err = d.num(sec, r, c[2], 1, 3); err != nil {
			return nil, err
		}
		if n.GUID, err = d.guid(sec, r, c[3]); err != nil {
			return nil, err
		}
		if l, dup := seen[n.GUID]; dup {
			return nil, errf(d.File, r.Line, "section NODES: NodeGUID %s again (first at line %d)", n.GUID, l)
		}
		seen[n.GUID] = r.Line
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GUID < out[j].GUID })
	return out, nil
}

// Ports reads the PORTS section, sorted by node GUID and port.
func (d *DBCSV) Ports() ([]DiagPort, error) {
	sec, err := d.Section("PORTS")
	if err != nil {
		return nil, err
	}
	c, err := d.cols(sec, "NodeGuid", "PortGuid", "PortNum", "LID",
		"?OpVLs", "?VLCap", "?VLHighLimit", "?VLArbHighCap", "?VLArbLowCap")
	if err != nil {
		return nil, err
	}
	var out []DiagPort
	for _, r := range sec.Rows {
		p, err := d.port(sec, r, c)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].NodeGUID != out[j].NodeGUID {
			return out[i].NodeGUID < out[j].NodeGUID
		}
		return out[i].Port < out[j].Port
	})
	return out, nil
}

func (d *DBCSV) port(sec *CSVSection, r CSVRow, c []int) (DiagPort, error) {
	p := DiagPort{Line: r.Line}
	var err error
	if p.NodeGUID, err = d.guid(sec, r, c[0]); err != nil {
		return p, err
	}
	if p.PortGUID, err = d.guid(sec, r, c[1]); err != nil {
		return p, err
	}
	if p.Port, err = d.num(sec, r, c[2], 0, 255); err != nil {
		return p, err
	}
	if p.LID, err = d.num(sec, r, c[3], 0, 0xffff); err != nil {
		return p, err
	}
	for i, dst := range []*int{&p.OperVLs, &p.VLCap} {
		if c[4+i] < 0 {
			continue
		}
		v, err := d.num(sec, r, c[4+i], 0, 5)
		if err != nil {
			return p, err
		}
		*dst = vlCode[v]
	}
	for i, dst := range []*int{&p.VLHighLimit, &p.VLArbHighCap, &p.VLArbLowCap} {
		*dst = -1
		if c[6+i] >= 0 {
			if *dst, err = d.num(sec, r, c[6+i], 0, 255); err != nil {
				return p, err
			}
		}
	}
	return p, nil
}

// Links reads the LINKS section, sorted by the first end.
func (d *DBCSV) Links() ([]DiagLink, error) {
	sec, err := d.Section("LINKS")
	if err != nil {
		return nil, err
	}
	c, err := d.cols(sec, "NodeGuid1", "PortNum1", "NodeGuid2", "PortNum2")
	if err != nil {
		return nil, err
	}
	var out []DiagLink
	for _, r := range sec.Rows {
		l := DiagLink{Line: r.Line}
		if l.GUID1, err = d.guid(sec, r, c[0]); err != nil {
			return nil, err
		}
		if l.Port1, err = d.num(sec, r, c[1], 0, 255); err != nil {
			return nil, err
		}
		if l.GUID2, err = d.guid(sec, r, c[2]); err != nil {
			return nil, err
		}
		if l.Port2, err = d.num(sec, r, c[3], 0, 255); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].GUID1 != out[j].GUID1 {
			return out[i].GUID1 < out[j].GUID1
		}
		return out[i].Port1 < out[j].Port1
	})
	return out, nil
}

// VLArbitration would read VL_ARBITRATION_TABLE. Its column layout could
// not be verified, so rather than guess which columns hold the VL/weight
// pairs, the priority and the high limit, it reports the section's header
// as an error at its line: per-port `smpquery vlarb` output stays the
// source of VL arbitration tables. A file without the section is an error
// too (ibdiagnet writes it only when asked).
func (d *DBCSV) VLArbitration() (map[PortKey]*VLArb, error) {
	return nil, d.unverified("VL_ARBITRATION_TABLE")
}

func (d *DBCSV) unverified(name string) error {
	sec, err := d.Section(name)
	if err != nil {
		return err
	}
	return errf(d.File, sec.HeaderLine, "section %s layout not verified: columns %s; qoslint does not read it (no public ibdiagnet output or source shows what they hold)",
		name, strings.Join(sec.Header, ","))
}
