package checks

import (
	"encoding/json"
	"strings"

	"github.com/qoslint/qoslint/collectors/k8s"
)

// patchOp is one RFC 6902 operation.
type patchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

// k8sPatch is a KubectlPatch change of o: fix and rollback are JSON
// patches (RFC 6902), applied in order.
func k8sPatch(o k8s.Object, fix, rollback []patchOp) Change {
	f, _ := json.Marshal(fix)
	r, _ := json.Marshal(rollback)
	// The patch changes one cluster object, whichever hosts its findings
	// land on: it is planned once, under the object's own name.
	return Change{Kind: KubectlPatch, Target: o.Resource(), Path: []string{o.Name, o.Namespace}, Value: string(f), Old: string(r), HasOld: true, Device: o.ID()}
}

// k8sDevices are the devices a manifest's finding lands on: the inventory
// hosts its selector picks, else the manifest itself (kind/namespace/name).
func k8sDevices(hosts []string, o k8s.Object) []string {
	if len(hosts) == 0 {
		return []string{o.ID()}
	}
	return hosts
}

// k8sWho names an object in a message.
func k8sWho(o k8s.Object) string { return o.Kind + " " + o.Namespace + "/" + o.Name }

// jsonKey escapes a key for a JSON pointer (RFC 6901).
func jsonKey(k string) string { return strings.NewReplacer("~", "~0", "/", "~1").Replace(k) }
