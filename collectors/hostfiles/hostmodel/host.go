// Package hostmodel builds the model of one GPU server from its host capture
// (mlnx_qos, sysfs, ethtool, NCCL, UCX and NVSHMEM settings, RDMA-CM):
// the host files' parse stays in hostfiles, the model's types and their
// semantics stay in model, so the model names no parser type.
package hostmodel

import (
	"fmt"
	"maps"
	"slices"

	"github.com/qoslint/qoslint/collectors"
	"github.com/qoslint/qoslint/collectors/hostfiles"
	"github.com/qoslint/qoslint/internal/intern"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// Host builds the effective model of one host.
func Host(in *collectors.HostCapture) *model.Host {
	h := &model.Host{Name: in.Name, NotCollected: in.Missing}
	buildNCCL(h, in)
	h.PCI, h.PCIFile = pciDevices(in.PCI), in.PCIFile
	if c := in.CPUInfo; c != nil && c.HasFlags {
		h.VM = model.Explicit(c.Hypervisor, source.Pos{File: c.File, Line: c.Line})
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
		n := &model.NIC{Netdev: intern.String(ni.Netdev), IBDev: intern.String(ni.IBDev), Port: ni.Port, QosUnreadable: ni.QosUnreadable, Firmware: firmware(ni.Firmware, ni.Port)}
		buildQos(n, ni.Qos)
		buildSysfs(n, ni.Sysfs)
		if note := buildRoCETypes(n, ni); note != nil {
			h.Notes = append(h.Notes, note)
		}
		if buildRDMACM(n, ni) {
			noCMToS = append(noCMToS, n.Netdev)
		}
		if l, ok := links[ni.Netdev]; ok {
			n.MTU = model.Explicit(l.MTU, source.Pos{File: in.LinksFile, Line: l.Line})
		}
		n.ToS = effectiveToS(n, h.NCCLTC)
		if n.ToS.Via != "traffic_class" {
			n.ToS.Layer = h.NCCLLayer
		}
		if n.DSCPMissing != "" {
			h.Notes = append(h.Notes, &source.Error{Pos: source.Pos{File: n.QosFile, Line: n.Trust.Origin.Pos().Line}, Msg: n.DSCPMissing})
		}
		n.Counters = buildCounters(ni.Ethtool, ni.HWCounters)
		model.DeltaNIC(n.Counters, buildCounters(ni.EthtoolBefore, ni.HWCountersBefore), in.CountersInterval)
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

func buildQos(n *model.NIC, q *hostfiles.MlnxQos) {
	for p := range n.PrioTC {
		n.PrioTC[p] = -1
	}
	if q == nil {
		return
	}
	n.QosFile = q.File
	for p, tc := range q.PrioTC {
		n.PrioTC[p] = int8(tc) // -1..7: the parser takes tc 0-7 only
	}
	pos := func(line int) source.Pos { return source.Pos{File: q.File, Line: line} }
	switch {
	case q.Trust != "":
		n.Trust = model.Explicit(intern.String(q.Trust), pos(q.TrustLine))
	case len(q.DSCP2Prio) > 0:
		// Where the trust state cannot be read, mlnx_qos itself infers dscp
		// from the presence of DSCP APP entries (Mellanox/mlnx-tools python/mlnx_qos).
		n.Trust = model.Value[string]{V: "dscp", Origin: model.NewOrigin(pos(q.DSCP2PrioLine), "inferred from dscp2prio entries"), Known: true}
	default:
		n.Trust = model.Value[string]{V: "pcp", Origin: model.NewOrigin(pos(1), "no trust line and no dscp2prio entries: pcp"), Known: true}
	}
	if len(q.DSCP2Prio) == 0 && q.Trust == "dscp" {
		dscpNotCollected(n, q)
	} else if len(q.DSCP2Prio) == 0 {
		for d := range 64 {
			n.DSCP.Set(d, model.Value[int]{V: model.DefaultPriority(d), Origin: model.NewOrigin(pos(q.TrustLine), "NIC default dscp2prio (DSCP>>3)"), Known: true})
		}
	} else {
		for d := range 64 {
			if p, ok := q.DSCP2Prio[d]; ok {
				n.DSCP.Set(d, model.Explicit(p, pos(q.DSCP2PrioLine)))
			} else {
				// Absent from a printed table: unknown, but the table is
				// the evidence.
				n.DSCP.Set(d, model.Value[int]{Origin: model.At(pos(q.DSCP2PrioLine))})
			}
		}
	}
	for _, tc := range q.TCs {
		if tc.TC >= 0 && tc.TC < 8 {
			n.TSA.Set(tc.TC, model.Explicit(tc.TSA, pos(tc.Line)))
			n.TCBW[tc.TC] = uint8(tc.BW) // the parser takes 0-100 only
		}
	}
	if q.HasPFC {
		n.PFC = model.NewPFCRow(q.PFC, model.At(pos(q.PFCLine)))
	}
}

func buildSysfs(n *model.NIC, s *hostfiles.Sysfs) {
	if s == nil {
		return
	}
	flag := func(si *hostfiles.SysfsInt) model.Value[bool] {
		if si == nil {
			return model.Value[bool]{}
		}
		return model.Explicit(si.Value == 1, source.Pos{File: si.File, Line: 1})
	}
	num := func(si *hostfiles.SysfsInt) model.Value[int] {
		if si == nil {
			return model.Value[int]{}
		}
		return model.Explicit(si.Value, source.Pos{File: si.File, Line: 1})
	}
	for p := 0; p < 8; p++ {
		n.ECNNP.Set(p, flag(s.ECNNP[p]))
		n.ECNRP.Set(p, flag(s.ECNRP[p]))
	}
	n.CNPDSCP = num(s.CNPDSCP)
	n.CNPPrio = num(s.CNP802pPrio)
	if tc := s.TrafficClass; tc != nil {
		n.ToS.Forced = model.Explicit(tc.Global, source.Pos{File: tc.File, Line: 1})
	}
}

// effectiveToS applies the driver's and NCCL's precedence: a forced global
// traffic_class overrides the QP's GRH traffic class
// (tclass_get_tclass_locked, knneth/mlnx-ofa_kernel
// drivers/infiniband/hw/mlx5/main_ext.c); otherwise NCCL sets
// ah_attr.grh.traffic_class from NCCL_IB_TC, default 0 (NVIDIA/nccl
// src/transport/net_ib/connect.cc).
func effectiveToS(n *model.NIC, nccl model.Value[int]) model.ToS {
	t := model.ToS{Forced: n.ToS.Forced, NCCL: nccl}
	switch {
	case t.Forced.Known && t.Forced.V >= 0:
		t.Value, t.Via, t.Layer = t.Forced, "traffic_class", model.LayerForced
	case nccl.Known && nccl.V >= 0:
		t.Value, t.Via = nccl, "NCCL_IB_TC"
	case nccl.Known:
		t.Value = model.Value[int]{V: 0, Origin: model.NewOrigin(nccl.Origin.Pos(), "NCCL_IB_TC unset: NCCL's default traffic class 0"), Known: true}
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
func buildCounters(e *hostfiles.EthtoolStats, hw *hostfiles.HWCounters) *model.NICCounters {
	if e == nil && hw == nil {
		return nil
	}
	if e == nil {
		e = &hostfiles.EthtoolStats{} // every ethtool counter absent
	}
	v := func(c hostfiles.Counter) model.Value[uint64] {
		if !c.Present() {
			return model.Value[uint64]{}
		}
		return model.Explicit(c.Value, source.Pos{File: e.File, Line: c.Line})
	}
	nc := &model.NICCounters{File: e.File, CNPSent: v(e.CNPSent()), CNPHandled: v(e.CNPHandled()), ECNMarkedRoCE: v(e.ECNMarkedRoCE())}
	nc.RDMA = rdmaTraffic(e, v)
	nc.RxCRCErrors = v(e.RxCRCErrors())
	addHWCounters(nc, hw)
	for p := range nc.Prio {
		ps := e.Prio(p)
		nc.Prio[p] = model.PrioCounters{
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
func buildRoCETypes(n *model.NIC, ni *collectors.NICCapture) *source.Error {
	if g := ni.GIDTypes; g != nil {
		n.GIDTypes = model.NewGIDTypes(len(g.ByIndex))
		for _, i := range slices.Sorted(maps.Keys(g.ByIndex)) {
			t := g.ByIndex[i]
			n.GIDTypes.Add(i, model.Explicit(t.Type, source.Pos{File: t.File, Line: 1}))
		}
	}
	if m := ni.RoCEMode; m != nil {
		n.RoCEMode = model.Explicit(intern.String(m.Type), source.Pos{File: m.File, Line: 1})
		return nil
	}
	if ni.GIDTypes == nil {
		return nil
	}
	return &source.Error{Pos: source.Pos{File: ni.GIDTypes.Dir}, Msg: fmt.Sprintf(
		"RDMA-CM's default_roce_mode of %s port %d not collected: /sys/kernel/config/rdma_cm/%s exists only after mkdir, so RDMA-CM's RoCE version (not NCCL's) is not checked",
		n.IBDev, n.Port, n.IBDev)}
}

// firmware is mlxconfig's output in the model's terms.
func firmware(c *hostfiles.MlxConfig, port int) *model.Firmware {
	if c == nil {
		return nil
	}
	// Copied: the parser's strings are cut from the file's whole text;
	// interned: NICs alike share one copy of each name and value.
	cl := intern.String
	return model.NewFirmware(c.File, cl(c.Device), c.HasCurrent, firmwareParams(c, port))
}

// firmwareShared holds one list of parameters per set printed: the NICs
// of a fabric's hosts print the same mlxconfig values but for the file's
// name, and a list each, even of five, was a host's 0.3 kB.
var firmwareShared = intern.Table[[]model.FirmwareParam]{Max: 4096}

// firmwareParams are the parameters of c that anything judges or
// records: `mlxconfig q` prints a hundred or more, and all of them were a
// twelfth of TestLintScale's model.
func firmwareParams(c *hostfiles.MlxConfig, port int) []model.FirmwareParam {
	var found []hostfiles.MlxParam
	var key intern.Key
	for _, k := range model.FirmwareParamNames(port) {
		if p, ok := c.Params[k]; ok {
			found = append(found, p)
			key.Str(p.Name).Str(p.Default).Str(p.Current).Str(p.Next).Int(p.Line)
		}
	}
	if len(found) == 0 {
		return nil
	}
	return firmwareShared.Share(&key, func() []model.FirmwareParam {
		cl := intern.String
		out := make([]model.FirmwareParam, len(found))
		for i, p := range found {
			out[i] = model.FirmwareParam{Name: cl(p.Name), Default: cl(p.Default), Current: cl(p.Current), Next: cl(p.Next), Line: p.Line}
		}
		return out
	})
}
