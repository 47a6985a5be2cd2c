package checks

import (
	"fmt"
	"strconv"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/english"
	"github.com/qoslint/qoslint/internal/nvnum"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/model"
)

// NCCLQPsFix is what the fix (and render's generated configuration) sets:
// at least judge.NCCLQPsMin. NVIDIA documents no recommended value for
// NCCL_IB_QPS_PER_CONNECTION (the NCCL environment variable page lists it
// without one): 4 is a choice, not a documented figure, and the finding
// says so.
const NCCLQPsFix = 4

var hostNCCLQPs = &Check{
	ID:       "host-nccl-qps",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesRoCEHost,
	Severity: judge.Warning,
	Title:    "NCCL opens more than one QP per connection where static ECMP must spread it",
	Doc: `Between two GPU addresses every RoCEv2 packet goes to UDP port 4791, so a connection's only ECMP
entropy is the UDP source port, which a ConnectX derives from the QP numbers (Linux
include/rdma/ib_verbs.h rdma_calc_flow_label, rdma_flow_label_to_udp_sport). NCCL opens
NCCL_IB_QPS_PER_CONNECTION QPs per connection and stripes the data over them; its default is 1
(NVIDIA/nccl src/transport/net_ib/connect.cc, NCCL_PARAM(IbQpsPerConn, "IB_QPS_PER_CONNECTION", 1)), so
each connection is one flow and takes one uplink, however many the leaf has. The variable is read from
the same layers as NCCL_IB_TC (job environment, ~/.nccl.conf or $NCCL_CONF_FILE, /etc/nccl.conf). The
check warns at fewer than 2 QPs when the fabric hashes ECMP on the source port (qoslint always requires
it: ecmp-hash) and the policy turns adaptive routing off: with adaptive routing the switch spreads a
flow's packets over the uplinks itself, so the QP count no longer decides the path, and the check is
silent. NVIDIA documents no recommended value; the fix sets 4, which gives the hash four flows per
connection, each QP costing NIC memory and completion work. A host is judged only when its nccl.conf
or a job environment setting the variable was collected. A Kubernetes workload that sets
NCCL_IB_QPS_PER_CONNECTION in its containers' environment (resolved as k8s-workload-tos resolves it)
is judged the same way on each host it lands on; one that does not set it is not judged, since the
image's /etc/nccl.conf, which is not collected, may.`,
	Inputs: []Input{NCCL, K8sManifests},
	Run:    runHostNCCLQPs,
}

func runHostNCCLQPs(f *model.Fabric) []Finding {
	if !judge.NCCLQPsMatter(f.Policy) {
		return nil
	}
	var out []Finding
	for _, h := range f.Hosts {
		if fd, ok := ncclQPsFinding(f.Policy, h); ok {
			out = append(out, fd)
		}
	}
	if f.K8s != nil {
		for _, c := range f.K8s.Containers {
			out = append(out, k8sQPsFindings(c)...)
		}
	}
	return out
}

// k8sQPsFindings judges NCCL_IB_QPS_PER_CONNECTION where a workload's
// container sets it, as NCCL reads it (strtoll, an empty value keeps the
// default).
func k8sQPsFindings(c *model.K8sContainer) []Finding {
	const name = "NCCL_IB_QPS_PER_CONNECTION"
	val, set := c.Env[name]
	if !set {
		return nil
	}
	n := int(nvnum.NCCLParamInt(val.V, 1))
	if n >= judge.NCCLQPsMin {
		return nil
	}
	msg := fmt.Sprintf("%s: %s=%s: each NCCL connection is one QP, one UDP source port and so one ECMP path; with the hash on the source port "+
		"and adaptive routing off, a connection cannot spread over the uplinks. NVIDIA documents no recommended value: the fix sets %d, four flows per connection",
		c.Who(), name, val.V, NCCLQPsFix)
	if val.ConfigMap != nil {
		msg += "; set in " + val.Via
	}
	return k8sFindings(c, Finding{Severity: judge.Warning, Message: msg,
		Expected: fmt.Sprintf("%s >= %d", name, judge.NCCLQPsMin), Actual: fmt.Sprintf("%s=%d", name, n),
		Source: val.Pos, Changes: []Change{varFix(c, name, val, true, NCCLQPsFix)}})
}

// ncclQPsFinding judges one host's NCCL_IB_QPS_PER_CONNECTION.
func ncclQPsFinding(p policy.Policy, h *model.Host) (Finding, bool) {
	q := h.NCCLQPsPerConn
	if !judge.NCCLQPsJudged(len(h.NICs) > 0, q.Known, q.Layer == model.LayerDefault, h.NCCLFile != "") {
		return Finding{}, false
	}
	if j := judge.NCCLQPs(p, q.V); !j.Breaks() {
		return Finding{}, false
	}
	set := fmt.Sprintf("NCCL_IB_QPS_PER_CONNECTION=%d", q.V)
	if q.Layer == model.LayerDefault {
		set = fmt.Sprintf("NCCL_IB_QPS_PER_CONNECTION unset (NCCL's default %d)", q.V)
	} else {
		set += " (" + ncclLayerName(q.Layer) + ")"
	}
	msg := set + ": each NCCL connection is one QP, one UDP source port and so one ECMP path; with the hash on the source port " +
		"and adaptive routing off, a connection cannot spread over the uplinks. NVIDIA documents no recommended value: " +
		"the fix sets " + strconv.Itoa(NCCLQPsFix) + ", four flows per connection"
	o, had := old(q.Value)
	changes := ncclVarFix(q.Layer, "NCCL_IB_QPS_PER_CONNECTION", strconv.Itoa(NCCLQPsFix), o, &msg)
	if !had {
		for i := range changes {
			changes[i].HasOld = false
		}
	}
	if len(q.Unknown) > 0 {
		msg += "; " + joinAnd(q.Unknown) + " " + english.Plural(len(q.Unknown), "was", "were") + " not collected: a job may still override it there"
	}
	return Finding{
		Severity: judge.Warning, Device: h.Name, Message: msg,
		Expected: fmt.Sprintf("NCCL_IB_QPS_PER_CONNECTION >= %d", judge.NCCLQPsMin),
		Actual:   set, Source: q.Origin.Pos(), Changes: changes,
	}, true
}

// ncclLayerName words the layer a parameter came from.
func ncclLayerName(layer string) string {
	if layer == model.LayerEnv {
		return "set in the job environment"
	}
	return "set in " + layer
}
