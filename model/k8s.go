package model

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors/k8s"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
)

// K8sFabric is what the Kubernetes manifests ask of the hosts.
type K8sFabric struct {
	Manifests *k8s.Manifests
	// Mapped is true when some inventory host names its node (k8s_node,
	// k8s_labels): selectors then land on hosts, else findings stay on
	// the manifests.
	Mapped     bool
	Templates  []*K8sTemplate
	Containers []*K8sContainer
	// API is the installed operator API the manifests show (its CRD);
	// nil when k8s/ holds none.
	API *OperatorAPI
}

// K8sSetting is a value a manifest sets, or the default that applies;
// Default says which default (or which profile) when the template does
// not write it. NotSet, when not empty, says why the template sets no
// such value, or why the model cannot tell which: V is then meaningless
// and the value is not judged.
type K8sSetting[T any] struct {
	V       T
	Pos     source.Pos
	Default string
	NotSet  string
}

// K8sTemplate is a NicConfigurationTemplate with roceOptimized or
// spectrumXOptimized enabled, resolved to what the
// nic-configuration-operator applies to the NICs it selects. roceOptimized
// (Mellanox/nic-configuration-operator README.md, "Configuration
// details"): trust dscp, PFC on priority 3 and ToS 0 unless qos overrides
// them; nvconfig CNP_DSCP_P1/P2=4 and CNP_802P_PRIO_P1/P2=6, which
// rawNvConfig overrides, "raw wins on key collisions"
// (pkg/configuration/configvalidation.go). spectrumXOptimized: what its
// profile sets (k8s_spectrumx.go).
type K8sTemplate struct {
	*k8s.NicTemplate
	Hosts []string
	Trust K8sSetting[string]
	// PFC are the priorities with PFC on.
	PFC K8sSetting[[]int]
	ToS K8sSetting[int]
	// RoceMode is roceOptimized.roceMode as the operator gets it (unset
	// when the CRD in k8s/ has no such field).
	RoceMode k8s.Int
	// CNP holds CNP_DSCP_P1/P2 and CNP_802P_PRIO_P1/P2 by name, and for
	// Spectrum-X the runtime CNP DSCP (CNPSysfs).
	CNP map[string]K8sSetting[int]
	// SpectrumX is set when spectrumXOptimized is enabled.
	SpectrumX *K8sSpectrumX
	// Conflict is true when roceOptimized is enabled beside
	// spectrumXOptimized, which the CRD refuses: nothing else of the
	// template is judged.
	Conflict bool
	// API is the fabric's OperatorAPI (nil: unknown).
	API *OperatorAPI
}

// OperatorCNP are the nvconfig values roceOptimized always sets.
var OperatorCNP = map[string]int{"CNP_DSCP_P1": 4, "CNP_DSCP_P2": 4, "CNP_802P_PRIO_P1": 6, "CNP_802P_PRIO_P2": 6}

// K8sContainer is one container of a workload's pod template that carries
// RDMA traffic, with its environment as the kubelet builds it.
type K8sContainer struct {
	Workload *k8s.Workload
	Pod      *k8s.PodTemplate
	*k8s.Container
	Env     map[string]k8s.Value
	Missing []string
	Hosts   []string
}

// Who names the container in messages: "PyTorchJob ml/train Worker
// container pytorch".
func (c *K8sContainer) Who() string {
	s := c.Workload.Kind + " " + c.Workload.Namespace + "/" + c.Workload.Name
	if c.Pod.Role != "" {
		s += " " + c.Pod.Role
	}
	kind := "container"
	if c.Init {
		kind = "init container"
	}
	return s + " " + kind + " " + c.Name
}

// rdmaEnv are the prefixes of the variables of the RDMA libraries.
var rdmaEnv = []string{"NCCL_", "UCX_", "NVSHMEM_"}

// usesRDMA: a container is judged when it sets a variable of NCCL, UCX or
// NVSHMEM, or asks for an RDMA device or a GPU (rdma/..., nvidia.com/gpu,
// the resource names of the RDMA shared device plugin and the NVIDIA
// device plugin). A container without any of them (a web server, an init
// step) is not expected to mark RoCE.
func usesRDMA(env map[string]k8s.Value, c *k8s.Container) bool {
	for k := range env {
		for _, p := range rdmaEnv {
			if strings.HasPrefix(k, p) {
				return true
			}
		}
	}
	for _, r := range c.Resources {
		if strings.HasPrefix(r, "rdma/") || r == "nvidia.com/gpu" || strings.Contains(r, "rdma") {
			return true
		}
	}
	return false
}

// BuildK8s resolves the manifests against the inventory's node mapping.
func BuildK8s(f *Fabric, inv *inventory.Inventory, m *k8s.Manifests) {
	if m == nil {
		return
	}
	k := &K8sFabric{Manifests: m}
	type node struct {
		host   string
		labels map[string]string
	}
	var nodes []node
	for _, h := range inv.Hosts {
		if l, ok := h.NodeLabels(); ok {
			nodes = append(nodes, node{h.Name, l})
		}
	}
	k.Mapped = len(nodes) > 0
	selected := func(sel map[string]string, what string, at source.Pos) []string {
		if !k.Mapped {
			return nil
		}
		var out []string
		for _, n := range nodes {
			if Selects(sel, n.labels) {
				out = append(out, n.host)
			}
		}
		if len(out) == 0 {
			f.Notes = append(f.Notes, &source.Error{Pos: at, Msg: fmt.Sprintf("%s selects no inventory host (nodeSelector %s): judged on its own", what, selectorText(sel))})
		}
		return out
	}
	k.API = operatorAPI(f, m)
	for _, t := range m.Templates {
		roce := t.RoCE != nil && t.RoCE.Enabled
		spx := t.SpectrumX != nil && t.SpectrumX.Enabled
		if k.API.Known() && spx && !k.API.Has(FieldSpectrumX) {
			f.Notes = append(f.Notes, &source.Error{Pos: t.SpectrumX.Pos, Msg: fmt.Sprintf("%s %s/%s: the NicConfigurationTemplate CRD (%s) has no spectrumXOptimized (it came with %s): the API server prunes or refuses it, and it is not judged", t.Kind, t.Namespace, t.Name, k.API.Where(), FieldSpectrumX.Since)})
			spx = false
		}
		if t.ResetToDefault || !roce && !spx {
			continue
		}
		var kt *K8sTemplate
		switch {
		case roce && spx:
			kt = &K8sTemplate{NicTemplate: t, Conflict: true, SpectrumX: &K8sSpectrumX{SpectrumX: t.SpectrumX}}
		case spx:
			kt = resolveSpectrumX(f, t, m, k.API)
		default:
			kt = resolveTemplate(f, t, k.API)
		}
		kt.API = k.API
		if q := t.RoCE; roce && !spx && q.QoS != nil && q.QoS.PFC.Set {
			q := q.QoS
			if _, ok := pfcList(q.PFC.V); !ok {
				// The CRD's pattern refuses it, so the API server never
				// stored this template as written.
				f.Problems = append(f.Problems, &source.Error{Pos: q.PFC.Pos, Msg: fmt.Sprintf("roceOptimized.qos.pfc %q is not eight comma-separated 0 or 1 (the CRD's pattern ^([01],){7}[01]$)", q.PFC.V)})
			}
		}
		kt.Hosts = selected(t.NodeSelector, t.Kind+" "+t.Namespace+"/"+t.Name, t.Pos)
		k.Templates = append(k.Templates, kt)
	}
	for _, w := range m.Workloads {
		for _, p := range w.Pods {
			if !p.Affinity.IsZero() {
				f.Notes = append(f.Notes, &source.Error{Pos: p.Affinity, Msg: "nodeAffinity is not evaluated: the pod template is placed by its nodeSelector alone"})
			}
			var hosts []string
			judged := false
			for _, c := range p.Containers {
				env, missing := m.Env(w.Namespace, c)
				if !usesRDMA(env, c) {
					continue
				}
				if !judged {
					hosts = selected(p.NodeSelector, w.Kind+" "+w.Namespace+"/"+w.Name, p.Pos)
					judged = true
				}
				k.Containers = append(k.Containers, &K8sContainer{Workload: w, Pod: p, Container: c, Env: env, Missing: missing, Hosts: hosts})
			}
		}
	}
	f.K8s = k
}

// Selects reports whether a nodeSelector matches a node's labels: every
// pair must be there (kubernetes.io/docs/concepts/scheduling-eviction/
// assign-pod-node, "nodeSelector"). An empty selector selects every node.
func Selects(sel, labels map[string]string) bool {
	for k, v := range sel {
		if l, ok := labels[k]; !ok || l != v {
			return false
		}
	}
	return true
}

func selectorText(sel map[string]string) string {
	if len(sel) == 0 {
		return "{}"
	}
	var kv []string
	for k, v := range sel {
		kv = append(kv, k+"="+v)
	}
	sort.Strings(kv)
	return strings.Join(kv, ",")
}

// resolveTemplate applies the operator's documented defaults. Where the
// CRD in k8s/ shows an API without a field the template writes (tos,
// rawNvConfig, roceMode), the API server prunes or refuses it: the value
// is not the operator's, and a note says so.
func resolveTemplate(f *Fabric, t *k8s.NicTemplate, api *OperatorAPI) *K8sTemplate {
	kt := &K8sTemplate{NicTemplate: t, CNP: map[string]K8sSetting[int]{}}
	at := t.RoCE.Pos
	kt.Trust = K8sSetting[string]{V: "dscp", Pos: at, Default: "roceOptimized's default trust dscp"}
	kt.PFC = K8sSetting[[]int]{V: []int{3}, Pos: at, Default: "roceOptimized's default PFC on priority 3"}
	kt.ToS = K8sSetting[int]{V: 0, Pos: at, Default: "roceOptimized's default ToS 0"}
	missing := func(field APIField, written source.Pos) bool {
		if !api.Known() || api.Has(field) {
			return false
		}
		if !written.IsZero() && written.Line > 0 {
			f.Notes = append(f.Notes, &source.Error{Pos: written, Msg: fmt.Sprintf("spec.%s is not in the NicConfigurationTemplate CRD at %s (it came with %s): the API server prunes or refuses it, and the operator does not apply it", field.Path, api.Where(), field.Since)})
		}
		return true
	}
	if missing(FieldToS, source.Pos{}) {
		// Before tos the operator set no ToS at all.
		kt.ToS = K8sSetting[int]{Pos: at, NotSet: fmt.Sprintf("the installed operator (CRD at %s) has no roceOptimized.qos.tos and sets no ToS: the applications' own ToS (NCCL_IB_TC) decides", api.Where())}
	}
	if q := t.RoCE.QoS; q != nil {
		if q.Trust.Set && q.Trust.V != "" {
			kt.Trust = K8sSetting[string]{V: q.Trust.V, Pos: q.Trust.Pos}
		}
		if on, ok := pfcList(q.PFC.V); q.PFC.Set && ok {
			kt.PFC = K8sSetting[[]int]{V: on, Pos: q.PFC.Pos}
		}
		// tos is `json:"tos,omitempty"`: a written 0 and no tos are the
		// same object to the operator, which then applies its ToS 0.
		switch {
		case q.ToS.Set && missing(FieldToS, q.ToS.Pos):
		case q.ToS.Set && q.ToS.V != 0:
			kt.ToS = K8sSetting[int]{V: q.ToS.V, Pos: q.ToS.Pos}
		case q.ToS.Set:
			kt.ToS.Pos = q.ToS.Pos
		}
	}
	if rm := t.RoCE.RoceMode; !rm.Set || !missing(FieldRoceMode, rm.Pos) {
		kt.RoceMode = rm
	}
	for name, v := range OperatorCNP {
		kt.CNP[name] = K8sSetting[int]{V: v, Pos: at, Default: "roceOptimized's nvconfig " + name + "=" + strconv.Itoa(v)}
	}
	if len(t.RawNvConfig) > 0 && missing(FieldRawNvConfig, t.RawNvConfig[0].Pos) {
		return kt
	}
	for _, p := range t.RawNvConfig {
		if _, ok := OperatorCNP[p.Name]; ok {
			if v, err := strconv.Atoi(strings.TrimSpace(p.Value)); err == nil {
				kt.CNP[p.Name] = K8sSetting[int]{V: v, Pos: p.Pos}
			}
		}
	}
	return kt
}

// pfcList reads "0,0,0,1,0,0,0,0" (the CRD's pattern ^([01],){7}[01]$)
// into the priorities that are on.
func pfcList(s string) ([]int, bool) {
	f := strings.Split(s, ",")
	if len(f) != 8 {
		return nil, false
	}
	on := []int{}
	for i, x := range f {
		switch strings.TrimSpace(x) {
		case "1":
			on = append(on, i)
		case "0":
		default:
			return nil, false
		}
	}
	return on, true
}
