package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/english"
	"github.com/qoslint/qoslint/internal/nvnum"
	"github.com/qoslint/qoslint/model"
)

var hostNCCLFifoTC = &Check{
	ID:       "host-nccl-fifo-tc",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesRoCEHost,
	Severity: judge.Warning,
	Title:    "NCCL_IB_FIFO_TC puts NCCL's control messages in a class the policy has",
	Doc: `NCCL_IB_FIFO_TC (NCCL 2.22.3 and later) "Defines the InfiniBand traffic class for control
messages. Control messages are short RDMA write operations which control credit return, contrary to
other RDMA operations transmitting large segments of data. This setting allows those messages to use a
high priority, low-latency traffic class and avoid being delayed by the rest of the traffic", and "The
default value is the traffic class set by NCCL_IB_TC, which defaults to 0 if not set" (NVIDIA/nccl
docs/userguide/source/env.rst). In the source, NCCL_PARAM(IbFifoTc, "IB_FIFO_TC", -1) becomes the
traffic class of the receiver's queue pairs on RoCE only (src/transport/net_ib/connect.cc), so the
control messages leave with DSCP = NCCL_IB_FIFO_TC >> 2 while the data keeps NCCL_IB_TC's; their SL,
and so their PCP, stays NCCL_IB_SL's. Unset (or -1), the control messages share the data's class, which
host-tos and k8s-workload-tos judge: no finding. Set, under a DSCP policy, its DSCP must be one the
policy gives a class: a RoCE DSCP (the lossless class the data uses) or the CNP DSCP, whose class the
switches schedule strict (switch-cnp) and which is the policy's high-priority, low-latency class;
NVIDIA names no value, so both pass. The CNP class is not lossless: a dropped control message is
retransmitted by its queue pair (not judged). Any other DSCP is a warning, and the DSCP written where
the ToS belongs (48 for DSCP 48, which is ToS 192) is named. The variable is read from NCCL's layers as
NCCL_IB_TC is (job environment, ~/.nccl.conf or $NCCL_CONF_FILE, /etc/nccl.conf) with NCCL's strtoll,
so 0xC0 is 192; a NIC that forces a traffic_class replaces it, and a host all of whose NICs do is not
judged. In a Kubernetes workload the container's environment (as k8s-workload-tos resolves it) is
judged the same way on each host it lands on. NCCL before 2.22.3 ignores the variable (the NCCL
version is not collected). The fix moves the control messages to the CNP class's ToS; deleting the
variable instead keeps them with the data, NCCL's default.`,
	Inputs: []Input{NCCL, SysfsTC, K8sManifests},
	Run:    runHostNCCLFifoTC,
}

const fifoVar = "NCCL_IB_FIFO_TC"

func runHostNCCLFifoTC(f *model.Fabric) []Finding {
	var out []Finding
	for _, h := range f.Hosts {
		if fd, ok := fifoTCFinding(f, h); ok {
			out = append(out, fd)
		}
	}
	if f.K8s != nil {
		for _, c := range f.K8s.Containers {
			out = append(out, k8sFifoTCFindings(f, c)...)
		}
	}
	return out
}

// anyFreeNIC says some NIC of the host takes its QPs' traffic class.
func anyFreeNIC(h *model.Host) bool {
	for _, n := range h.NICs {
		if !forcedToS(n) {
			return true
		}
	}
	return false
}

// fifoTCFinding judges one host's NCCL_IB_FIFO_TC.
func fifoTCFinding(f *model.Fabric, h *model.Host) (Finding, bool) {
	q := h.NCCLFifoTC
	if !judge.NCCLFifoTCJudged(len(h.NICs) > 0, q.Known, q.Layer == model.LayerDefault) {
		return Finding{}, false
	}
	knob := fmt.Sprintf("%s=%d (%s)", fifoVar, q.V, ncclLayerName(q.Layer))
	j := judge.NCCLFifoTC(f.Policy, q.V, anyFreeNIC(h), knob)
	if j.OK {
		return Finding{}, false
	}
	want := model.ToSOfDSCP(f.Policy.CNP.DSCP)
	msg := j.Reason + fmt.Sprintf("; the fix moves them to the CNP class, ToS %d (deleting the variable keeps them with the data instead)", want)
	o, had := old(q.Value)
	changes := ncclVarFix(q.Layer, fifoVar, strconv.Itoa(want), o, &msg)
	if !had {
		for i := range changes {
			changes[i].HasOld = false
		}
	}
	if len(q.Unknown) > 0 {
		msg += "; " + joinAnd(q.Unknown) + " " + english.Plural(len(q.Unknown), "was", "were") + " not collected: a job may still override it there"
	}
	nics := make([]string, 0, len(h.NICs))
	for _, n := range h.NICs {
		if !forcedToS(n) {
			nics = append(nics, n.Netdev)
		}
	}
	return Finding{
		Severity: j.Severity, Device: h.Name, Interface: model.CompressNames(nics), Message: msg,
		Expected: fifoExpected(f), Actual: tosText(q.V) + " via " + knob,
		Source: q.Origin.Pos(), Changes: changes,
	}, true
}

func fifoExpected(f *model.Fabric) string {
	p := f.Policy
	return fmt.Sprintf("%s unset, or the ToS of a RoCE DSCP (%s) or of the CNP DSCP %d (ToS %d)", fifoVar, model.IntList(p.RoCE.DSCP), p.CNP.DSCP, model.ToSOfDSCP(p.CNP.DSCP))
}

// k8sFifoTCFindings judges NCCL_IB_FIFO_TC where a workload's container
// sets it, as NCCL reads it (strtoll, an empty value keeps the default).
func k8sFifoTCFindings(f *model.Fabric, c *model.K8sContainer) []Finding {
	val, set := c.Env[fifoVar]
	if !set {
		return nil
	}
	tc := int(nvnum.NCCLParamInt(val.V, -1))
	knob := fifoVar + "=" + val.V
	j := judge.NCCLFifoTC(f.Policy, tc, true, knob)
	if j.OK {
		return nil
	}
	want := model.ToSOfDSCP(f.Policy.CNP.DSCP)
	msg := c.Who() + ": " + j.Reason + fmt.Sprintf("; the fix moves them to the CNP class, ToS %d (deleting the variable keeps them with the data instead)", want)
	if val.ConfigMap != nil {
		msg += "; set in " + val.Via
	}
	return k8sFindings(c, Finding{Severity: j.Severity, Message: msg,
		Expected: fifoExpected(f), Actual: tosText(tc) + " via " + knob,
		Source: val.Pos, Changes: []Change{varFix(c, fifoVar, val, true, want)}})
}
