package k8s

import (
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/qoslint/qoslint/internal/source"
)

// podPath is where a kind keeps its pod templates: keys, "{}" for every
// entry of a mapping (the entry's key is the role), "[]" for every item of
// a list (its name, else its index, is the role). The path ends at the pod
// template (metadata + spec), or for a Pod at the object itself.
type podPath []string

// podPaths are the pod templates of each kind this package reads. Core
// kinds: the Kubernetes API reference (PodTemplateSpec in
// k8s.io/api apps/v1 and batch/v1 types.go). Training CRDs, each seen in
// published manifests:
//   - PyTorchJob kubeflow.org/v1: spec.pytorchReplicaSpecs.{Master,Worker}.template
//     (kubeflow/training-operator examples/pytorch/mnist/v1/pytorch_job_mnist_nccl.yaml);
//   - MPIJob kubeflow.org/v2beta1: spec.mpiReplicaSpecs.{Launcher,Worker}.template
//     (kubeflow/mpi-operator examples/v2beta1/nccl-tests/nccl-tests.yaml);
//   - Volcano Job batch.volcano.sh/v1alpha1: spec.tasks[].template
//     (volcano-sh/volcano example/integrations/mpi/mpi-example.yaml);
//   - JobSet jobset.x-k8s.io/v1alpha2: spec.replicatedJobs[].template.spec.template
//     (kubernetes-sigs/jobset examples/pytorch/resnet.yaml);
//   - LeaderWorkerSet leaderworkerset.x-k8s.io/v1:
//     spec.leaderWorkerTemplate.{leaderTemplate,workerTemplate}
//     (kubernetes-sigs/lws docs/examples/sample/lws-multi-template.yaml).
func podPaths(kind, group string) ([]podPath, bool) {
	switch group + " " + kind {
	case " Pod":
		return []podPath{{}}, true
	case "apps Deployment", "apps StatefulSet", "apps DaemonSet", "apps ReplicaSet", "batch Job":
		return []podPath{{"spec", "template"}}, true
	case "batch CronJob":
		return []podPath{{"spec", "jobTemplate", "spec", "template"}}, true
	case "kubeflow.org PyTorchJob":
		return []podPath{{"spec", "pytorchReplicaSpecs", "{}", "template"}}, true
	case "kubeflow.org MPIJob":
		return []podPath{{"spec", "mpiReplicaSpecs", "{}", "template"}}, true
	case "batch.volcano.sh Job":
		return []podPath{{"spec", "tasks", "[]", "template"}}, true
	case "jobset.x-k8s.io JobSet":
		return []podPath{{"spec", "replicatedJobs", "[]", "template", "spec", "template"}}, true
	case "leaderworkerset.x-k8s.io LeaderWorkerSet":
		return []podPath{
			{"spec", "leaderWorkerTemplate", "leaderTemplate"},
			{"spec", "leaderWorkerTemplate", "workerTemplate"},
		}, true
	}
	return nil, false
}

// find walks the path from the object's root to its pod templates.
func (p podPath) find(file string, root *yaml.Node) ([]*PodTemplate, error) {
	type at struct {
		n         *yaml.Node
		ptr, role string
	}
	cur := []at{{n: root}}
	for _, step := range p {
		var next []at
		for _, c := range cur {
			switch step {
			case "{}":
				keys, vals := pairs(c.n)
				for j, k := range keys {
					next = append(next, at{vals[j], pointer(c.ptr, k.Value), k.Value})
				}
			case "[]":
				for j, it := range seq(c.n) {
					role := "[" + strconv.Itoa(j) + "]"
					if n, _ := str(file, it, "name"); n.V != "" {
						role = n.V
					}
					next = append(next, at{it, c.ptr + "/" + strconv.Itoa(j), role})
				}
			default:
				if v := get(c.n, step); v != nil {
					if step == "leaderTemplate" || step == "workerTemplate" {
						c.role = step
					}
					next = append(next, at{v, pointer(c.ptr, step), c.role})
				}
			}
		}
		cur = next
	}
	var out []*PodTemplate
	for _, c := range cur {
		pt, err := podTemplate(file, c.n, c.ptr)
		if err != nil {
			return nil, err
		}
		pt.Role = c.role
		out = append(out, pt)
	}
	return out, nil
}

// podTemplate reads a pod template's (or a Pod's) spec.
func podTemplate(file string, n *yaml.Node, ptr string) (*PodTemplate, error) {
	spec := get(n, "spec")
	pt := &PodTemplate{Pos: pos(file, n), Path: ptr + "/spec"}
	sel, err := strMap(file, get(spec, "nodeSelector"), "nodeSelector")
	if err != nil {
		return nil, err
	}
	pt.NodeSelector = plain(sel)
	if k, _ := entry(get(spec, "affinity"), "nodeAffinity"); k != nil {
		pt.Affinity = pos(file, k)
	}
	for _, list := range []string{"initContainers", "containers"} {
		if v := get(spec, list); v != nil && v.Kind != yaml.SequenceNode {
			return nil, source.Errorf(file, v.Line, "%s: want a list, not a %s", list, kindName(v))
		}
		for i, cn := range seq(get(spec, list)) {
			c, err := container(file, cn, pt.Path+"/"+list+"/"+strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			c.Init = list == "initContainers"
			pt.Containers = append(pt.Containers, c)
		}
	}
	return pt, nil
}

func container(file string, n *yaml.Node, ptr string) (*Container, error) {
	if n.Kind != yaml.MappingNode {
		return nil, source.Errorf(file, n.Line, "a container must be a mapping, not a %s", kindName(n))
	}
	name, err := str(file, n, "name")
	if err != nil {
		return nil, err
	}
	c := &Container{Name: name.V, Pos: pos(file, n), Path: ptr}
	envKey, envNode := entry(n, "env")
	c.EnvSet = envKey != nil
	if envNode != nil && envNode.Kind != yaml.SequenceNode {
		return nil, source.Errorf(file, envNode.Line, "env: want a list, not a %s", kindName(envNode))
	}
	for _, e := range seq(envNode) {
		v, err := envVar(file, e)
		if err != nil {
			return nil, err
		}
		c.Env = append(c.Env, v)
	}
	for _, e := range seq(get(n, "envFrom")) {
		ref := get(e, "configMapRef")
		if ref == nil {
			continue // secretRef: not read
		}
		cm, err := str(file, ref, "name")
		if err != nil {
			return nil, err
		}
		prefix, err := str(file, e, "prefix")
		if err != nil {
			return nil, err
		}
		c.EnvFrom = append(c.EnvFrom, EnvFrom{ConfigMap: cm.V, Prefix: prefix.V, Pos: pos(file, e)})
	}
	res := get(n, "resources")
	for _, part := range []string{"limits", "requests"} {
		keys, _ := pairs(get(res, part))
		for _, k := range keys {
			c.Resources = append(c.Resources, k.Value)
		}
	}
	return c, nil
}

func envVar(file string, e *yaml.Node) (EnvVar, error) {
	if e.Kind != yaml.MappingNode {
		return EnvVar{}, source.Errorf(file, e.Line, "an env entry must be a mapping with name and value, not a %s", kindName(e))
	}
	name, err := str(file, e, "name")
	if err != nil {
		return EnvVar{}, err
	}
	val, err := str(file, e, "value")
	if err != nil {
		return EnvVar{}, err
	}
	v := EnvVar{Name: name.V, Value: val.V, Pos: pos(file, e)}
	from := get(e, "valueFrom")
	if from == nil {
		return v, nil
	}
	ref := get(from, "configMapKeyRef")
	if ref == nil {
		v.Other = true
		return v, nil
	}
	cm, err := str(file, ref, "name")
	if err != nil {
		return EnvVar{}, err
	}
	key, err := str(file, ref, "key")
	if err != nil {
		return EnvVar{}, err
	}
	v.ConfigMap, v.Key = cm.V, key.V
	return v, nil
}
