package checks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/model"
)

var k8sWorkloadToS = &Check{
	ID:       "k8s-workload-tos",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesK8s(true),
	Severity: judge.Error,
	Title:    "Kubernetes workloads give NCCL, UCX and NVSHMEM the RoCE ToS in their environment",
	Doc: `A training job sets the RoCE marking in its containers' environment, which beats every
nccl.conf: NCCL_IB_TC (NCCL's default 0), UCX_IB_TRAFFIC_CLASS (UCX's default "auto", 106 on RoCE v2:
openucx/ucx src/uct/ib/base/ib_iface.c; judged unset only in a container that sets some UCX_
variable) and NVSHMEM_IB_TRAFFIC_CLASS (judged only when set); under a PCP policy also
NCCL_IB_SL, UCX_IB_SL and NVSHMEM_IB_SL. The check reads every container and init container of Pods,
Deployments, StatefulSets, DaemonSets, ReplicaSets, Jobs, CronJobs, Kubeflow PyTorchJobs and MPIJobs,
Volcano Jobs, JobSets and LeaderWorkerSets that uses RDMA (sets an NCCL_, UCX_ or NVSHMEM_ variable,
or asks for an rdma/ resource or nvidia.com/gpu), with env entries, configMapKeyRef values and
envFrom ConfigMaps of the same namespace resolved as the kubelet does (env beats envFrom, a later
source beats an earlier one). The ToS is judged as host-tos judges it: unset (DSCP 0) and the DSCP
written where the ToS belongs (26 instead of 104/106) are named. An unset NCCL_IB_TC is judged as
NCCL's default 0, since the host's /etc/nccl.conf is not in the container (the image's own
/etc/nccl.conf is not collected). NCCL_IB_GID_INDEX is read but not judged here; NCCL_IB_QPS_PER_CONNECTION is
host-nccl-qps's, NCCL_IB_FIFO_TC host-nccl-fifo-tc's. An MPI job's ranks are started by mpirun in the launcher, and get what it exports (-x);
the mpirun command line is not read, so the workers' own env is judged. Secrets, fieldRefs and
$(VAR) references are not resolved, and nodeAffinity is not
evaluated (only nodeSelector places a workload on the inventory's k8s_node/k8s_labels). The fix is a
kubectl JSON patch of the workload's env entry, or of the ConfigMap the value came from.`,
	Inputs: []Input{K8sManifests},
	Run:    runK8sWorkloadToS,
}

// tosVars are the traffic-class variables and what unset means; "" for
// a library whose default is not judged (it is not in use unless set).
var tosVars = []struct{ name, unset string }{
	{"NCCL_IB_TC", "0"},
	{"UCX_IB_TRAFFIC_CLASS", ""},
	{"NVSHMEM_IB_TRAFFIC_CLASS", ""},
}

var slVars = []struct{ name, unset string }{
	{"NCCL_IB_SL", "0"},
	{"UCX_IB_SL", ""},
	{"NVSHMEM_IB_SL", ""},
}

func runK8sWorkloadToS(f *model.Fabric) []Finding {
	if f.K8s == nil {
		return nil
	}
	var out []Finding
	want := model.ToSOfDSCP(f.Policy.RoCE.DSCP[0])
	for _, c := range f.K8s.Containers {
		for _, v := range tosVars {
			out = append(out, judgeVar(f, c, v.name, v.unset, want, func(x int, knob string) judge.Judgement { return judge.ToS(f.Policy, x, knob) }, tosText)...)
		}
		if f.Policy.Trust != "pcp" {
			continue
		}
		for _, v := range slVars {
			out = append(out, judgeVar(f, c, v.name, v.unset, f.Policy.RoCE.Priority, func(x int, _ string) judge.Judgement { return judge.HostSL(f.Policy, x) },
				func(x int) string { return fmt.Sprintf("SL %d (PCP %d)", x, x&7) })...)
		}
	}
	return out
}

// judgeVar judges one variable of one container and, when it is wrong,
// makes a finding on each host the workload lands on.
func judgeVar(f *model.Fabric, c *model.K8sContainer, name, unset string, want int, verdict func(int, string) judge.Judgement, text func(int) string) []Finding {
	val, set := c.Env[name]
	if !set && name == "UCX_IB_TRAFFIC_CLASS" && usesPrefix(c, "UCX_") {
		// A container that configures UCX gets UCX's default, auto.
		val, set = model.K8sValue{V: "auto", Pos: c.Pos, Index: -1}, true
		unset = "auto"
	}
	if !set && unset == "" {
		return nil
	}
	x, knob := 0, ""
	switch {
	case val.V == "auto" && val.Via == "":
		x, knob = 106, name+" unset, UCX's default auto (106 on RoCE v2)"
	case !set:
		x, _ = strconv.Atoi(unset)
		knob = name + " unset in the manifest, the library's default " + unset
	case name == "UCX_IB_TRAFFIC_CLASS" && strings.EqualFold(val.V, "auto"):
		// UCX's auto is UCT_IB_DEFAULT_ROCEV2_DSCP, 106, on a RoCE v2 GID
		// (openucx/ucx src/uct/ib/base/ib_iface.c, ib_device.h).
		x, knob = 106, name+"=auto (106 on RoCE v2)"
	default:
		n, err := strconv.Atoi(strings.TrimSpace(val.V))
		if err != nil {
			return k8sFindings(c, Finding{Severity: judge.Error,
				Message:  fmt.Sprintf("%s: %s=%q is not a number: the library refuses or ignores it", c.Who(), name, val.V),
				Expected: text(want), Actual: fmt.Sprintf("%s=%q", name, val.V), Source: val.Pos,
				Changes: []Change{varFix(c, name, val, set, want)}})
		}
		x, knob = n, name+"="+val.V
	}
	j := verdict(x, knob)
	if j.OK {
		return nil
	}
	msg := c.Who() + ": " + j.Reason
	src := c.Pos
	if set && val.Via != "" {
		src = val.Pos
		if val.ConfigMap != nil {
			msg += "; set in " + val.Via
		}
	} else if strings.HasPrefix(name, "NCCL_") {
		msg += "; the image's /etc/nccl.conf, not collected, may still set it"
	}
	if len(c.Missing) > 0 {
		msg += "; not resolved: " + strings.Join(c.Missing, "; ")
	}
	return k8sFindings(c, Finding{Severity: j.Severity, Message: msg, Expected: text(want), Actual: text(x) + " via " + knob,
		Source: src, Changes: []Change{varFix(c, name, val, set, want)}})
}

// usesPrefix reports whether the container sets a variable with prefix.
func usesPrefix(c *model.K8sContainer, prefix string) bool {
	for k := range c.Env {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

func k8sFindings(c *model.K8sContainer, fd Finding) []Finding {
	var out []Finding
	for _, dev := range k8sDevices(c.Hosts, c.Workload) {
		x := fd
		x.Device = dev
		out = append(out, x)
	}
	return out
}

// varFix patches where the variable came from: the ConfigMap entry, the
// env entry, or a new env entry.
func varFix(c *model.K8sContainer, name string, val model.K8sValue, set bool, want int) Change {
	w := strconv.Itoa(want)
	switch {
	case set && val.Via == "":
		set = false // UCX's default: add the variable
		fallthrough
	case !set:
		if c.EnvSet && len(c.Env) > 0 {
			return k8sPatch(c.Workload,
				[]patchOp{{Op: "add", Path: c.Path + "/env/-", Value: map[string]string{"name": name, "value": w}}},
				[]patchOp{{Op: "remove", Path: fmt.Sprintf("%s/env/%d", c.Path, len(c.Env))}})
		}
		return k8sPatch(c.Workload,
			[]patchOp{{Op: "add", Path: c.Path + "/env", Value: []map[string]string{{"name": name, "value": w}}}},
			[]patchOp{{Op: "remove", Path: c.Path + "/env"}})
	case val.ConfigMap != nil:
		p := "/data/" + jsonKey(val.Key)
		return k8sPatch(*val.ConfigMap, []patchOp{{Op: "replace", Path: p, Value: w}}, []patchOp{{Op: "replace", Path: p, Value: val.V}})
	}
	p := fmt.Sprintf("%s/env/%d/value", c.Path, val.Index)
	return k8sPatch(c.Workload, []patchOp{{Op: "replace", Path: p, Value: w}}, []patchOp{{Op: "replace", Path: p, Value: val.V}})
}
