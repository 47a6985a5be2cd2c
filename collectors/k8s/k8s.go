// Package k8s reads the Kubernetes manifests of a config repo (the k8s/
// folder of a fabric directory): the NIC configuration the
// nic-configuration-operator applies to the hosts, and the RoCE marking the
// training workloads ask NCCL, UCX and NVSHMEM for in their environment.
// It reads YAML only, through gopkg.in/yaml.v3 nodes so that every value
// keeps its line; kinds it does not judge are ignored (and named in a
// note), and a file it cannot read is an error at its line, never a panic.
package k8s

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/qoslint/qoslint/internal/source"
)

// Object names one manifest object and where it starts.
type Object struct {
	// Group is the API group ("" for the core group).
	Kind, Group, Namespace, Name string
	Pos                          source.Pos
}

// ID is kind/namespace/name, the name a finding gives an object that no
// inventory host is mapped to.
func (o Object) ID() string { return o.Kind + "/" + o.Namespace + "/" + o.Name }

// Resource is how kubectl names the object's type unambiguously: the
// lower-case kind, qualified by its group outside the core group
// ("pytorchjob.kubeflow.org", "configmap").
func (o Object) Resource() string {
	if o.Group == "" {
		return strings.ToLower(o.Kind)
	}
	return strings.ToLower(o.Kind) + "." + o.Group
}

// Str and Int are values with where they were written; Set is false when
// the key is absent.
type Str struct {
	V   string
	Set bool
	Pos source.Pos
}

type Int struct {
	V   int
	Set bool
	Pos source.Pos
}

// NicTemplate is a NicConfigurationTemplate
// (configuration.net.nvidia.com/v1alpha1; fields of
// Mellanox/nic-configuration-operator api/v1alpha1/nicconfigurationtemplate_types.go).
type NicTemplate struct {
	Object
	NodeSelector map[string]string
	NicType      Str
	LinkType     Str
	// ResetToDefault makes the operator ignore the template.
	ResetToDefault bool
	// NumVfs is spec.template.numVfs.
	NumVfs Int
	// RoCE is spec.template.roceOptimized; nil when absent.
	RoCE *RoceOptimized
	// SpectrumX is spec.template.spectrumXOptimized; nil when absent.
	SpectrumX *SpectrumX
	// RawNvConfig is spec.template.rawNvConfig, in order; RawSet is false
	// when the key is absent.
	RawNvConfig []NvParam
	RawSet      bool
}

// NvParam is one rawNvConfig entry.
type NvParam struct {
	Name, Value string
	Pos         source.Pos
}

// RoceOptimized is spec.template.roceOptimized.
type RoceOptimized struct {
	Enabled bool
	Pos     source.Pos
	// QoS is roceOptimized.qos; nil when absent (the operator's defaults
	// apply: trust dscp, PFC on priority 3, ToS 0).
	QoS      *QoS
	RoceMode Int
}

// QoS is roceOptimized.qos.
type QoS struct {
	Pos   source.Pos
	Trust Str
	// PFC is the per-priority list "0,0,0,1,0,0,0,0".
	PFC Str
	ToS Int
	// ECNEnabled and ECNPriority are qos.ecn.
	ECNEnabled  *bool
	ECNPriority Int
}

// ConfigMap is a ConfigMap's data.
type ConfigMap struct {
	Object
	Data   map[string]Str
	Labels map[string]string
	// Profile is data.profile read as a Spectrum-X profile when the
	// ConfigMap carries ProfileLabel; ProfileErr says why it could not be
	// read (the error is also in Manifests.Problems).
	Profile    *Profile
	ProfileErr error
}

// Workload is an object that carries pod templates.
type Workload struct {
	Object
	Pods []*PodTemplate
}

// PodTemplate is one pod template of a workload.
type PodTemplate struct {
	// Role names the template within its workload ("Worker",
	// "tasks[0]", ...); "" for the only one.
	Role string
	Pos  source.Pos
	// Path is the JSON pointer of the pod spec, for JSON patches.
	Path         string
	NodeSelector map[string]string
	// Affinity is where spec.affinity.nodeAffinity was written; zero when
	// absent. It is not evaluated.
	Affinity   source.Pos
	Containers []*Container
}

// Container is a container or an init container.
type Container struct {
	Name string
	Init bool
	Pos  source.Pos
	// Path is its JSON pointer (…/containers/0).
	Path string
	// Env holds the entries of env, in order; EnvSet is false when the
	// container has no env key.
	Env     []EnvVar
	EnvSet  bool
	EnvFrom []EnvFrom
	// Resources are the names of the resources it requests or limits.
	Resources []string
}

// EnvVar is one env entry: a value, or a configMapKeyRef (other
// valueFrom sources leave both empty).
type EnvVar struct {
	Name  string
	Value string
	Pos   source.Pos
	// ConfigMap and Key are valueFrom.configMapKeyRef.
	ConfigMap, Key string
	// Other is true for a valueFrom this package cannot read (secretKeyRef,
	// fieldRef, resourceFieldRef).
	Other bool
}

// EnvFrom is one envFrom entry with a configMapRef.
type EnvFrom struct {
	ConfigMap, Prefix string
	Pos               source.Pos
}

// Manifests is everything read from the k8s folder.
type Manifests struct {
	Templates  []*NicTemplate
	Workloads  []*Workload
	ConfigMaps []*ConfigMap
	// CRDs are the NicConfigurationTemplate CustomResourceDefinitions.
	CRDs []*NicTemplateCRD
	// Problems are errors inside an object that was still read (a
	// Spectrum-X profile that does not parse), at their lines.
	Problems []*source.Error
	// Ignored counts the objects of other kinds, by kind.
	Ignored map[string]int
	// Files are the files read, in order.
	Files []string
}

// Parse reads one YAML file of any number of documents into m. It returns
// the first error (a *source.Error at its line); the documents before it
// are kept.
func (m *Manifests) Parse(file string, data []byte) error {
	m.Files = append(m.Files, file)
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return yamlError(file, err)
		}
		if err := m.document(file, &doc); err != nil {
			return err
		}
	}
}

var yamlLineRe = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError turns yaml.v3's "yaml: line N: msg" into a *source.Error at N.
func yamlError(file string, err error) error {
	msg := err.Error()
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return source.Errorf(file, n, "not YAML: %s", m[2])
	}
	return source.Errorf(file, 0, "not YAML: %s", strings.TrimPrefix(msg, "yaml: "))
}

func (m *Manifests) document(file string, doc *yaml.Node) error {
	root := resolve(doc)
	if root != nil && root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil
		}
		root = resolve(root.Content[0])
	}
	if root == nil || isNull(root) {
		return nil // an empty document, e.g. after a trailing ---
	}
	if root.Kind != yaml.MappingNode {
		return source.Errorf(file, root.Line, "a Kubernetes manifest must be a mapping with apiVersion and kind")
	}
	kind, err := str(file, root, "kind")
	if err != nil {
		return err
	}
	api, err := str(file, root, "apiVersion")
	if err != nil {
		return err
	}
	if !kind.Set {
		return source.Errorf(file, root.Line, "a Kubernetes manifest without kind")
	}
	meta := get(root, "metadata")
	name, err := str(file, meta, "name")
	if err != nil {
		return err
	}
	ns, err := str(file, meta, "namespace")
	if err != nil {
		return err
	}
	o := Object{Kind: kind.V, Namespace: ns.V, Name: name.V, Pos: source.Pos{File: file, Line: root.Line}}
	if o.Namespace == "" {
		o.Namespace = "default" // what kubectl apply uses without -n
	}
	group := api.V
	if i := strings.LastIndex(group, "/"); i >= 0 {
		group = group[:i]
	} else {
		group = "" // the core group: "v1"
	}
	o.Group = group
	return m.object(file, root, group, o)
}

// object dispatches on the kind and API group; anything else is counted
// as ignored.
func (m *Manifests) object(file string, root *yaml.Node, group string, o Object) error {
	spec := get(root, "spec")
	switch {
	case o.Kind == "NicConfigurationTemplate" && group == "configuration.net.nvidia.com":
		t, err := nicTemplate(file, spec, o)
		if err == nil {
			m.Templates = append(m.Templates, t)
		}
		return err
	case o.Kind == "ConfigMap" && group == "":
		c, err := configMap(file, root, o)
		if err == nil {
			m.ConfigMaps = append(m.ConfigMaps, c)
			var se *source.Error
			if errors.As(c.ProfileErr, &se) {
				m.Problems = append(m.Problems, se)
			}
		}
		return err
	case o.Kind == "CustomResourceDefinition" && group == "apiextensions.k8s.io" && o.Name == NicTemplateCRDName:
		c, err := nicTemplateCRD(file, root, o)
		if err == nil {
			m.CRDs = append(m.CRDs, c)
		}
		return err
	}
	paths, ok := podPaths(o.Kind, group)
	if !ok {
		if m.Ignored == nil {
			m.Ignored = map[string]int{}
		}
		m.Ignored[o.Kind]++
		return nil
	}
	w := &Workload{Object: o}
	for _, p := range paths {
		pods, err := p.find(file, root)
		if err != nil {
			return err
		}
		w.Pods = append(w.Pods, pods...)
	}
	m.Workloads = append(m.Workloads, w)
	return nil
}

// IgnoredKinds lists the ignored kinds as "Kind (n)", sorted.
func (m *Manifests) IgnoredKinds() []string {
	var out []string
	for k, n := range m.Ignored {
		out = append(out, fmt.Sprintf("%s (%d)", k, n))
	}
	sort.Strings(out)
	return out
}
