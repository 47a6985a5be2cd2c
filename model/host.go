package model

import (
	"fmt"
	"strconv"
	"time"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/source"
)

// Host is what one GPU server effectively does.
type Host struct {
	Name string
	NICs []*NIC
	// NCCLFile is where nccl.conf came from; "" when not collected.
	NCCLFile string
	// NCCLTC is NCCL_IB_TC as NCCL reads it from its strongest collected
	// layer (host_nccl.go); not Known when no collected layer sets it and
	// /etc/nccl.conf was not collected, V -1 when no layer sets it.
	NCCLTC Value[int]
	// NCCLLayer is the layer that decided NCCLTC (LayerEnv, LayerHome,
	// LayerEtc or LayerDefault); "" when NCCLTC is not Known.
	NCCLLayer string
	// NCCLSL is NCCL_IB_SL as NCCL reads it, from the same layers as NCCLTC
	// (host_nccl.go): on RoCE the NIC tags RoCE with PCP = SL & 7 (see
	// marking.go). Not Known when no collected layer sets it and
	// /etc/nccl.conf was not collected; NCCLSLLayer is the layer that decided.
	// NCCLSLUnknown names the layers above NCCLSLLayer not collected.
	NCCLSL        Value[int]
	NCCLSLLayer   string
	NCCLSLUnknown []string
	// NCCLUnknown names the layers above NCCLLayer that were not collected
	// and may still override it ("the job environment").
	NCCLUnknown []string
	// NCCLNotes are lines about NCCL_IB_TC that NCCL reads differently
	// from how they look ("export NCCL_IB_TC=106" sets nothing).
	NCCLNotes    []string
	NotCollected []string
	// PCI is the host's `lspci -vvv`, PCIFile its file; nil when not
	// collected (pci.go reads the tree).
	PCI     []*hostfiles.PCIDevice
	PCIFile string
	// VM is true when the kernel runs under a hypervisor (/proc/cpuinfo's
	// "hypervisor" flag); not Known without cpuinfo.txt or a "flags" line.
	VM Value[bool]
	// NCCLGIDIndex is NCCL_IB_GID_INDEX and NCCLRoCEVersion
	// NCCL_IB_ROCE_VERSION_NUM, each taken from the strongest collected
	// layer as NCCL_IB_TC is (host_nccl.go); V -1 for the GID index means
	// NCCL chooses one itself, and the version defaults to 2. Always
	// Known: with no collected layer setting it, NCCL's default, the
	// uncollected layers in Unknown.
	NCCLGIDIndex, NCCLRoCEVersion NCCLParam
	// NCCLQPsPerConn is NCCL_IB_QPS_PER_CONNECTION, read the same way
	// (default 1): the QPs, and so UDP source ports, of each connection.
	NCCLQPsPerConn NCCLParam
	// NCCLFifoTC is NCCL_IB_FIFO_TC, read the same way: the traffic
	// class of NCCL's control messages (default -1, NCCL_IB_TC's).
	NCCLFifoTC NCCLParam
	// AppToS and AppSL are the ToS and SL of the other applications the
	// capture shows marking RoCE (NVSHMEM, UCX; host_apps.go), in name
	// order.
	AppToS, AppSL []AppSetting
	// Notes are remarks on the host's input that are not findings.
	Notes []*source.Error
}

// NIC is one RoCE netdev.
type NIC struct {
	Netdev, IBDev string
	Port          int
	// QosFile is the mlnx_qos output read; "" when not collected, and then
	// Trust, DSCP, PFC and PrioTC are not Known.
	QosFile string
	// QosUnreadable: the mlnx_qos output was collected but is malformed.
	QosUnreadable bool
	// DSCPMissing says why the DSCP map is not known although mlnx_qos was
	// collected; "" when it is.
	DSCPMissing string
	Trust       Value[string]
	// DSCP maps DSCP → NIC priority. An entry not Known is absent from a
	// non-empty dscp2prio table, or the whole table is (DSCPMissing).
	DSCP   [64]Value[int]
	PFC    [8]Value[bool]
	PrioTC [8]int
	// TSA is each traffic class's transmission algorithm as mlnx_qos
	// prints it ("ets", "strict", "vendor", "unknown"), at its tc line;
	// TCBW the ETS bandwidth percent (0 unless ets). mlnx_qos prints only
	// the TCs some priority maps to (Mellanox/mlnx-tools python/mlnx_qos
	// pretty_print, tc2up), so the others are not Known.
	TSA  [8]Value[string]
	TCBW [8]int
	// ECNNP and ECNRP are the per-priority notification point (the receiver
	// that sends CNPs) and reaction point (the sender that slows down)
	// switches of DCQCN.
	ECNNP, ECNRP [8]Value[bool]
	CNPDSCP      Value[int]
	CNPPrio      Value[int]
	MTU          Value[int]
	// ToS is the traffic class RoCE QPs carry on this NIC.
	ToS ToS
	// GIDTypes are the RoCE types ("IB/RoCE v1", "RoCE v2") of the RDMA
	// port's GID table by index, each at its gid_attrs/types file; nil when
	// not collected. RoCEMode is RDMA-CM's default_roce_mode of the port,
	// not Known when not collected.
	GIDTypes map[int]Value[string]
	RoCEMode Value[string]
	// RDMACMToS is RDMA-CM's default_roce_tos of the port; not Known when
	// not collected.
	RDMACMToS Value[int]
	// Counters are what the NIC actually did (`ethtool -S`): runtime
	// evidence, not configuration. Nil when not collected.
	Counters *NICCounters
	// Firmware is the NIC's persistent firmware configuration (`mlxconfig
	// -d <ibdev> q`); nil when not collected.
	Firmware *hostfiles.MlxConfig
}

// PrioCounters are the counters of one priority: the NIC's 802.1p
// priority, or a switch's switch-priority. A counter not Known was not
// printed (mlx5 prints pause counters only for priorities with PFC on);
// every Known one points at the line that printed it.
type PrioCounters struct {
	RxBytes, RxPackets, TxBytes, TxPackets Value[uint64]
	// RxPause/TxPause are PFC frames received/sent for the priority; the
	// durations are in microseconds.
	RxPause, TxPause                 Value[uint64]
	RxPauseDuration, TxPauseDuration Value[uint64]
}

// NICCounters are one NIC's counters since the driver loaded or, when
// Delta is set, their growth during the Interval between two samples.
type NICCounters struct {
	File     string
	Delta    bool
	Interval time.Duration
	Prio     [8]PrioCounters
	// CNPSent, CNPHandled and ECNMarkedRoCE are DCQCN's np_cnp_sent,
	// rp_cnp_handled and np_ecn_marked_roce_packets; mlx5 keeps them in
	// the RDMA hw_counters, so they are Known only when a capture has them.
	// CNPIgnored is rp_cnp_ignored, CNPs the reaction point did not act on.
	CNPSent, CNPHandled, ECNMarkedRoCE, CNPIgnored Value[uint64]
	// RDMA is the NIC's RDMA traffic (ethtool -S vPort RDMA counters);
	// Transport the RDMA port's transport hw_counters. See counters_host.go.
	RDMA      RDMATraffic
	Transport TransportCounters
	// RxCRCErrors is rx_crc_errors_phy (ethtool -S): frames lost to link
	// corruption, which PFC cannot prevent.
	RxCRCErrors Value[uint64]
	// HWFile is the hw_counters directory read; "" when not collected.
	HWFile string
}

// ToS is the effective RoCE ToS and why.
type ToS struct {
	Value[int]
	// Via is "traffic_class" (the NIC forces it), "NCCL_IB_TC", or
	// "default" (NCCL's default 0).
	Via string
	// Layer is where the value comes from: LayerForced, or the NCCL layer
	// that set NCCL_IB_TC (LayerEnv, LayerHome, LayerEtc, LayerDefault);
	// "" when unknown.
	Layer string
	// Forced is the Force-DSCP traffic_class setting (V -1 when unset);
	// NCCL is NCCL_IB_TC (V -1 when unset). Either may be not Known.
	Forced, NCCL Value[int]
}

// TrafficClassPath is the Force-DSCP sysfs file of an IB device port.
func TrafficClassPath(ibdev string, port int) string {
	return layout.TrafficClassPath(layout.SysRoot, ibdev, strconv.Itoa(port))
}

// ECNPath is the per-priority DCQCN enable file: point is layout.PointNP
// or layout.PointRP.
func ECNPath(netdev, point string, prio int) string {
	return layout.ECNEnablePath(layout.SysRoot, netdev, point, prio)
}

// CNPPath is /sys/class/net/<netdev>/ecn/roce_np/<attr> (layout.CNPDSCP,
// layout.CNP802pPrio).
func CNPPath(netdev, attr string) string { return layout.CNPPath(layout.SysRoot, netdev, attr) }

// NCCLConfPath is where NCCL reads its configuration file.
const NCCLConfPath = layout.NCCLConfPath

// BuildHost builds the effective model of one host.
func BuildHost(in *collectors.HostCapture) *Host {
	h := &Host{Name: in.Name, NotCollected: in.Missing}
	buildNCCL(h, in)
	h.PCI, h.PCIFile = in.PCI, in.PCIFile
	if c := in.CPUInfo; c != nil && c.HasFlags {
		h.VM = Explicit(c.Hypervisor, source.Pos{File: c.File, Line: c.Line})
	}
	buildNCCLSL(h, in)
	buildNCCLParams(h, in)
	buildApps(h, in)
	var noCMToS []string
	links := map[string]hostfiles.Link{}
	for _, l := range in.Links {
		links[l.Name] = l
	}
	for _, ni := range in.NICs {
		n := &NIC{Netdev: ni.Netdev, IBDev: ni.IBDev, Port: ni.Port, QosUnreadable: ni.QosUnreadable, Firmware: ni.Firmware}
		buildQos(n, ni.Qos)
		buildSysfs(n, ni.Sysfs)
		if note := buildRoCETypes(n, ni); note != nil {
			h.Notes = append(h.Notes, note)
		}
		if buildRDMACM(n, ni) {
			noCMToS = append(noCMToS, n.Netdev)
		}
		if l, ok := links[ni.Netdev]; ok {
			n.MTU = Explicit(l.MTU, source.Pos{File: in.LinksFile, Line: l.Line})
		}
		n.ToS = effectiveToS(n, h.NCCLTC)
		if n.ToS.Via != "traffic_class" {
			n.ToS.Layer = h.NCCLLayer
		}
		if n.DSCPMissing != "" {
			h.Notes = append(h.Notes, &source.Error{Pos: source.Pos{File: n.QosFile, Line: n.Trust.Origin.Pos.Line}, Msg: n.DSCPMissing})
		}
		n.Counters = buildCounters(ni.Ethtool, ni.HWCounters)
		deltaNIC(n.Counters, buildCounters(ni.EthtoolBefore, ni.HWCountersBefore), in.CountersInterval)
		h.NICs = append(h.NICs, n)
	}
	if note := gidDefaultNote(h, in); note != nil {
		h.Notes = append(h.Notes, note)
	}
	for _, note := range []*source.Error{rdmaCMNote(h, noCMToS), appsNote(h)} {
		if note != nil {
			h.Notes = append(h.Notes, note)
		}
	}
	return h
}

func buildQos(n *NIC, q *hostfiles.MlnxQos) {
	for p := range n.PrioTC {
		n.PrioTC[p] = -1
	}
	if q == nil {
		return
	}
	n.QosFile = q.File
	n.PrioTC = q.PrioTC
	pos := func(line int) source.Pos { return source.Pos{File: q.File, Line: line} }
	switch {
	case q.Trust != "":
		n.Trust = Explicit(q.Trust, pos(q.TrustLine))
	case len(q.DSCP2Prio) > 0:
		// Where the trust state cannot be read, mlnx_qos itself infers dscp
		// from the presence of DSCP APP entries (host.md §1.2).
		n.Trust = Value[string]{V: "dscp", Origin: Origin{Pos: pos(q.DSCP2PrioLine), Default: "inferred from dscp2prio entries"}, Known: true}
	default:
		n.Trust = Value[string]{V: "pcp", Origin: Origin{Pos: pos(1), Default: "no trust line and no dscp2prio entries: pcp"}, Known: true}
	}
	if len(q.DSCP2Prio) == 0 && q.Trust == "dscp" {
		dscpNotCollected(n, q)
	} else if len(q.DSCP2Prio) == 0 {
		for d := range n.DSCP {
			n.DSCP[d] = Value[int]{V: DefaultPriority(d), Origin: Origin{Pos: pos(q.TrustLine), Default: "NIC default dscp2prio (DSCP>>3)"}, Known: true}
		}
	} else {
		for d := range n.DSCP {
			if p, ok := q.DSCP2Prio[d]; ok {
				n.DSCP[d] = Explicit(p, pos(q.DSCP2PrioLine))
			} else {
				// Absent from a printed table: unknown, but the table is
				// the evidence.
				n.DSCP[d] = Value[int]{Origin: Origin{Pos: pos(q.DSCP2PrioLine)}}
			}
		}
	}
	for _, tc := range q.TCs {
		if tc.TC >= 0 && tc.TC < 8 {
			n.TSA[tc.TC] = Explicit(tc.TSA, pos(tc.Line))
			n.TCBW[tc.TC] = tc.BW
		}
	}
	if q.HasPFC {
		for p := range n.PFC {
			n.PFC[p] = Explicit(q.PFC[p], pos(q.PFCLine))
		}
	}
}

func buildSysfs(n *NIC, s *hostfiles.Sysfs) {
	if s == nil {
		return
	}
	flag := func(si *hostfiles.SysfsInt) Value[bool] {
		if si == nil {
			return Value[bool]{}
		}
		return Explicit(si.Value == 1, source.Pos{File: si.File, Line: 1})
	}
	num := func(si *hostfiles.SysfsInt) Value[int] {
		if si == nil {
			return Value[int]{}
		}
		return Explicit(si.Value, source.Pos{File: si.File, Line: 1})
	}
	for p := 0; p < 8; p++ {
		n.ECNNP[p] = flag(s.ECNNP[p])
		n.ECNRP[p] = flag(s.ECNRP[p])
	}
	n.CNPDSCP = num(s.CNPDSCP)
	n.CNPPrio = num(s.CNP802pPrio)
	if tc := s.TrafficClass; tc != nil {
		n.ToS.Forced = Explicit(tc.Global, source.Pos{File: tc.File, Line: 1})
	}
}

// effectiveToS applies the precedence of host.md: a forced global
// traffic_class overrides the QP's GRH traffic class
// (tclass_get_tclass_locked, mlx5 main_ext.c, §2.2); otherwise NCCL sets
// ah_attr.grh.traffic_class from NCCL_IB_TC, default 0 (NCCL connect.cc,
// §4.1).
func effectiveToS(n *NIC, nccl Value[int]) ToS {
	t := ToS{Forced: n.ToS.Forced, NCCL: nccl}
	switch {
	case t.Forced.Known && t.Forced.V >= 0:
		t.Value, t.Via, t.Layer = t.Forced, "traffic_class", LayerForced
	case nccl.Known && nccl.V >= 0:
		t.Value, t.Via = nccl, "NCCL_IB_TC"
	case nccl.Known:
		t.Value = Value[int]{V: 0, Origin: Origin{Pos: nccl.Origin.Pos, Default: "NCCL_IB_TC unset: NCCL's default traffic class 0"}, Known: true}
		t.Via = "default"
	default:
		// nccl.conf not collected: NCCL may still read NCCL_IB_TC from the
		// job's environment, so the ToS is unknown.
		t.Via = "unknown"
	}
	return t
}

// buildCounters models a NIC's ethtool -S and RDMA hw_counters; nil when
// neither was collected.
func buildCounters(e *hostfiles.EthtoolStats, hw *hostfiles.HWCounters) *NICCounters {
	if e == nil && hw == nil {
		return nil
	}
	if e == nil {
		e = &hostfiles.EthtoolStats{} // every ethtool counter absent
	}
	v := func(c hostfiles.Counter) Value[uint64] {
		if !c.Present() {
			return Value[uint64]{}
		}
		return Explicit(c.Value, source.Pos{File: e.File, Line: c.Line})
	}
	nc := &NICCounters{File: e.File, CNPSent: v(e.CNPSent()), CNPHandled: v(e.CNPHandled()), ECNMarkedRoCE: v(e.ECNMarkedRoCE())}
	nc.RDMA = rdmaTraffic(e, v)
	nc.RxCRCErrors = v(e.RxCRCErrors())
	addHWCounters(nc, hw)
	for p := range nc.Prio {
		ps := e.Prio(p)
		nc.Prio[p] = PrioCounters{
			RxBytes: v(ps.RxBytes), RxPackets: v(ps.RxPackets), TxBytes: v(ps.TxBytes), TxPackets: v(ps.TxPackets),
			RxPause: v(ps.RxPause), TxPause: v(ps.TxPause),
			RxPauseDuration: v(ps.RxPauseDuration), TxPauseDuration: v(ps.TxPauseDuration),
		}
	}
	return nc
}

// buildRoCETypes models the RoCE types of the NIC's GID table and
// RDMA-CM's default mode, each at its file.
// The note says when the GID types were collected but RDMA-CM's mode was
// not: its configfs group exists only after mkdir
// /sys/kernel/config/rdma_cm/<ibdev> (Linux
// Documentation/ABI/testing/configfs-rdma_cm), so its absence is no error.
func buildRoCETypes(n *NIC, ni *collectors.NICCapture) *source.Error {
	if g := ni.GIDTypes; g != nil {
		n.GIDTypes = map[int]Value[string]{}
		for i, t := range g.ByIndex {
			n.GIDTypes[i] = Explicit(t.Type, source.Pos{File: t.File, Line: 1})
		}
	}
	if m := ni.RoCEMode; m != nil {
		n.RoCEMode = Explicit(m.Type, source.Pos{File: m.File, Line: 1})
		return nil
	}
	if ni.GIDTypes == nil {
		return nil
	}
	return &source.Error{Pos: source.Pos{File: ni.GIDTypes.Dir}, Msg: fmt.Sprintf(
		"RDMA-CM's default_roce_mode of %s port %d not collected: /sys/kernel/config/rdma_cm/%s exists only after mkdir, so RDMA-CM's RoCE version (not NCCL's) is not checked",
		n.IBDev, n.Port, n.IBDev)}
}
