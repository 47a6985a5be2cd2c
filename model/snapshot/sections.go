package snapshot

import (
	"slices"
	"sort"

	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// Optional sections, added within v1. A snapshot lists in "sections" the
// ones it carries; one written before a section existed lacks it, and its
// values there are unknown (the drift does not compare them), not unset.
const (
	// SectionFlowControl: each port group's PFC cable length, each
	// switch's bonds, PFC watchdog and link pause.
	SectionFlowControl = "flow_control"
	// SectionForwarding: each switch's ECMP hash seed.
	SectionForwarding = "forwarding"
	// SectionPCPMap: each port group's 802.1p (PCP) → switch priority map.
	SectionPCPMap = "pcp_map"
	// SectionTrafficPools: each switch's qos traffic-pool settings.
	SectionTrafficPools = "traffic_pools"
	// SectionRoCEVersion: each host's NCCL GID parameters, each RDMA NIC's
	// GID types as NCCL meets them and RDMA-CM's default RoCE mode.
	SectionRoCEVersion = "roce_version"
	// SectionFirmware: each NIC's judged mlxconfig parameters.
	SectionFirmware = "firmware"
	// SectionApplications: each host's NCCL_IB_QPS_PER_CONNECTION, the
	// ToS and SL its other RoCE applications (UCX, NVSHMEM) give their QPs,
	// and each RDMA port's RDMA-CM default_roce_tos.
	SectionApplications = "applications"
)

// AllSections are the sections Take records.
var AllSections = []string{SectionFlowControl, SectionForwarding, SectionPCPMap, SectionTrafficPools, SectionRoCEVersion, SectionFirmware, SectionApplications}

// Firmware is the part of a NIC's persistent firmware configuration
// (`mlxconfig -d <ibdev> q`) that host-firmware judges.
type Firmware struct {
	// Device is the output's "Device:" header ("" when absent): the
	// adapter the values belong to.
	Device string `json:"device"`
	// Params are the parameters of model.FirmwareParamNames the output
	// printed, by name; one it did not print is absent.
	Params []FirmwareParam `json:"params"`
}

// FirmwareParam is one mlxconfig parameter: its Next Boot value as
// printed, which host-firmware judges, and the current one ("" in the
// one-column layout).
type FirmwareParam struct {
	Name    string `json:"name"`
	Next    string `json:"next_boot"`
	Current string `json:"current"`
	Origin  string `json:"origin"`
}

func takeFirmware(n *model.NIC) *Firmware {
	fw := n.Firmware
	if fw == nil {
		return nil
	}
	out := &Firmware{Device: fw.Device, Params: []FirmwareParam{}}
	for _, name := range model.FirmwareParamNames(n.Port) {
		if p, ok := fw.Param(name); ok {
			out.Params = append(out.Params, FirmwareParam{Name: name, Next: p.Next, Current: p.Current, Origin: source.Pos{File: fw.File, Line: p.Line}.String()})
		}
	}
	return out
}

// RoCEVersion is what decides the RoCE version an RDMA NIC's port sends.
type RoCEVersion struct {
	// GIDTypesCollected: the port's gid_attrs/types were read; without
	// them nothing below about GIDs is known.
	GIDTypesCollected bool `json:"gid_types_collected"`
	// NCCLGIDType is the type of the GID entry NCCL_IB_GID_INDEX names; no
	// value when NCCL chooses one itself or the entry has no type.
	NCCLGIDType Fact[string] `json:"nccl_gid_type"`
	// RoCEv2GIDs are the entries (of those read) of type "RoCE v2", the
	// ones NCCL's own choice can find.
	RoCEv2GIDs []int `json:"roce_v2_gids"`
	// RDMACMMode is RDMA-CM's default_roce_mode of the port; no value when
	// its configfs folder was not there.
	RDMACMMode Fact[string] `json:"rdma_cm_default_roce_mode"`
}

// takeRoCEVersion records the host's NCCL GID parameters and each RDMA
// NIC's RoCE version inputs.
func takeRoCEVersion(h *model.Host, out *Host) {
	idx, ver := fact(h.NCCLGIDIndex.Value), fact(h.NCCLRoCEVersion.Value)
	out.NCCLGIDIndex, out.NCCLRoCEVersion = &idx, &ver
	for _, n := range h.NICs {
		if n.IBDev == "" {
			continue
		}
		rv := &RoCEVersion{GIDTypesCollected: n.GIDTypes != nil, RoCEv2GIDs: []int{}, RDMACMMode: fact(n.RoCEMode)}
		if t, ok := n.GIDTypes.At(h.NCCLGIDIndex.V); ok {
			rv.NCCLGIDType = fact(t)
		}
		for i, t := range n.GIDTypes.All() {
			if t.V == model.RoCEv2 {
				rv.RoCEv2GIDs = append(rv.RoCEv2GIDs, i)
			}
		}
		sort.Ints(rv.RoCEv2GIDs)
		for i := range out.NICs {
			if out.NICs[i].Netdev == n.Netdev {
				out.NICs[i].RoCEVersion = rv
			}
		}
	}
}

// Applications is what host-nccl-qps, host-nccl-fifo-tc and host-app-tos
// read of a host.
type Applications struct {
	// NCCLQPsPerConn is NCCL_IB_QPS_PER_CONNECTION as NCCL reads it (1 by
	// default); NCCLQPsLayer the layer that decided it.
	NCCLQPsPerConn Fact[int] `json:"nccl_ib_qps_per_connection"`
	NCCLQPsLayer   string    `json:"nccl_ib_qps_per_connection_layer"`
	// NCCLFifoTC is NCCL_IB_FIFO_TC as NCCL reads it (-1, the data's
	// class, by default) and NCCLFifoTCLayer the layer that decided it,
	// what host-nccl-fifo-tc reads; a snapshot taken before they were
	// added has neither, and the value is then not known.
	NCCLFifoTC      Fact[int] `json:"nccl_ib_fifo_tc"`
	NCCLFifoTCLayer string    `json:"nccl_ib_fifo_tc_layer,omitempty"`
	// ToS and SL are the settings of the applications besides NCCL the
	// capture shows marking RoCE, in the model's order.
	ToS []AppSetting `json:"tos"`
	SL  []AppSetting `json:"sl"`
}

// AppSetting is one application's ToS or SL and the layer that decided it.
type AppSetting struct {
	App   string    `json:"app"`
	Var   string    `json:"var"`
	Value Fact[int] `json:"value"`
	// Layer is "environment", UCX's /etc/ucx/ucx.conf or "NCCL default"
	// (the application's default); Knob how a finding names the setting.
	Layer string `json:"layer"`
	Knob  string `json:"knob"`
}

// takeApplications records the host's application settings and each
// NIC's RDMA-CM default_roce_tos.
func takeApplications(h *model.Host, out *Host) {
	q := h.NCCLQPsPerConn
	a := &Applications{NCCLQPsPerConn: fact(q.Value), NCCLQPsLayer: q.Layer, ToS: []AppSetting{}, SL: []AppSetting{},
		NCCLFifoTC: fact(h.NCCLFifoTC.Value), NCCLFifoTCLayer: h.NCCLFifoTC.Layer}
	for _, s := range h.AppToS {
		a.ToS = append(a.ToS, takeAppSetting(s))
	}
	for _, s := range h.AppSL {
		a.SL = append(a.SL, takeAppSetting(s))
	}
	out.Applications = a
	for _, n := range h.NICs {
		t := fact(n.RDMACMToS)
		for i := range out.NICs {
			if out.NICs[i].Netdev == n.Netdev {
				out.NICs[i].RDMACMToS = &t
			}
		}
	}
}

func takeAppSetting(s model.AppSetting) AppSetting {
	return AppSetting{App: s.App, Var: s.Var, Value: fact(s.Value), Layer: s.Layer, Knob: s.Knob()}
}

// TrafficPool is one `qos traffic-pool` the configuration writes.
type TrafficPool struct {
	Name string `json:"name"`
	// MemoryPercent is known only where the configuration writes it.
	MemoryPercent Fact[int] `json:"memory_percent"`
	// SwitchPriorities are the switch priorities the configuration assigns
	// the pool, known only where it assigns any.
	SwitchPriorities Fact[[]int] `json:"switch_priorities"`
}

func takePools(sw *model.Switch) []TrafficPool {
	var out []TrafficPool
	for _, p := range sw.Pools {
		tp := TrafficPool{Name: p.Name, MemoryPercent: fact(p.MemoryPercent)}
		if !p.SPsPos.IsZero() {
			tp.SwitchPriorities = known(nonNil(append([]int(nil), p.SPs...)), p.SPsPos.String())
		}
		out = append(out, tp)
	}
	return out
}

// Has reports whether the snapshot carries section.
func (s *Snapshot) Has(section string) bool { return slices.Contains(s.Sections, section) }

// Flow is a switch's flow control beside PFC, per interface; bond members
// are listed too, since the PFC watchdog belongs on them.
type Flow struct {
	// Bonds are the switch's bonds with their members (NVUE range form).
	Bonds []Bond `json:"bonds"`
	// Watchdog is `qos pfc-watchdog` of the interfaces that set it; an
	// interface not listed has it off (NVUE's default).
	Watchdog []PortValue[bool] `json:"pfc_watchdog"`
	// LinkPause is the `qos link-pause` profile of the interfaces bound to
	// one ("" for `qos link-pause` without a profile).
	LinkPause []PortValue[string] `json:"link_pause"`
}

// Bond is one bond and its members.
type Bond struct {
	Bond    string `json:"bond"`
	Members string `json:"members"`
}

func takeFlow(sw *model.Switch, out *Switch) {
	f := &Flow{Bonds: []Bond{}}
	bonds := make([]string, 0, len(sw.Bonds))
	for b := range sw.Bonds {
		bonds = append(bonds, b)
	}
	model.SortNames(bonds)
	ifaces := append([]string(nil), sw.Ports...)
	for _, b := range bonds {
		f.Bonds = append(f.Bonds, Bond{Bond: b, Members: model.CompressNames(sw.Bonds[b])})
		ifaces = append(ifaces, sw.Bonds[b]...)
	}
	for p := range sw.Flow.Watchdog.All() {
		ifaces = append(ifaces, p)
	}
	for p := range sw.Flow.LinkPause {
		ifaces = append(ifaces, p)
	}
	ifaces = uniqueNames(ifaces)
	f.Watchdog = groupPorts(ifaces, func(p string) (model.Value[bool], bool) {
		v, ok := sw.Flow.Watchdog.Get(p)
		return v, ok
	})
	f.LinkPause = groupPorts(ifaces, func(p string) (model.Value[string], bool) {
		v, ok := sw.Flow.LinkPause[p]
		return v, ok
	})
	out.Flow = f
	seed := fact(sw.Forwarding.HashSeed)
	if !seed.Known {
		seed.Origin = "not set: switchd picks a random seed"
	}
	out.HashSeed = &seed
}

// uniqueNames sorts interface names naturally, each once.
func uniqueNames(names []string) []string {
	model.SortNames(names)
	out := names[:0]
	for i, n := range names {
		if i == 0 || n != names[i-1] {
			out = append(out, n)
		}
	}
	return out
}

// sortedSections is AllSections in order, for a snapshot Take writes.
func sortedSections() []string {
	out := append([]string(nil), AllSections...)
	sort.Strings(out)
	return out
}
