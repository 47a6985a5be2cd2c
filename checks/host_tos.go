package checks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/english"
	"github.com/qoslint/qoslint/internal/layout"
	"github.com/qoslint/qoslint/model"
)

var hostToS = &Check{
	ID:       "host-tos",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesRoCEHost,
	Severity: judge.Error,
	Title:    "RoCE traffic leaves the host with the RoCE DSCP in its ToS",
	Doc: `Everything downstream keys on the DSCP the sender writes, and the sender writes whatever
traffic class its QPs carry: DSCP = ToS >> 2. A forced traffic_class
(/sys/class/infiniband/<ibdev>/tc/<port>/traffic_class, "Global tclass=N") overrides every QP;
otherwise NCCL uses NCCL_IB_TC, and 0 when it is unset. NCCL takes the variable from the job's
environment first, then from $NCCL_CONF_FILE or else ~/.nccl.conf, then from /etc/nccl.conf; a file
never overrides the environment. The message names the layer that decided, and the layers above it
that were not collected (nccl-env.txt, home-nccl.conf). Two mistakes are classic: leaving the ToS
unset, so RoCE leaves with DSCP 0 and every switch queues it as best effort; and writing the DSCP
where the ToS belongs (NCCL_IB_TC=26 puts DSCP 6 on the wire; DSCP 26 is ToS 104, or 106 with
ECT(0)). The check reads the effective ToS per NIC and names the knob that set it. When the policy
trusts PCP it also reads NCCL_IB_SL, from the same layers in the same order: NCCL puts it in the
QPs' address vector and the NIC tags RoCE with PCP = SL & 7 (NVIDIA/nccl
src/transport/net_ib.cc; mlx5 qp.c "eth_prio, sl & 0x7"), unset meaning SL 0, so the SL must
carry the RoCE priority. An SL an application sets per communicator in code cannot be collected.
UCX, NVSHMEM (host-app-tos) and RDMA-CM (host-rdma-cm-tos) are checks of their own.`,
	Inputs: []Input{NCCL, SysfsTC, IBDev2Netdev},
	Run:    runHostToS,
}

func runHostToS(f *model.Fabric) []Finding {
	var out []Finding
	p := f.Policy.RoCE
	want := model.ToSOfDSCP(p.DSCP[0])
	for _, h := range f.Hosts {
		var unknown, viaNCCL []string
		var ncclNIC *model.NIC
		for _, n := range h.NICs {
			t := n.ToS
			switch {
			case !t.Known:
				unknown = append(unknown, n.Netdev)
			case judge.ToS(f.Policy, t.V, "").OK:
			case t.Via == "traffic_class":
				o := strconv.Itoa(t.V)
				j := judge.ToS(f.Policy, t.V, "the forced traffic_class")
				out = append(out, Finding{
					Severity: j.Severity, Device: h.Name, Interface: n.Netdev,
					Message:  j.Reason,
					Expected: tosText(want), Actual: tosText(t.V) + " via traffic_class",
					Source:  t.Origin.Pos(),
					Changes: []Change{{Kind: Sysfs, Target: model.TrafficClassPath(n.IBDev, n.Port), Value: strconv.Itoa(want), Old: o, HasOld: true}},
				})
			default:
				viaNCCL = append(viaNCCL, n.Netdev)
				ncclNIC = n
			}
		}
		if ncclNIC != nil {
			out = append(out, ncclToSFinding(f, h, ncclNIC, viaNCCL, want))
		}
		if fd, ok := ncclSLFinding(f, h); ok {
			out = append(out, fd)
		}
		if len(unknown) > 0 {
			out = append(out, notCollected(h.Name, []string{layout.NCCLConfFile + " not collected (and no collected environment or ~/.nccl.conf sets NCCL_IB_TC), no forced traffic_class on " + strings.Join(unknown, ", ")}, "the RoCE ToS"))
		}
	}
	return out
}

// ncclToSFinding is the one finding of a host whose NICs take a wrong ToS
// from NCCL_IB_TC, which is per host. It names the layer that set the
// value, fixes it there, and says which stronger layers were not
// collected and may still override it.
func ncclToSFinding(f *model.Fabric, h *model.Host, n *model.NIC, nics []string, want int) Finding {
	t := n.ToS
	knob := "NCCL_IB_TC=" + strconv.Itoa(t.V)
	if t.Via == "default" {
		knob = "NCCL_IB_TC unset, NCCL's default 0"
	}
	j := judge.ToS(f.Policy, t.V, knob)
	msg := j.Reason + "; " + layerSays(t.Layer)
	var changes []Change
	switch t.Layer {
	case model.LayerEnv, model.LayerHome:
		msg += fmt.Sprintf("; set NCCL_IB_TC=%d there, since a file below it cannot override it (qoslint prints no command for that layer)", want)
	default:
		o, had := old(t.NCCL)
		if t.NCCL.V < 0 {
			had = false
		}
		changes = []Change{{Kind: NCCLConf, Target: model.NCCLConfPath, Path: []string{"NCCL_IB_TC"}, Value: strconv.Itoa(want), Old: o, HasOld: had}}
	}
	if len(h.NCCLUnknown) > 0 {
		msg += "; " + joinAnd(h.NCCLUnknown) + " " + english.Plural(len(h.NCCLUnknown), "was", "were") + " not collected: a job may still override it there"
	}
	if len(h.NCCLNotes) > 0 {
		msg += "; note " + strings.Join(h.NCCLNotes, "; ")
	}
	return Finding{
		Severity: j.Severity, Device: h.Name, Interface: model.CompressNames(nics),
		Message:  msg,
		Expected: tosText(want), Actual: tosText(t.V) + " via " + knob,
		Source:  at(t.Origin, h.NCCLFile),
		Changes: changes,
	}
}

// layerSays names the layer that decided NCCL_IB_TC, in NCCL's order.
func layerSays(layer string) string {
	switch layer {
	case model.LayerEnv:
		return "set in the job environment, which beats every nccl.conf"
	case model.LayerHome:
		return "set in ~/.nccl.conf, which beats /etc/nccl.conf"
	case model.LayerEtc:
		return "set in /etc/nccl.conf"
	}
	return "no collected layer (environment, ~/.nccl.conf, /etc/nccl.conf) sets it"
}

// joinAnd lists items as "a, b and c".
func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func tosText(tos int) string {
	return fmt.Sprintf("ToS %d (DSCP %d, %s)", tos, model.DSCPOfToS(tos), model.ECNName(model.ECNOfToS(tos)))
}

// ncclSLFinding is host-tos on NCCL_IB_SL, per host like NCCL_IB_TC: it
// tags every NCCL QP of every NIC, a forced traffic_class or not.
func ncclSLFinding(f *model.Fabric, h *model.Host) (Finding, bool) {
	sl := h.NCCLSL
	if !sl.Known || len(h.NICs) == 0 {
		return Finding{}, false
	}
	j := judge.HostSL(f.Policy, sl.V)
	if j.OK {
		return Finding{}, false
	}
	nics := make([]string, len(h.NICs))
	for i, n := range h.NICs {
		nics[i] = n.Netdev
	}
	want := f.Policy.RoCE.Priority
	knob := "NCCL_IB_SL=" + strconv.Itoa(sl.V)
	if h.NCCLSLLayer == model.LayerDefault {
		knob = "NCCL_IB_SL unset, NCCL's default 0"
	}
	msg := j.Reason + "; " + strings.Replace(layerSays(h.NCCLSLLayer), "sets it", "sets NCCL_IB_SL", 1)
	var changes []Change
	switch h.NCCLSLLayer {
	case model.LayerEnv, model.LayerHome:
		msg += fmt.Sprintf("; set NCCL_IB_SL=%d there, since a file below it cannot override it (qoslint prints no command for that layer)", want)
	default:
		o, had := old(sl)
		changes = []Change{{Kind: NCCLConf, Target: model.NCCLConfPath, Path: []string{"NCCL_IB_SL"}, Value: strconv.Itoa(want), Old: o, HasOld: had}}
	}
	if u := h.NCCLSLUnknown; len(u) > 0 {
		msg += "; " + joinAnd(u) + " " + english.Plural(len(u), "was", "were") + " not collected: a job may still override it there"
	}
	return Finding{
		Severity: j.Severity, Device: h.Name, Interface: model.CompressNames(nics),
		Message:  msg,
		Expected: fmt.Sprintf("NCCL_IB_SL %d (PCP %d)", want, want), Actual: fmt.Sprintf("%s (PCP %d)", knob, sl.V&7),
		Source:  at(sl.Origin, h.NCCLFile),
		Changes: changes,
	}, true
}
