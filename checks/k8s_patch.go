package checks

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/qoslint/qoslint/model"
)

// patchOp is one RFC 6902 operation.
type patchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

// k8sPatch is a KubectlPatch change of o: fix and rollback are JSON
// patches (RFC 6902), applied in order.
func k8sPatch(o model.K8sObject, fix, rollback []patchOp) Change {
	f, _ := json.Marshal(fix)
	r, _ := json.Marshal(rollback)
	// The patch changes one cluster object, whichever hosts its findings
	// land on: it is planned once, under the object's own name.
	return Change{Kind: KubectlPatch, Target: o.Resource(), Path: []string{o.Name, o.Namespace}, Value: string(f), Old: string(r), HasOld: true, Device: o.ID()}
}

// k8sDevices are the devices a manifest's finding lands on: the inventory
// hosts its selector picks, else the manifest itself (kind/namespace/name).
func k8sDevices(hosts []string, o model.K8sObject) []string {
	if len(hosts) == 0 {
		return []string{o.ID()}
	}
	return hosts
}

// k8sWho names an object in a message.
func k8sWho(o model.K8sObject) string { return o.Kind + " " + o.Namespace + "/" + o.Name }

// jsonKey escapes a key for a JSON pointer (RFC 6901).
func jsonKey(k string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(k) }

// gatedOp is one operation of a template fix; field is the
// NicConfigurationTemplate field it writes when not every operator
// release has it (nil: one every release has).
type gatedOp struct {
	fix, undo patchOp
	field     *model.APIField
}

// gatedPatch is the fix of a template, gated by the API the manifests
// show: the operator kept apiVersion configuration.net.nvidia.com/v1alpha1
// while it added tos, rawNvConfig (again) and roceMode, so only a CRD in
// k8s/ tells whether the cluster's API has them. The operations it shows
// the API has, or that write fields every release has, make the change
// (nil when there are none); each other field gets a caveat, by its path,
// that says why no command is printed for it and, where the field may
// exist, gives the patch to apply once it is verified.
func gatedPatch(o model.K8sObject, api *model.OperatorAPI, ops []gatedOp) (*Change, map[string]string) {
	var fix, undo []patchOp
	held := map[string][]gatedOp{}
	var order []string
	for _, op := range ops {
		if op.field == nil || api.Has(*op.field) {
			fix = append(fix, op.fix)
			undo = append([]patchOp{op.undo}, undo...)
			continue
		}
		if _, ok := held[op.field.Path]; !ok {
			order = append(order, op.field.Path)
		}
		held[op.field.Path] = append(held[op.field.Path], op)
	}
	caveats := map[string]string{}
	for _, path := range order {
		f := held[path][0].field
		if api.Known() {
			caveats[path] = fmt.Sprintf("the NicConfigurationTemplate CRD at %s has no spec.%s (it came with %s): the installed operator cannot take it, so qoslint prints no command for it", api.Where(), f.Path, f.Since)
			continue
		}
		var hf, hu []patchOp
		for _, op := range held[path] {
			hf = append(hf, op.fix)
			hu = append([]patchOp{op.undo}, hu...)
		}
		c := k8sPatch(o, hf, hu)
		caveats[path] = fmt.Sprintf("spec.%s exists only from %s, and every release serves configuration.net.nvidia.com/v1alpha1: no NicConfigurationTemplate CRD in k8s/ shows whether the cluster's API has it, so qoslint prints no command for it; once `kubectl explain %s.spec.%s` shows the field, apply: kubectl patch %s %s -n %s --type=json -p '%s' (rollback: -p '%s')",
			f.Path, f.Since, strings.TrimSuffix(model.K8sNicTemplateCRDName, ".configuration.net.nvidia.com"), f.Path, c.Target, c.Path[0], c.Path[1], c.Value, c.Old)
	}
	if len(fix) == 0 {
		return nil, caveats
	}
	c := k8sPatch(o, fix, undo)
	return &c, caveats
}
