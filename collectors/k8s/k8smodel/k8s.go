// Package k8smodel builds the model's Kubernetes part from the manifests
// collectors/k8s reads: it resolves each NicConfigurationTemplate to what
// the nic-configuration-operator applies, places templates and workloads
// on the inventory hosts their nodeSelector picks, and converts the
// parser's objects into the model's own types. It lives below
// collectors/k8s, not in it, because it imports the model, which imports
// the collectors root, which imports collectors/k8s.
package k8smodel

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors/k8s"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

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

// Build resolves the manifests against the inventory's node mapping into
// f.K8s.
func Build(f *model.Fabric, inv *inventory.Inventory, m *k8s.Manifests) {
	if m == nil {
		return
	}
	k := &model.K8sFabric{}
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
		if k.API.Known() && spx && !k.API.Has(model.FieldSpectrumX) {
			f.Notes = append(f.Notes, &source.Error{Pos: t.SpectrumX.Pos, Msg: fmt.Sprintf("%s %s/%s: the NicConfigurationTemplate CRD (%s) has no spectrumXOptimized (it came with %s): the API server prunes or refuses it, and it is not judged", t.Kind, t.Namespace, t.Name, k.API.Where(), model.FieldSpectrumX.Since)})
			spx = false
		}
		if t.ResetToDefault || !roce && !spx {
			continue
		}
		var kt *model.K8sTemplate
		switch {
		case roce && spx:
			kt = newTemplate(t)
			kt.Conflict, kt.SpectrumX = true, &model.K8sSpectrumX{Pos: t.SpectrumX.Pos}
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
				k.Containers = append(k.Containers, &model.K8sContainer{Workload: object(w.Object), Role: p.Role, Name: c.Name, Init: c.Init, Pos: c.Pos,
					Path: c.Path, EnvSet: c.EnvSet, Env: values(env), Missing: missing, Hosts: hosts})
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
func resolveTemplate(f *model.Fabric, t *k8s.NicTemplate, api *model.OperatorAPI) *model.K8sTemplate {
	kt := newTemplate(t)
	kt.CNP = map[string]model.K8sSetting[int]{}
	at := t.RoCE.Pos
	kt.Trust = model.K8sSetting[string]{V: "dscp", Pos: at, Default: "roceOptimized's default trust dscp"}
	kt.PFC = model.K8sSetting[[]int]{V: []int{3}, Pos: at, Default: "roceOptimized's default PFC on priority 3"}
	kt.ToS = model.K8sSetting[int]{V: 0, Pos: at, Default: "roceOptimized's default ToS 0"}
	missing := func(field model.APIField, written source.Pos) bool {
		if !api.Known() || api.Has(field) {
			return false
		}
		if !written.IsZero() && written.Line > 0 {
			f.Notes = append(f.Notes, &source.Error{Pos: written, Msg: fmt.Sprintf("spec.%s is not in the NicConfigurationTemplate CRD at %s (it came with %s): the API server prunes or refuses it, and the operator does not apply it", field.Path, api.Where(), field.Since)})
		}
		return true
	}
	if missing(model.FieldToS, source.Pos{}) {
		// Before tos the operator set no ToS at all.
		kt.ToS = model.K8sSetting[int]{Pos: at, NotSet: fmt.Sprintf("the installed operator (CRD at %s) has no roceOptimized.qos.tos and sets no ToS: the applications' own ToS (NCCL_IB_TC) decides", api.Where())}
	}
	if q := t.RoCE.QoS; q != nil {
		if q.Trust.Set && q.Trust.V != "" {
			kt.Trust = model.K8sSetting[string]{V: q.Trust.V, Pos: q.Trust.Pos}
		}
		if on, ok := pfcList(q.PFC.V); q.PFC.Set && ok {
			kt.PFC = model.K8sSetting[[]int]{V: on, Pos: q.PFC.Pos}
		}
		// tos is `json:"tos,omitempty"`: a written 0 and no tos are the
		// same object to the operator, which then applies its ToS 0.
		switch {
		case q.ToS.Set && missing(model.FieldToS, q.ToS.Pos):
		case q.ToS.Set && q.ToS.V != 0:
			kt.ToS = model.K8sSetting[int]{V: q.ToS.V, Pos: q.ToS.Pos}
		case q.ToS.Set:
			kt.ToS.Pos = q.ToS.Pos
		}
	}
	if rm := t.RoCE.RoceMode; !rm.Set || !missing(model.FieldRoceMode, rm.Pos) {
		kt.RoceMode = num(rm)
	}
	for name, v := range model.OperatorCNP {
		kt.CNP[name] = model.K8sSetting[int]{V: v, Pos: at, Default: "roceOptimized's nvconfig " + name + "=" + strconv.Itoa(v)}
	}
	if len(t.RawNvConfig) > 0 && missing(model.FieldRawNvConfig, t.RawNvConfig[0].Pos) {
		return kt
	}
	for _, p := range t.RawNvConfig {
		if _, ok := model.OperatorCNP[p.Name]; ok {
			if v, err := strconv.Atoi(strings.TrimSpace(p.Value)); err == nil {
				kt.CNP[p.Name] = model.K8sSetting[int]{V: v, Pos: p.Pos}
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

// operatorAPI picks the CRD; two that differ are a note, and the first is
// used.
func operatorAPI(f *model.Fabric, m *k8s.Manifests) *model.OperatorAPI {
	if len(m.CRDs) == 0 {
		return nil
	}
	crd := m.CRDs[0]
	a := &model.OperatorAPI{CRD: &model.K8sCRD{Pos: crd.Pos, Fields: crd.Fields, ProfileEnum: crd.ProfileEnum}}
	if a.CRD.Fields == nil {
		f.Notes = append(f.Notes, &source.Error{Pos: a.CRD.Pos, Msg: "the NicConfigurationTemplate CRD has no v1alpha1 openAPIV3Schema: the installed operator's fields are not known"})
	}
	for _, c := range m.CRDs[1:] {
		if len(c.Fields) != len(a.CRD.Fields) || !slices.Equal(c.ProfileEnum, a.CRD.ProfileEnum) {
			f.Notes = append(f.Notes, &source.Error{Pos: c.Pos, Msg: fmt.Sprintf("a second NicConfigurationTemplate CRD, different from the one at %s, which is the one used", a.CRD.Pos)})
		}
	}
	return a
}

// newTemplate is t as the model holds it, before the operator's
// resolution: what the checks name, patch and place.
func newTemplate(t *k8s.NicTemplate) *model.K8sTemplate {
	kt := &model.K8sTemplate{Object: object(t.Object), RawSet: t.RawSet}
	if r := t.RoCE; r != nil {
		kt.RoCE = &model.K8sRoCE{Pos: r.Pos}
		if q := r.QoS; q != nil {
			kt.RoCE.QoS = &model.K8sQoS{Trust: str(q.Trust), PFC: str(q.PFC), ToS: num(q.ToS)}
		}
	}
	for _, p := range t.RawNvConfig {
		kt.RawNvConfig = append(kt.RawNvConfig, model.K8sNvParam{Name: p.Name, Value: p.Value, Pos: p.Pos})
	}
	return kt
}

func object(o k8s.Object) model.K8sObject {
	return model.K8sObject{Kind: o.Kind, Group: o.Group, Namespace: o.Namespace, Name: o.Name, Pos: o.Pos}
}

// str and num are a manifest's values as the model holds them: known
// when the key is written.
func str(v k8s.Str) model.Value[string] {
	return model.Value[string]{V: v.V, Origin: model.At(v.Pos), Known: v.Set}
}

func num(v k8s.Int) model.Value[int] {
	return model.Value[int]{V: v.V, Origin: model.At(v.Pos), Known: v.Set}
}

// values converts a container's environment.
func values(env map[string]k8s.Value) map[string]model.K8sValue {
	if env == nil {
		return nil
	}
	out := make(map[string]model.K8sValue, len(env))
	for name, v := range env {
		mv := model.K8sValue{V: v.V, Pos: v.Pos, Via: v.Via, Key: v.Key, Index: v.Index}
		if v.ConfigMap != nil {
			o := object(v.ConfigMap.Object)
			mv.ConfigMap = &o
		}
		out[name] = mv
	}
	return out
}
