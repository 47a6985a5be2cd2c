package checks

import (
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

var k8sNicTemplate = &Check{
	ID:       "k8s-nic-template",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesK8s(false),
	Severity: judge.Error,
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
With spectrumXOptimized.enabled the values come from the Spectrum-X profile its version names: from
Network Operator 26.7 a ConfigMap of that name labelled
network.nvidia.com/operator.nic-configuration.spectrum-x-profile (its data.profile, runtimeConfig.roce:
the Trust, PFC and Type of Service parameters for the template's NIC type, planes and multiplane
mode), up to 26.4 the operator's built-in RA1.3 ... RA2.2 profile (trust dscp, PFC on priority 3, and
in 25.10 ToS 96 for RA1.3 and RA2.0). A profile that sets no ToS leaves it to the applications
(k8s-workload-tos, host-tos). Both optimizations enabled is an error: "When Spectrum-X optimizations
are enabled, roceOptimized must not be enabled" (Mellanox/network-operator-docs), and the CRD refuses
such a template. A profile k8s/ does not hold, an unknown version, or a release the manifests do not
show is a note naming what is not verified, and that part is not judged. The operator kept apiVersion
v1alpha1 while adding tos (Network Operator 25.10) and roceMode (26.7), so which fields the cluster's
API has is read from a NicConfigurationTemplate CustomResourceDefinition in k8s/ (the operator's
Helm chart crds/): a field it lacks is pruned (a note), and its release picks the built-in profiles.
Findings land on the inventory hosts whose k8s_node/k8s_labels the nodeSelector matches, else on the
template (kind/namespace/name). The fix is a kubectl JSON patch of the template, with its rollback;
an operation that writes tos or roceMode is printed only when the CRD shows the field, otherwise the
finding gives the patch to apply once ` + "`kubectl explain`" + ` shows it. A Spectrum-X profile value gets no
command: it is NVIDIA's validated tuning, and the policy or the profile must change.`,
	Inputs: []Input{K8sManifests},
	Run:    runK8sNicTemplate,
}

const roceQoSPath = "/spec/template/roceOptimized/qos"

// spectrumXRule is the docs' rule and the CRD's validation message for a
// template with both optimizations on: Mellanox/network-operator-docs
// docs/nic-conf-operator/spectrum-x-configuration.rst (and, from 26.7,
// docs/spectrum-x/spectrum-x-configuration.rst), "Validation rules"; the
// x-kubernetes-validations message of ConfigurationTemplateSpec in every
// CRD since network-operator-v25.10.0 (api/v1alpha1/nicconfigurationtemplate_types.go).
const spectrumXRule = "both spectrumXOptimized and roceOptimized are enabled: \"When Spectrum-X optimizations are enabled, roceOptimized must not be enabled (RoCE settings are included in the Spectrum-X configuration)\" " +
	"(Mellanox/network-operator-docs, Spectrum-X NIC Configuration, \"Validation rules\"), and the CRD's rule refuses the template: " +
	"\"spectrumXOptimized includes RoCE optimizations, so separate roceOptimized section must not be enabled\"; the API server does not store it, so no NIC gets its settings. " +
	"Remove roceOptimized from the manifest; qoslint prints no command, since there is no stored object to patch"

// tmplProblem is one judged value of a template that breaks the policy.
type tmplProblem struct {
	j                judge.Judgement
	expected, actual string
	at               source.Pos
	// field is the gated field the problem's fix writes (its caveat).
	field string
}

func runK8sNicTemplate(f *model.Fabric) []Finding {
	if f.K8s == nil {
		return nil
	}
	var out []Finding
	p := f.Policy
	want := model.ToSOfDSCP(p.RoCE.DSCP[0])
	for _, t := range f.K8s.Templates {
		if t.Conflict {
			for _, dev := range k8sDevices(t.Hosts, t.Object) {
				out = append(out, Finding{Severity: judge.Error, Device: dev, Message: k8sWho(t.Object) + ": " + spectrumXRule,
					Expected: "spectrumXOptimized alone", Actual: "spectrumXOptimized and roceOptimized enabled", Source: t.RoCE.Pos})
			}
			continue
		}
		var probs []tmplProblem
		if s := t.Trust; s.NotSet == "" {
			if j := judge.HostTrust(p, s.V); !j.OK {
				probs = append(probs, tmplProblem{j, "trust " + p.Trust, "trust " + s.V + via(s.Default), s.Pos, ""})
			}
		}
		if s := t.PFC; s.NotSet == "" {
			if j := judge.HostPFC(p, s.V); !j.OK {
				probs = append(probs, tmplProblem{j, "pfc " + pfcString(judge.WantedPFC(p, s.V)), "pfc " + pfcString(s.V) + via(s.Default), s.Pos, ""})
			}
		}
		if s := t.ToS; s.NotSet == "" {
			knob := "roceOptimized.qos.tos=" + strconv.Itoa(s.V)
			switch {
			case t.SpectrumX != nil:
				knob = "the ToS " + strconv.Itoa(s.V) + " of " + t.SpectrumX.Profile
			case s.Default != "":
				knob = "roceOptimized.qos.tos unset or 0, the operator's default ToS 0"
			}
			if j := judge.ToS(p, s.V, knob); !j.OK {
				probs = append(probs, tmplProblem{j, tosText(want), tosText(s.V) + via(s.Default), s.Pos, model.FieldToS.Path})
			}
		}
		if rm := t.RoceMode; rm.Known && rm.V == 1 && p.Trust == "dscp" {
			probs = append(probs, tmplProblem{judge.Fail(judge.Error, "roceMode 1 is RoCE v1, which has no IP header and so no DSCP: under a DSCP policy no switch can classify it"), "roceMode 2 (RoCE v2)", "roceMode 1 (RoCE v1)", rm.Origin.Pos(), model.FieldRoceMode.Path})
		}
		if len(probs) == 0 {
			continue
		}
		var changes []Change
		caveats := map[string]string{}
		if t.SpectrumX == nil {
			if ch, cv := gatedPatch(t.Object, t.API, templateOps(t, p, want)); ch != nil {
				changes, caveats = []Change{*ch}, cv
			} else {
				caveats = cv
			}
		}
		for _, dev := range k8sDevices(t.Hosts, t.Object) {
			for _, pr := range probs {
				pos := pr.at
				if pos.Line == 0 {
					pos = t.RoCE.Pos
				}
				msg := k8sWho(t.Object) + ": " + pr.j.Reason
				switch {
				case t.SpectrumX != nil:
					msg += "; qoslint prints no command: the value comes from " + t.SpectrumX.Profile + ", NVIDIA's tuning for the Spectrum-X Reference Architecture: align the fabric's policy with it, or the profile"
				case caveats[pr.field] != "":
					msg += "; " + caveats[pr.field]
				}
				out = append(out, Finding{
					Severity: pr.j.Severity, Device: dev,
					Message:  msg,
					Expected: pr.expected, Actual: pr.actual,
					Source: pos, Changes: changes,
				})
			}
		}
	}
	return out
}

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

// templateOps are the JSON patch operations that set every policy value
// the template misses: the whole qos object when there is none (trust and
// pfc are required fields of QosSpec), else each field, and roceMode 2.
// The ToS and roceMode are fields some releases lack (gatedPatch).
func templateOps(t *model.K8sTemplate, p policy.Policy, want int) []gatedOp {
	var ops []gatedOp
	pfc := pfcString(judge.WantedPFC(p, t.PFC.V))
	tosBad := t.ToS.NotSet == "" && !judge.ToS(p, t.ToS.V, "").OK
	q := t.RoCE.QoS
	if q == nil {
		v := map[string]any{"trust": p.Trust, "pfc": pfc}
		op := gatedOp{fix: patchOp{Op: "add", Path: roceQoSPath, Value: v}, undo: patchOp{Op: "remove", Path: roceQoSPath}}
		if tosBad {
			v["tos"] = want
			op.field = &model.FieldToS
		}
		ops = append(ops, op)
	} else {
		set := func(key string, v any, wasSet bool, old any, field *model.APIField) {
			op := gatedOp{fix: patchOp{Op: "add", Path: roceQoSPath + "/" + key, Value: v}, undo: patchOp{Op: "remove", Path: roceQoSPath + "/" + key}, field: field}
			if wasSet {
				op.undo = patchOp{Op: "replace", Path: roceQoSPath + "/" + key, Value: old}
			}
			ops = append(ops, op)
		}
		if !judge.HostTrust(p, t.Trust.V).OK {
			set("trust", p.Trust, q.Trust.Known, q.Trust.V, nil)
		}
		if !judge.HostPFC(p, t.PFC.V).OK {
			set("pfc", pfc, q.PFC.Known, q.PFC.V, nil)
		}
		if tosBad {
			set("tos", want, q.ToS.Known, q.ToS.V, &model.FieldToS)
		}
	}
	if rm := t.RoceMode; rm.Known && rm.V == 1 && p.Trust == "dscp" {
		ops = append(ops, gatedOp{fix: patchOp{Op: "replace", Path: "/spec/template/roceOptimized/roceMode", Value: 2},
			undo: patchOp{Op: "replace", Path: "/spec/template/roceOptimized/roceMode", Value: 1}, field: &model.FieldRoceMode})
	}
	return ops
}
