package checks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/inventory"
	"github.com/qoslint/qoslint/model"
)

var k8sNicTemplate = &Check{
	ID:       "k8s-nic-template",
	Kind:     KindConfig,
	Devices:  Hosts,
	Severity: Error,
	Title:    "A NicConfigurationTemplate sets the NICs it selects to the policy's trust, PFC and ToS",
	Doc: `The NVIDIA nic-configuration-operator applies a NicConfigurationTemplate
(configuration.net.nvidia.com/v1alpha1) to the NICs of the nodes its spec.nodeSelector selects. With
spec.template.roceOptimized.enabled it sets trust dscp, PFC on priority 3 and ToS 0 on each PF at every
boot, unless roceOptimized.qos overrides trust, pfc ("0,0,0,1,0,0,0,0") or tos
(Mellanox/nic-configuration-operator README.md "Configuration details";
api/v1alpha1/nicconfigurationtemplate_types.go). The template is judged as the host policy of the
nodes it selects: trust as host-trust, pfc as host-pfc, tos as host-tos. The default ToS 0 is the
classic mistake: RoCE leaves with DSCP 0 and every switch queues it as best effort. roceMode 1 is RoCE
v1, which has no IP header and so no DSCP: under a DSCP policy nothing downstream can classify it.
Findings land on the inventory hosts whose k8s_node/k8s_labels the nodeSelector matches, else on the
template (kind/namespace/name). The fix is a kubectl JSON patch of the template, with its rollback.`,
	Inputs: []Input{K8sManifests},
	Run:    runK8sNicTemplate,
}

const roceQoSPath = "/spec/template/roceOptimized/qos"

func runK8sNicTemplate(f *model.Fabric) []Finding {
	if f.K8s == nil {
		return nil
	}
	var out []Finding
	p := f.Policy
	want := model.ToSOfDSCP(p.RoCE.DSCP[0])
	for _, t := range f.K8s.Templates {
		type problem struct {
			j                Judgement
			expected, actual string
			at               setting
		}
		var probs []problem
		if j := JudgeHostTrust(p, t.Trust.V); !j.OK {
			probs = append(probs, problem{j, "trust " + p.Trust, "trust " + t.Trust.V + via(t.Trust.Default), setting(t.Trust.Pos.Line)})
		}
		if j := JudgeHostPFC(p, t.PFC.V); !j.OK {
			probs = append(probs, problem{j, "pfc " + pfcString([]int{p.RoCE.Priority}), "pfc " + pfcString(t.PFC.V) + via(t.PFC.Default), setting(t.PFC.Pos.Line)})
		}
		knob := "roceOptimized.qos.tos=" + strconv.Itoa(t.ToS.V)
		if t.ToS.Default != "" {
			knob = "roceOptimized.qos.tos unset or 0, the operator's default ToS 0"
		}
		if j := JudgeToS(p, t.ToS.V, knob); !j.OK {
			probs = append(probs, problem{j, tosText(want), tosText(t.ToS.V) + via(t.ToS.Default), setting(t.ToS.Pos.Line)})
		}
		rm := t.RoCE.RoceMode
		if rm.Set && rm.V == 1 && p.Trust == "dscp" {
			probs = append(probs, problem{fail(Error, "roceMode 1 is RoCE v1, which has no IP header and so no DSCP: under a DSCP policy no switch can classify it"), "roceMode 2 (RoCE v2)", "roceMode 1 (RoCE v1)", setting(rm.Pos.Line)})
		}
		if len(probs) == 0 {
			continue
		}
		change := templateFix(t, p, want)
		for _, dev := range k8sDevices(t.Hosts, t.Object) {
			for _, pr := range probs {
				pos := t.RoCE.Pos
				pos.Line = int(pr.at)
				if pos.Line == 0 {
					pos = t.RoCE.Pos
				}
				out = append(out, Finding{
					Severity: pr.j.Severity, Device: dev,
					Message:  k8sWho(t.Object) + ": " + pr.j.Reason,
					Expected: pr.expected, Actual: pr.actual,
					Source: pos, Changes: []Change{change},
				})
			}
		}
	}
	return out
}

// setting is the line a judged value was written on (0: the default).
type setting int

func via(def string) string {
	if def == "" {
		return ""
	}
	return " (" + def + ")"
}

// pfcString writes PFC priorities as the template's "0,0,0,1,0,0,0,0".
func pfcString(on []int) string {
	f := []string{"0", "0", "0", "0", "0", "0", "0", "0"}
	for _, p := range on {
		if p >= 0 && p < 8 {
			f[p] = "1"
		}
	}
	return strings.Join(f, ",")
}

// templateFix is one JSON patch that sets every policy value the template
// misses: the whole qos object when there is none (trust and pfc are
// required fields of QosSpec), else each field, and roceMode 2.
func templateFix(t *model.K8sTemplate, p inventory.Policy, want int) Change {
	var fix, undo []patchOp
	pfc := pfcString([]int{p.RoCE.Priority})
	q := t.RoCE.QoS
	if q == nil {
		fix = append(fix, patchOp{Op: "add", Path: roceQoSPath, Value: map[string]any{"trust": p.Trust, "pfc": pfc, "tos": want}})
		undo = append(undo, patchOp{Op: "remove", Path: roceQoSPath})
	} else {
		set := func(key string, v any, wasSet bool, old any) {
			fix = append(fix, patchOp{Op: "add", Path: roceQoSPath + "/" + key, Value: v})
			if wasSet {
				undo = append([]patchOp{{Op: "replace", Path: roceQoSPath + "/" + key, Value: old}}, undo...)
			} else {
				undo = append([]patchOp{{Op: "remove", Path: roceQoSPath + "/" + key}}, undo...)
			}
		}
		if !JudgeHostTrust(p, t.Trust.V).OK {
			set("trust", p.Trust, q.Trust.Set, q.Trust.V)
		}
		if !JudgeHostPFC(p, t.PFC.V).OK {
			set("pfc", pfc, q.PFC.Set, q.PFC.V)
		}
		if !JudgeToS(p, t.ToS.V, "").OK {
			set("tos", want, q.ToS.Set, q.ToS.V)
		}
	}
	if rm := t.RoCE.RoceMode; rm.Set && rm.V == 1 && p.Trust == "dscp" {
		fix = append(fix, patchOp{Op: "replace", Path: "/spec/template/roceOptimized/roceMode", Value: 2})
		undo = append([]patchOp{{Op: "replace", Path: "/spec/template/roceOptimized/roceMode", Value: 1}}, undo...)
	}
	return k8sPatch(t.Object, fix, undo)
}

var k8sCNPConflict = &Check{
	ID:       "k8s-cnp-conflict",
	Kind:     KindConfig,
	Devices:  Hosts,
	Severity: Error,
	Title:    "roceOptimized's CNP marking (DSCP 4, 802.1p 6) agrees with the policy's CNP class",
	Doc: `A NicConfigurationTemplate with roceOptimized.enabled always sets the NIC firmware's nvconfig
CNP_DSCP_P1/P2=4 and CNP_802P_PRIO_P1/P2=6 (Mellanox/nic-configuration-operator README.md
"Configuration details"), and has no knob to change them. Under a policy whose CNP DSCP is not 4
(48 by default) or whose CNP priority is not 6, the NICs then send their CNPs in a class the
switches do not give the CNP priority: congestion notifications queue behind the data they should
slow down. Only rawNvConfig overrides them ("raw wins on key collisions",
pkg/configuration/configvalidation.go), so the fix adds CNP_DSCP_P1/P2 and CNP_802P_PRIO_P1/P2
there. nvconfig is firmware configuration: it applies after the operator's firmware reset or a
reboot, and a runtime write of /sys/class/net/<if>/ecn/roce_np/cnp_dscp can still override it
(host-cnp judges the collected sysfs).`,
	Inputs: []Input{K8sManifests},
	Run:    runK8sCNPConflict,
}

var cnpParams = []string{"CNP_DSCP_P1", "CNP_DSCP_P2", "CNP_802P_PRIO_P1", "CNP_802P_PRIO_P2"}

func runK8sCNPConflict(f *model.Fabric) []Finding {
	if f.K8s == nil {
		return nil
	}
	var out []Finding
	p := f.Policy
	for _, t := range f.K8s.Templates {
		var reasons, actual []string
		bad := map[string]int{}
		pos := t.RoCE.Pos
		for _, name := range cnpParams {
			s := t.CNP[name]
			var j Judgement
			if strings.HasPrefix(name, "CNP_DSCP") {
				j, bad[name] = JudgeHostCNPDSCP(p, s.V), p.CNP.DSCP
			} else {
				j, bad[name] = JudgeHostCNPPrio(p, s.V), p.CNP.Priority
			}
			if j.OK {
				delete(bad, name)
				continue
			}
			if s.Default == "" {
				pos = s.Pos
			}
			reasons = append(reasons, j.Reason)
			actual = append(actual, fmt.Sprintf("%s=%d%s", name, s.V, via(s.Default)))
		}
		if len(bad) == 0 {
			continue
		}
		msg := k8sWho(t.Object) + ": roceOptimized sets the NIC firmware's CNP marking: " + strings.Join(dedupe(reasons), "; ")
		change := cnpFix(t, bad)
		for _, dev := range k8sDevices(t.Hosts, t.Object) {
			out = append(out, Finding{
				Severity: Error, Device: dev, Message: msg,
				Expected: fmt.Sprintf("CNP DSCP %d, CNP 802.1p priority %d", p.CNP.DSCP, p.CNP.Priority),
				Actual:   strings.Join(actual, ", "),
				Source:   pos, Changes: []Change{change},
			})
		}
	}
	return out
}

func dedupe(s []string) []string {
	var out []string
	for _, x := range s {
		if len(out) == 0 || out[len(out)-1] != x {
			out = append(out, x)
		}
	}
	return out
}

// cnpFix sets the CNP parameters in rawNvConfig: the list when the
// template has none, else each entry (replaced, or appended).
func cnpFix(t *model.K8sTemplate, want map[string]int) Change {
	const raw = "/spec/template/rawNvConfig"
	var fix, undo []patchOp
	if !t.RawSet {
		var list []map[string]string
		for _, n := range cnpParams {
			if v, ok := want[n]; ok {
				list = append(list, map[string]string{"name": n, "value": strconv.Itoa(v)})
			}
		}
		return k8sPatch(t.Object, []patchOp{{Op: "add", Path: raw, Value: list}}, []patchOp{{Op: "remove", Path: raw}})
	}
	next := len(t.RawNvConfig)
	for _, n := range cnpParams {
		v, ok := want[n]
		if !ok {
			continue
		}
		idx := -1
		for i, e := range t.RawNvConfig {
			if e.Name == n {
				idx = i
			}
		}
		if idx >= 0 {
			path := fmt.Sprintf("%s/%d/value", raw, idx)
			fix = append(fix, patchOp{Op: "replace", Path: path, Value: strconv.Itoa(v)})
			undo = append([]patchOp{{Op: "replace", Path: path, Value: t.RawNvConfig[idx].Value}}, undo...)
			continue
		}
		fix = append(fix, patchOp{Op: "add", Path: raw + "/-", Value: map[string]string{"name": n, "value": strconv.Itoa(v)}})
		undo = append([]patchOp{{Op: "remove", Path: fmt.Sprintf("%s/%d", raw, next)}}, undo...)
		next++
	}
	return k8sPatch(t.Object, fix, undo)
}
