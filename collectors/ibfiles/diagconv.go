package ibfiles

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// The functions below turn ibdiagnet's fabric-wide files into the types
// the per-port smpquery parsers produce, so that the model can take either
// source for a port. They do not decide which source wins; that is model
// semantics.

// PortKey names a port by its node's name and port number.
type PortKey struct {
	Node string
	Port int
}

func (k PortKey) String() string { return fmt.Sprintf("%s/%d", k.Node, k.Port) }

// DiagnetQoS is what ibdiagnet says about each port's QoS.
type DiagnetQoS struct {
	// SL2VL holds one table per node and output port, its rows one per
	// input port: the shape `smpquery sl2vl` prints for one port.
	SL2VL map[PortKey]*SL2VL
	// PortInfo holds OperVLs and VLHighLimit per node and port.
	PortInfo map[PortKey]*PortInfo
	// Names maps node GUIDs to the names used in the keys.
	Names map[string]string
	// Notes name nodes keyed by GUID because their NodeDesc is empty or
	// shared (HCAs left at their default description share it).
	Notes []*source.Error
}

// NodeNames names each node by its NodeDesc when that is unique and not
// empty, else by its GUID, with a note naming the nodes concerned.
func NodeNames(file string, nodes []DiagNode) (map[string]string, []*source.Error) {
	byDesc := map[string][]DiagNode{}
	for _, n := range nodes {
		byDesc[n.Desc] = append(byDesc[n.Desc], n)
	}
	names := map[string]string{}
	var notes []*source.Error
	for _, desc := range sortedKeys(byDesc) {
		group := byDesc[desc]
		if len(group) == 1 && desc != "" {
			names[group[0].GUID] = desc
			continue
		}
		var guids []string
		for _, n := range group {
			names[n.GUID] = n.GUID
			guids = append(guids, n.GUID)
		}
		notes = append(notes, &source.Error{Pos: source.Pos{File: file, Line: group[0].Line},
			Msg: fmt.Sprintf("NodeDesc %q is shared by %d nodes or empty: named by GUID (%s)", desc, len(group), strings.Join(guids, ", "))})
	}
	return names, notes
}

func nameOf(names map[string]string, guid string) string {
	if n, ok := names[guid]; ok {
		return n
	}
	return guid
}

// SL2VLFromSLVL groups ibdiagnet2.slvl rows by node and output port.
func SL2VLFromSLVL(t *SLVL, names map[string]string) map[PortKey]*SL2VL {
	out := map[PortKey]*SL2VL{}
	for _, r := range t.Rows {
		k := PortKey{nameOf(names, r.GUID), r.Out}
		tab := out[k]
		if tab == nil {
			tab = &SL2VL{File: t.File, PortID: "node " + r.GUID + " port " + strconv.Itoa(r.Out)}
			out[k] = tab
		}
		tab.Rows = append(tab.Rows, SL2VLRow{In: r.In, Out: r.Out, VL: r.VL, Line: r.Line})
	}
	for _, tab := range out {
		sort.Slice(tab.Rows, func(i, j int) bool { return tab.Rows[i].In < tab.Rows[j].In })
	}
	return out
}

// PortInfoFromDB turns PORTS rows into PortInfo values.
func PortInfoFromDB(file string, ports []DiagPort, names map[string]string) map[PortKey]*PortInfo {
	out := map[PortKey]*PortInfo{}
	for _, p := range ports {
		pi := &PortInfo{File: file, PortID: "node " + p.NodeGUID + " lid " + strconv.Itoa(p.LID), Port: p.Port,
			OperVLs: p.OperVLs, VLHighLimit: p.VLHighLimit}
		if p.OperVLs > 0 {
			pi.OperVLsLine = p.Line
		}
		if p.VLHighLimit >= 0 {
			pi.VLHighLimitLine = p.Line
		}
		out[PortKey{nameOf(names, p.NodeGUID), p.Port}] = pi
	}
	return out
}

// FromIBDiagnet reads NODES and PORTS of db_csv and, when given, the
// SL2VL tables of ibdiagnet2.slvl. VL arbitration is not among them: see
// DBCSV.VLArbitration.
func FromIBDiagnet(db *DBCSV, slvl *SLVL) (*DiagnetQoS, error) {
	nodes, err := db.Nodes()
	if err != nil {
		return nil, err
	}
	ports, err := db.Ports()
	if err != nil {
		return nil, err
	}
	q := &DiagnetQoS{}
	q.Names, q.Notes = NodeNames(db.File, nodes)
	q.PortInfo = PortInfoFromDB(db.File, ports, q.Names)
	if slvl != nil {
		q.SL2VL = SL2VLFromSLVL(slvl, q.Names)
	}
	return q, nil
}
