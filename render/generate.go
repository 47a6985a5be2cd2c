package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/checks"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/internal/names"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
)

// SwitchChanges is the complete RoCE QoS configuration of a new switch that
// follows the policy, as NVUE changes. It spells out every setting the
// checks look at, rather than leaning on defaults, so the result reads as
// the policy and survives a later change of defaults. ports is the NVUE
// range of fabric ports ("swp1-32"). Every change is spelled as release rel
// spells it; CommandsFor then leaves out what rel has no command for.
func SwitchChanges(p policy.Policy, rel model.CLRelease, ports string) []checks.Change {
	syn := rel.Syntax()
	var cs []checks.Change
	set := func(value string, path ...string) {
		cs = append(cs, checks.Change{Kind: checks.NVUE, Path: path, Value: value})
	}
	prio, tc := strconv.Itoa(p.RoCE.Priority), strconv.Itoa(p.RoCE.TrafficClass)
	cnp := strconv.Itoa(p.CNP.Priority)
	set(syn.OnOff(true), "qos", "roce", syn.StateKey())
	set(p.RoCE.Mode, "qos", "roce", "mode")
	trust := "both"
	set(trust, "qos", "mapping", model.DefaultProfile, "trust")
	for _, d := range p.RoCE.DSCP {
		set(prio, "qos", "mapping", model.DefaultProfile, "dscp", strconv.Itoa(d), "switch-priority")
	}
	set(cnp, "qos", "mapping", model.DefaultProfile, "dscp", strconv.Itoa(p.CNP.DSCP), "switch-priority")
	if p.RoCE.Lossless() {
		// A PFC switch-priority set replaces the RoCE default set (3).
		set("", "qos", "pfc", model.DefaultProfile, "switch-priority", prio)
		set(model.NVUEBool(rel, true, "qos", "pfc", model.DefaultProfile, "tx"), "qos", "pfc", model.DefaultProfile, "tx")
		set(model.NVUEBool(rel, true, "qos", "pfc", model.DefaultProfile, "rx"), "qos", "pfc", model.DefaultProfile, "rx")
		if p.PFC.CableLength != model.RoCEDefaultCableLength {
			set(strconv.Itoa(p.PFC.CableLength), "qos", "roce", "cable-length")
		}
		if ports != "" {
			// "Enable PFC watchdog on the interfaces where you enable PFC"
			// (CumulusNetworks/docs content/cumulus-linux-518/Layer-1-and-
			// Switch-Ports/Quality-of-Service/_index.md); checks/pfc_watchdog.go.
			set("", "interface", ports, "qos", "pfc-watchdog")
		}
	}
	set(tc, "qos", "egress-queue-mapping", model.DefaultProfile, "switch-priority", prio, "traffic-class")
	if p.RoCE.Priority != 3 && p.RoCE.TrafficClass == 3 {
		// qos roce puts switch priority 3 in traffic class 3: move it out
		// of the RoCE queue (the change-RoCE recipe of
		// CumulusNetworks/docs content/cumulus-linux-515/Layer-1-and-Switch-Ports/Quality-of-Service/RDMA-over-Converged-Ethernet-RoCE.md).
		set("0", "qos", "egress-queue-mapping", model.DefaultProfile, "switch-priority", "3", "traffic-class")
	}
	cnpTC := p.CNP.Priority
	if cnpTC == p.RoCE.TrafficClass {
		cnpTC = 6
	}
	set(strconv.Itoa(cnpTC), "qos", "egress-queue-mapping", model.DefaultProfile, "switch-priority", cnp, "traffic-class")
	set("strict", "qos", "egress-scheduler", model.DefaultProfile, "traffic-class", strconv.Itoa(cnpTC), "mode")
	set(model.NVUEBool(rel, true, "qos", "congestion-control", model.DefaultProfile, "traffic-class", tc, "ecn"),
		"qos", "congestion-control", model.DefaultProfile, "traffic-class", tc, "ecn")
	fields := map[string]bool{"source-port": true}
	for _, f := range p.ECMP.HashFields {
		fields[f] = true
	}
	for _, f := range model.ECMPFields {
		if fields[f.Name] {
			set(syn.OnOff(true), "system", "forwarding", "ecmp-hash", f.Name)
		}
	}
	set(syn.OnOff(p.ECMP.AdaptiveRouting), "router", "adaptive-routing", syn.StateKey())
	if ports != "" {
		set(strconv.Itoa(p.MTU.Switch), "interface", ports, "link", "mtu")
	}
	return cs
}

// UplinkARChanges turns adaptive routing on for each port of a switch's
// ECMP group, in its release's syntax: "Run the `nv set interface
// <interface> router adaptive-routing enable on` command on all the ports
// that are part of the same ECMP route" (CumulusNetworks/docs
// content/cumulus-linux-514/Layer-3/Routing/Equal-Cost-Multipath-Load-
// Sharing.md; `state enabled` in content/cumulus-linux-515/ of the same
// page). One command per port, not a range: the group is the cabling's
// and need not be contiguous. Nothing when the policy does not want
// adaptive routing (SwitchChanges leaves it off switch-wide then).
func UplinkARChanges(p policy.Policy, rel model.CLRelease, ports []string) []checks.Change {
	if !p.ECMP.AdaptiveRouting {
		return nil
	}
	syn := rel.Syntax()
	var cs []checks.Change
	for _, port := range ports {
		cs = append(cs, checks.Change{Kind: checks.NVUE, Path: []string{"interface", port, "router", "adaptive-routing", syn.StateKey()},
			Value: syn.OnOff(true)})
	}
	return cs
}

// HostChanges is the RoCE QoS configuration of a new GPU server's RoCE NICs
// that follows the policy.
func HostChanges(p policy.Policy, nics []NIC) ([]checks.Change, error) {
	var cs []checks.Change
	prio := p.RoCE.Priority
	for _, n := range nics {
		if !names.Netdev(n.Netdev) {
			return nil, fmt.Errorf("interface name %q is not safe in a command", n.Netdev)
		}
		mq := func(flag, value string) {
			cs = append(cs, checks.Change{Kind: checks.MlnxQos, Target: n.Netdev, Flag: flag, Value: value})
		}
		mq("--trust", p.Trust)
		pfc := "0,0,0,0,0,0,0,0"
		if p.RoCE.Lossless() {
			b := []byte(pfc)
			b[2*prio] = '1'
			pfc = string(b)
		}
		mq("--pfc", pfc)
		for _, d := range p.RoCE.DSCP {
			mq("--dscp2prio", fmt.Sprintf("set,%d,%d", d, prio))
		}
		cs = append(cs, newNICETS(p, n.Netdev))
		sysfs := func(path string, v int) {
			cs = append(cs, checks.Change{Kind: checks.Sysfs, Target: path, Value: strconv.Itoa(v)})
		}
		sysfs(model.ECNPath(n.Netdev, layout.PointNP, prio), 1)
		sysfs(model.ECNPath(n.Netdev, layout.PointRP, prio), 1)
		sysfs(model.CNPPath(n.Netdev, layout.CNPDSCP), p.CNP.DSCP)
		sysfs(model.CNPPath(n.Netdev, layout.CNP802pPrio), p.CNP.Priority)
		cs = append(cs, checks.Change{Kind: checks.LinkMTU, Target: n.Netdev, Value: strconv.Itoa(p.MTU.Host)})
	}
	// NCCL keeps the first NCCL_IB_TC it reads: drop any, then add ours.
	cs = append(cs,
		checks.Change{Kind: checks.NCCLConf, Target: model.NCCLConfPath, Path: []string{"NCCL_IB_TC"}},
		checks.Change{Kind: checks.NCCLConf, Target: model.NCCLConfPath, Path: []string{"NCCL_IB_TC"},
			Value: strconv.Itoa(model.ToSOfDSCP(p.RoCE.DSCP[0]))})
	if !p.ECMP.AdaptiveRouting {
		// Static ECMP spreads a connection only over its QPs' source
		// ports (host-nccl-qps).
		cs = append(cs,
			checks.Change{Kind: checks.NCCLConf, Target: model.NCCLConfPath, Path: []string{"NCCL_IB_QPS_PER_CONNECTION"}},
			checks.Change{Kind: checks.NCCLConf, Target: model.NCCLConfPath, Path: []string{"NCCL_IB_QPS_PER_CONNECTION"},
				Value: strconv.Itoa(checks.NCCLQPsFix)})
	}
	return cs, nil
}

// NIC is a host NIC to configure.
type NIC struct {
	Netdev string
}

// mlx5DefaultTC is the traffic class a priority of a NIC nobody configured
// maps to: "tclass[prio=0]=1, tclass[prio=1]=0, tclass[prio=i]=i (for
// i>1)" (Linux drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c,
// mlx5e_dcbnl_initialize); every class starts as vendor.
func mlx5DefaultTC(prio int) int {
	switch prio {
	case 0:
		return 1
	case 1:
		return 0
	}
	return prio
}

// newNICETS schedules a new NIC's classes as the switch's RoCE defaults
// do: the RoCE class as the policy says (ETS 50%), the CNP class strict,
// every other class ETS with an equal part of the rest (host-ets).
func newNICETS(p policy.Policy, netdev string) checks.Change {
	roce, cnp := mlx5DefaultTC(p.RoCE.Priority), mlx5DefaultTC(p.CNP.Priority)
	var tsa [8]string
	for tc := range tsa {
		tsa[tc] = "ets"
	}
	tsa[cnp], tsa[roce] = "strict", p.RoCE.HostTSA
	bw := checks.ETSShares(tsa, [8]int{}, roce)
	list := func(n int, f func(i int) string) string {
		s := make([]string, n)
		for i := range s {
			s[i] = f(i)
		}
		return strings.Join(s, ",")
	}
	return checks.Change{Kind: checks.MlnxQos, Target: netdev, Flag: "--tsa", Value: list(8, func(i int) string { return tsa[i] }),
		Flag2: "--tcbw", Value2: list(8, func(i int) string { return strconv.Itoa(bw[i]) })}
}
