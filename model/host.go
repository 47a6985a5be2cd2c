package model

import (
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

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
	// layer (collectors/hostfiles/hostmodel/host_nccl.go); not Known when no collected layer sets it and
	// /etc/nccl.conf was not collected, V -1 when no layer sets it.
	NCCLTC Value[int]
	// NCCLLayer is the layer that decided NCCLTC (LayerEnv, LayerHome,
	// LayerEtc or LayerDefault); "" when NCCLTC is not Known.
	NCCLLayer string
	// NCCLSL is NCCL_IB_SL as NCCL reads it, from the same layers as NCCLTC
	// (collectors/hostfiles/hostmodel/host_nccl.go): on RoCE the NIC tags RoCE with PCP = SL & 7 (see
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
	// collected (ACSBetween in pci.go reads the tree).
	PCI     []*PCIDevice
	PCIFile string
	// VM is true when the kernel runs under a hypervisor (/proc/cpuinfo's
	// "hypervisor" flag); not Known without cpuinfo.txt or a "flags" line.
	VM Value[bool]
	// NCCLGIDIndex is NCCL_IB_GID_INDEX and NCCLRoCEVersion
	// NCCL_IB_ROCE_VERSION_NUM, each taken from the strongest collected
	// layer as NCCL_IB_TC is (collectors/hostfiles/hostmodel/host_nccl.go); V -1 for the GID index means
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
	// capture shows marking RoCE (NVSHMEM, UCX; collectors/hostfiles/hostmodel/host_apps.go), in name
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
	DSCP DSCPMap
	PFC  PFCRow
	// PrioTC maps each priority to its traffic class, -1 where mlnx_qos
	// lists it in no tc block. Bytes, as TCBW's: the NIC struct is one of
	// a host's largest items, and 112 bytes less moved it down an
	// allocator size class.
	PrioTC [8]int8
	// TSA is each traffic class's transmission algorithm as mlnx_qos
	// prints it ("ets", "strict", "vendor", "unknown"), at its tc line;
	// TCBW the ETS bandwidth percent (0-100; 0 unless ets). mlnx_qos
	// prints only the TCs some priority maps to (Mellanox/mlnx-tools
	// python/mlnx_qos pretty_print, tc2up), so the others are not Known.
	TSA  TSAs
	TCBW [8]uint8
	// ECNNP and ECNRP are the per-priority notification point (the receiver
	// that sends CNPs) and reaction point (the sender that slows down)
	// switches of DCQCN.
	ECNNP, ECNRP PrioFlags
	CNPDSCP      Value[int]
	CNPPrio      Value[int]
	MTU          Value[int]
	// ToS is the traffic class RoCE QPs carry on this NIC.
	ToS ToS
	// GIDTypes are the RoCE types ("IB/RoCE v1", "RoCE v2") of the RDMA
	// port's GID table, each at its gid_attrs/types file; nil when not
	// collected. RoCEMode is RDMA-CM's default_roce_mode of the port,
	// not Known when not collected.
	GIDTypes GIDTypes
	RoCEMode Value[string]
	// RDMACMToS is RDMA-CM's default_roce_tos of the port; not Known when
	// not collected.
	RDMACMToS Value[int]
	// Counters are what the NIC actually did (`ethtool -S`): runtime
	// evidence, not configuration. Nil when not collected.
	Counters *NICCounters
	// Firmware is the NIC's persistent firmware configuration (`mlxconfig
	// -d <ibdev> q`); nil when not collected.
	Firmware *Firmware
}

// GIDTypes are the types of an RDMA port's GID table entries that the
// capture has, in index order, each index once (Add keeps them so); nil
// when not collected. An entry is 16 bytes, its origin, its index and
// its type as a byte, not the 40 of an int and a Value[string]: a map
// by index was 0.4 kB a NIC, a list of those 160 bytes.
type GIDTypes []gidType

type gidType struct {
	at    Origin
	index uint16
	typ   uint8 // 0: not Known; else a gidTypeNames id
}

// gidTypeNames are the types GIDTypes hold: the two the RDMA core prints,
// and whatever other a builder gives.
var gidTypeNames = newByteNames(RoCEv1, RoCEv2)

func (e gidType) value() Value[string] {
	v := Value[string]{Origin: e.at}
	if e.typ != 0 {
		v.V, v.Known = gidTypeNames.name(e.typ), true
	}
	return v
}

// NewGIDTypes is an empty list, collected (not nil), with room for n.
func NewGIDTypes(n int) GIDTypes { return make(GIDTypes, 0, n) }

// Add sets entry index's type to v, in its place in index order (index
// 0-65535, a GID table's range; any other is ignored).
func (g *GIDTypes) Add(index int, v Value[string]) {
	if index < 0 || index > 0xffff {
		return
	}
	e := gidType{at: v.Origin, index: uint16(index)}
	if v.Known {
		e.typ = gidTypeNames.id(v.V)
	}
	i, found := slices.BinarySearchFunc(*g, e.index, func(x gidType, t uint16) int { return int(x.index) - int(t) })
	if found {
		(*g)[i] = e
		return
	}
	*g = slices.Insert(*g, i, e)
}

// At is entry i's type; ok is false when the capture has none.
func (g GIDTypes) At(i int) (t Value[string], ok bool) {
	for _, e := range g {
		if int(e.index) == i {
			return e.value(), true
		}
	}
	return Value[string]{}, false
}

// All yields each entry's index and type, in index order.
func (g GIDTypes) All() iter.Seq2[int, Value[string]] {
	return func(yield func(int, Value[string]) bool) {
		for _, e := range g {
			if !yield(int(e.index), e.value()) {
				return
			}
		}
	}
}

// PFCRow is a NIC's PFC, priority by priority, as mlnx_qos prints it:
// one "enabled" row, so one origin for all eight. The zero PFCRow is not
// Known. Eight Values, each with the same origin, were 128 bytes of the
// NIC; the row is 16.
type PFCRow struct {
	on    uint8 // bit p: PFC on priority p
	known bool
	at    Origin
}

// NewPFCRow is the row on, printed at at.
func NewPFCRow(on [8]bool, at Origin) PFCRow {
	r := PFCRow{known: true, at: at}
	for p, v := range on {
		if v {
			r.on |= 1 << p
		}
	}
	return r
}

// At is priority p's PFC; not Known when the row is not, or p is not 0-7.
func (r PFCRow) At(p int) Value[bool] {
	if !r.known || p < 0 || p > 7 {
		return Value[bool]{}
	}
	return Value[bool]{V: r.on>>p&1 == 1, Known: true, Origin: r.at}
}

// All is the eight priorities' PFC, in priority order.
func (r PFCRow) All() [8]Value[bool] {
	var out [8]Value[bool]
	for p := range out {
		out[p] = r.At(p)
	}
	return out
}

// PrioFlags are a flag per priority, each at its own origin (sysfs has a
// file for each). Two bytes for the eight flags, not a Known and a V
// beside each origin: 100 bytes, not 128, which put the NIC in the 896
// size class (TestNICSize).
type PrioFlags struct {
	on, known uint8 // bit p: priority p's V, its Known
	at        [8]Origin
}

// At is priority p's flag; not Known when never set, or p is not 0-7.
func (f *PrioFlags) At(p int) Value[bool] {
	if p < 0 || p > 7 {
		return Value[bool]{}
	}
	return Value[bool]{V: f.on>>p&1 == 1, Known: f.known>>p&1 == 1, Origin: f.at[p]}
}

// Set makes v priority p's flag (p 0-7; any other is ignored).
func (f *PrioFlags) Set(p int, v Value[bool]) {
	if p < 0 || p > 7 {
		return
	}
	f.on &^= 1 << p
	f.known &^= 1 << p
	if v.V {
		f.on |= 1 << p
	}
	if v.Known {
		f.known |= 1 << p
	}
	f.at[p] = v.Origin
}

// TSAs are the eight traffic classes' transmission selection algorithms,
// each at its origin. The algorithm is a byte, not a string: eight
// Value[string] were 256 bytes of the NIC, and 152 bytes less moved it
// down an allocator size class (TestNICSize).
type TSAs struct {
	alg [8]uint8 // 0: not Known; else 1 + the name's index in tsaNames
	at  [8]Origin
}

// tsaNames are the algorithms TSAs hold: mlnx_qos's four, and whatever
// other name a builder gives.
var tsaNames = newByteNames("ets", "strict", "vendor", "unknown")

// At is traffic class tc's algorithm; not Known when never set, or tc is
// not 0-7.
func (t *TSAs) At(tc int) Value[string] {
	if tc < 0 || tc > 7 || t.alg[tc] == 0 {
		return Value[string]{Origin: t.originAt(tc)}
	}
	return Value[string]{V: tsaNames.name(t.alg[tc]), Known: true, Origin: t.at[tc]}
}

func (t *TSAs) originAt(tc int) Origin {
	if tc < 0 || tc > 7 {
		return Origin{}
	}
	return t.at[tc]
}

// Set makes v traffic class tc's algorithm (tc 0-7; any other is
// ignored). A v not Known keeps only its origin, as a Value not Known
// has no algorithm.
func (t *TSAs) Set(tc int, v Value[string]) {
	if tc < 0 || tc > 7 {
		return
	}
	t.at[tc] = v.Origin
	t.alg[tc] = 0
	if v.Known {
		t.alg[tc] = tsaNames.id(v.V)
	}
}

// byteNames are the few names a byte stands for in the model's compact
// values (a traffic class's algorithm, a GID's type): id 0 is none,
// id i the name at i-1. The list is copied on write, so that readers take
// no lock; a name not yet listed is added once.
type byteNames struct {
	mu   sync.Mutex
	list atomic.Pointer[[]string]
}

func newByteNames(names ...string) *byteNames {
	b := &byteNames{}
	b.list.Store(&names)
	return b
}

// id is name's id, added if new.
func (b *byteNames) id(name string) uint8 {
	if i := slices.Index(*b.list.Load(), name); i >= 0 {
		return uint8(i + 1)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	names := *b.list.Load()
	if i := slices.Index(names, name); i >= 0 {
		return uint8(i + 1)
	}
	if len(names) == 255 {
		panic("model: more than 255 names for a byte")
	}
	names = append(slices.Clip(names), strings.Clone(name))
	b.list.Store(&names)
	return uint8(len(names))
}

// name is id's name; id must not be 0.
func (b *byteNames) name(id uint8) string { return (*b.list.Load())[id-1] }

// The two RoCE types the RDMA core prints in gid_attrs/types/<index> and
// in RDMA-CM's configfs default_roce_mode (drivers/infiniband/core/cache.c
// ib_cache_gid_type_str: IB and RoCE v1 alike "IB/RoCE v1", RoCE v2, UDP
// encapsulation, "RoCE v2"; Documentation/ABI/testing/
// sysfs-class-infiniband and configfs-rdma_cm list the same two values).
// NIC.GIDTypes and NIC.RoCEMode hold one of them.
const (
	RoCEv1 = "IB/RoCE v1"
	RoCEv2 = "RoCE v2"
)

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
