package model

import (
	"fmt"
	"sort"
	"strings"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/ibfiles"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
)

// InfiniBand QoS semantics. The application picks a Service Level
// (NCCL_IB_SL), every port's SL2VL table maps it to a virtual lane, and VL
// arbitration gives that lane its share (linux-rdma/opensm
// doc/QoS_management_in_OpenSM.txt §7; IBA 7.6.6, 7.6.9).

// VLDrop is the VL an SL2VL entry uses to drop the SL's packets.
const VLDrop = 15

// IBFabric is the InfiniBand side of a fabric.
type IBFabric struct {
	// Hosts are the hosts with InfiniBand data, in inventory order.
	Hosts []*IBHost
	// SM is the subnet manager's intended configuration (opensm.conf);
	// nil when no host's opensm.conf was collected.
	SM *SMIntent
	// Switches are the switches read by LID from a host
	// (ibswitches.txt), sorted by LID; a switch listed by two hosts is
	// kept once, from the first.
	Switches []*IBSwitch
}

// IBHost is one host's InfiniBand ports and the SL its jobs use.
type IBHost struct {
	Name  string
	Ports []*IBPort
	// SL is NCCL_IB_SL from the strongest NCCL layer (as NCCL_IB_TC,
	// model/host_nccl.go); SLLayer names the layer. Not Known when the
	// layers that could set it were not collected.
	SL      Value[int]
	SLLayer string
	// Apps are the SLs of the host's other applications (model/ib_apps.go).
	Apps []IBAppSL
}

// IBPort is what one HCA port holds. A table not collected is nil.
type IBPort struct {
	CA   string
	Port int
	LID  int
	Pos  source.Pos // its ibstat line
	// SL2VL[sl] is the VL of SL sl; SL2VLPos its row.
	SL2VL    *[16]int
	SL2VLPos source.Pos
	// VLArb is the port's arbitration tables; nil when not collected.
	VLArb    *ibfiles.VLArb
	VLArbPos source.Pos
	// OperVLs is the number of data VLs the port runs (0: not known);
	// HighLimit its VLHighLimit (-1: not known).
	OperVLs      int
	OperVLsPos   source.Pos
	HighLimit    int
	HighLimitPos source.Pos
}

// Name is "mlx5_0/1".
func (p *IBPort) Name() string { return fmt.Sprintf("%s/%d", p.CA, p.Port) }

// SMIntent is what OpenSM programs, per port class, when qos is TRUE.
type SMIntent struct {
	Device string
	File   string
	// QoS is the qos option; when false OpenSM programs no SL2VL or VL
	// arbitration table at all (opensm/osm_qos.c osm_qos_setup returns
	// first), so the ports keep what they hold.
	QoS    Value[bool]
	Config map[string]*SMClassConfig
	keys   map[int]string // line → option name
	// RoutingEngine is opensm.conf's routing_engine, the engines in the
	// order OpenSM tries them; Known false when the file does not set it
	// (Min Hop in linux-rdma/opensm, but NVIDIA's OpenSM defaults to
	// ar_updn: docs.nvidia.com/networking/display/
	// ibclusterbringupprocedure/adaptive+routing).
	RoutingEngine Value[[]string]
	// Policy is the QoS policy file.
	Policy SMPolicy
}

// SMClassConfig is one class's effective QoS parameters, after OpenSM's
// fall-back: the class's qos_<class>_ line, else the qos_ line, else the
// compiled-in default (opensm/osm_qos.c qos_build_config,
// include/opensm/osm_base.h OSM_DEFAULT_QOS_*).
type SMClassConfig struct {
	MaxVLs    Value[int]
	HighLimit Value[int]
	// VLArbHigh and VLArbLow hold 64 entries: OpenSM reads two blocks of
	// 32 and an entry past the end of the option's list is VL 0 weight 0.
	VLArbHigh, VLArbLow Value[[]ibfiles.VLArbEntry]
	SL2VL               Value[[16]int]
	// Key names the opensm.conf option prefix that applies ("qos_ca").
	Key string
}

// The compiled-in defaults, include/opensm/osm_base.h.
const (
	smDefaultMaxVLs    = 15
	smDefaultHighLimit = 0
	smDefaultVLArbHigh = "0:4,1:0,2:0,3:0,4:0,5:0,6:0,7:0,8:0,9:0,10:0,11:0,12:0,13:0,14:0"
	smDefaultVLArbLow  = "0:0,1:4,2:4,3:4,4:4,5:4,6:4,7:4,8:4,9:4,10:4,11:4,12:4,13:4,14:4"
	smDefaultSL2VL     = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7"
	smDefaultWhy       = "OpenSM default (include/opensm/osm_base.h)"
)

// VLMask is the mask OpenSM applies to every VL it programs on a port
// running n data VLs (opensm/osm_qos.c sl2vl_update_table, vlarb_update:
// (1 << (OperVLs - 1)) - 1 over PortInfo's encoded OperVLs); VL 15 in
// SL2VL is kept. ok is false when n is not an OperVLs value.
func VLMask(n int) (mask int, ok bool) {
	m, ok := map[int]int{1: 0, 2: 1, 4: 3, 8: 7, 15: 15}[n]
	return m, ok
}

func BuildIB(f *Fabric, inv *inventory.Inventory, c *collectors.Capture) {
	if !inv.HasIB() {
		return
	}
	f.IB = &IBFabric{}
	for _, hc := range c.Hosts {
		if hc.IB == nil {
			continue
		}
		h := &IBHost{Name: hc.Name}
		h.SL, h.SLLayer = ncclSL(hc)
		var fromDiag []string
		for _, pc := range hc.IB.Ports {
			p := buildIBPort(hc, pc)
			if what := fillFromDiagnet(p, pc, c.IBDiagnet); what != "" {
				fromDiag = append(fromDiag, p.Name()+" ("+what+")")
			}
			h.Ports = append(h.Ports, p)
		}
		if len(fromDiag) > 0 {
			f.Notes = append(f.Notes, &source.Error{Device: hc.Name, Pos: source.Pos{File: layout.IBDiagnetDBFile},
				Msg: fmt.Sprintf("taken from ibdiagnet, as the host has no smpquery capture of them: %s", strings.Join(fromDiag, ", "))})
		}
		f.IB.Hosts = append(f.IB.Hosts, h)
		f.IB.addSwitches(buildIBSwitches(hc.Name, layout.DeviceFile(hc.Name, layout.IBSwitchesFile), hc.IB.Switches))
		if hc.IB.OpenSM != nil {
			if f.IB.SM != nil {
				f.Notes = append(f.Notes, &source.Error{Device: hc.Name, Pos: source.Pos{File: hc.IB.OpenSM.File},
					Msg: fmt.Sprintf("a second opensm.conf: %s's is the one judged (one master SM per subnet)", f.IB.SM.Device)})
				continue
			}
			f.IB.SM = buildSMIntent(hc.Name, hc.IB.OpenSM)
			f.IB.SM.setPolicy(f, hc.IB.OpenSM, hc.IB.QoSPolicy)
		}
	}
}

func (ib *IBFabric) addSwitches(sws []*IBSwitch) {
	for _, s := range sws {
		dup := false
		for _, o := range ib.Switches {
			dup = dup || o.GUID == s.GUID
		}
		if !dup {
			ib.Switches = append(ib.Switches, s)
		}
	}
	sort.SliceStable(ib.Switches, func(i, j int) bool { return ib.Switches[i].LID < ib.Switches[j].LID })
}

func buildIBPort(hc *collectors.HostCapture, pc *collectors.IBPortCapture) *IBPort {
	p := &IBPort{CA: pc.CA, Port: pc.Port, LID: pc.LID, HighLimit: -1,
		Pos: source.Pos{File: layout.DeviceFile(hc.Name, layout.IBStatFile), Line: pc.Line}}
	if s := pc.SL2VL; s != nil && len(s.Rows) > 0 {
		// An HCA prints one row (in 0, out 0).
		vl := s.Rows[0].VL
		p.SL2VL, p.SL2VLPos = &vl, source.Pos{File: s.File, Line: s.Rows[0].Line}
	}
	if v := pc.VLArb; v != nil && !v.NoTables {
		p.VLArb, p.VLArbPos = v, source.Pos{File: v.File, Line: v.Line}
	}
	if pi := pc.PortInfo; pi != nil {
		if pi.OperVLs > 0 {
			p.OperVLs, p.OperVLsPos = pi.OperVLs, source.Pos{File: pi.File, Line: pi.OperVLsLine}
		}
		if pi.VLHighLimit >= 0 {
			p.HighLimit, p.HighLimitPos = pi.VLHighLimit, source.Pos{File: pi.File, Line: pi.VLHighLimitLine}
		}
	}
	return p
}

// fillFromDiagnet gives a port the SL2VL table and OperVLs/VLHighLimit
// its host's smpquery capture lacks, from ibdiagnet's files, finding the
// HCA by the node GUID ibstat printed. smpquery, run on the host itself,
// wins where both exist: ibdiagnet may be an older sweep. VL arbitration
// is never taken from ibdiagnet (collectors/ibfiles/ibdiagnet.go: its
// columns are not verified). what names the tables taken, "" for none.
func fillFromDiagnet(p *IBPort, pc *collectors.IBPortCapture, q *ibfiles.DiagnetQoS) (what string) {
	if q == nil || pc.NodeGUID == "" {
		return ""
	}
	name, ok := q.Names[pc.NodeGUID]
	if !ok {
		return ""
	}
	k := ibfiles.PortKey{Node: name, Port: pc.Port}
	var took []string
	if s := q.SL2VL[k]; p.SL2VL == nil && s != nil && len(s.Rows) > 0 {
		vl := s.Rows[0].VL
		p.SL2VL, p.SL2VLPos = &vl, source.Pos{File: s.File, Line: s.Rows[0].Line}
		took = append(took, "SL2VL")
	}
	if pi := q.PortInfo[k]; pi != nil && pc.PortInfo == nil {
		if pi.OperVLs > 0 {
			p.OperVLs, p.OperVLsPos = pi.OperVLs, source.Pos{File: pi.File, Line: pi.OperVLsLine}
			took = append(took, "OperVLs")
		}
		if pi.VLHighLimit >= 0 {
			p.HighLimit, p.HighLimitPos = pi.VLHighLimit, source.Pos{File: pi.File, Line: pi.VLHighLimitLine}
			took = append(took, "VLHighLimit")
		}
	}
	return strings.Join(took, ", ")
}

// ncclSL is NCCL_IB_SL from the strongest collected NCCL layer, read the
// way NCCL reads NCCL_IB_TC (host_nccl.go). Without any layer setting it,
// NCCL uses SL 0 (NVIDIA/nccl src/transport/net_ib.cc NCCL_PARAM(IbSl,
// "IB_SL", 0); newer releases default to -1, "not set", and then also
// send on SL 0).
func ncclSL(hc *collectors.HostCapture) (Value[int], string) {
	// A layer not collected cannot decide; the job environment never is
	// in a live audit, which ib-sl-consistency's message says.
	layers, _ := ncclLayers(hc)
	for _, l := range layers {
		if !l.collected {
			continue
		}
		if v, ok := l.vars["NCCL_IB_SL"]; ok {
			pos := source.Pos{File: l.file, Line: v.Line}
			sl, ok := atoiSL(v.Value)
			if !ok {
				return Value[int]{V: 0, Origin: Origin{Pos: pos, Default: "NCCL_IB_SL " + fmt.Sprintf("%q", v.Value) + " is not 0-15: NCCL default"}, Known: true}, l.name
			}
			return Explicit(sl, pos), l.name
		}
	}
	if hc.NCCL == nil {
		return Value[int]{}, ""
	}
	return Defaulted(0, "NCCL default (NCCL_IB_SL unset)"), LayerDefault
}

func atoiSL(s string) (int, bool) {
	n := 0
	if s == "" || len(s) > 2 {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n <= 15
}
