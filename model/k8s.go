package model

import (
	"strings"

	"github.com/qoslint/qoslint/internal/source"
)

// K8sNicTemplateCRDName is the CustomResourceDefinition of
// NicConfigurationTemplate (config/crd/bases/configuration.net.nvidia.com_nicconfigurationtemplates.yaml
// of Mellanox/nic-configuration-operator, also in its Helm chart's crds/).
const K8sNicTemplateCRDName = "nicconfigurationtemplates.configuration.net.nvidia.com"

// K8sObject names one manifest object and where it starts.
type K8sObject struct {
	// Group is the API group ("" for the core group).
	Kind, Group, Namespace, Name string
	Pos                          source.Pos
}

// ID is kind/namespace/name, the name a finding gives an object that no
// inventory host is mapped to.
func (o K8sObject) ID() string { return o.Kind + "/" + o.Namespace + "/" + o.Name }

// Resource is how kubectl names the object's type unambiguously: the
// lower-case kind, qualified by its group outside the core group
// ("pytorchjob.kubeflow.org", "configmap").
func (o K8sObject) Resource() string {
	if o.Group == "" {
		return strings.ToLower(o.Kind)
	}
	return strings.ToLower(o.Kind) + "." + o.Group
}

// K8sFabric is what the Kubernetes manifests ask of the hosts.
type K8sFabric struct {
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
// profile sets (collectors/k8s/k8smodel/k8s_spectrumx.go).
type K8sTemplate struct {
	Object K8sObject
	// RoCE is spec.template.roceOptimized as written, which a fix
	// patches; nil when absent.
	RoCE *K8sRoCE
	// RawNvConfig is spec.template.rawNvConfig, in order; RawSet is false
	// when the key is absent.
	RawNvConfig []K8sNvParam
	RawSet      bool
	Hosts       []string
	Trust       K8sSetting[string]
	// PFC are the priorities with PFC on.
	PFC K8sSetting[[]int]
	ToS K8sSetting[int]
	// RoceMode is roceOptimized.roceMode as the operator gets it (unknown
	// when the CRD in k8s/ has no such field).
	RoceMode Value[int]
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

// K8sRoCE is spec.template.roceOptimized as written.
type K8sRoCE struct {
	Pos source.Pos
	// QoS is roceOptimized.qos; nil when absent (the operator's defaults
	// apply: trust dscp, PFC on priority 3, ToS 0).
	QoS *K8sQoS
}

// K8sQoS is roceOptimized.qos as written: each value is known when its
// key is there.
type K8sQoS struct {
	Trust Value[string]
	// PFC is the per-priority list "0,0,0,1,0,0,0,0".
	PFC Value[string]
	ToS Value[int]
}

// K8sNvParam is one rawNvConfig entry.
type K8sNvParam struct {
	Name, Value string
	Pos         source.Pos
}

// OperatorCNP are the nvconfig values roceOptimized always sets.
var OperatorCNP = map[string]int{"CNP_DSCP_P1": 4, "CNP_DSCP_P2": 4, "CNP_802P_PRIO_P1": 6, "CNP_802P_PRIO_P2": 6}

// SpectrumXCNPDSCP is the CNP DSCP the operator writes to
// /sys/class/net/<if>/ecn/roce_np/cnp_dscp after the RoCE parameters, on
// every apply: pkg/spectrumx/spectrumx.go `const cnpDscpExpectedValue =
// "48"` (commit 01dc359 "set cnp_dscp value for single plane", in 26.1.1
// and 26.4.0 on; 26.1.0 wrote 24 except in hwplb mode, 25.10 wrote none).
const SpectrumXCNPDSCP = 48

// CNPSysfs names the runtime CNP DSCP in K8sTemplate.CNP.
const CNPSysfs = "cnp_dscp"

// K8sSpectrumX is a template's spectrumXOptimized and the profile it
// resolved to.
type K8sSpectrumX struct {
	// Pos is where spectrumXOptimized was written.
	Pos source.Pos
	// Profile names where the settings come from.
	Profile string
}

// K8sContainer is one container of a workload's pod template that carries
// RDMA traffic, with its environment as the kubelet builds it.
type K8sContainer struct {
	// Workload is the object that carries the pod template, which a fix
	// patches.
	Workload K8sObject
	// Role names the pod template within its workload ("Worker",
	// "tasks[0]", ...); "" for the only one.
	Role string
	Name string
	// Init is true for an init container.
	Init bool
	Pos  source.Pos
	// Path is its JSON pointer (…/containers/0); EnvSet is false when the
	// container has no env key.
	Path    string
	EnvSet  bool
	Env     map[string]K8sValue
	Missing []string
	Hosts   []string
}

// K8sValue is the effective value of a container's variable and where it
// was written: the env entry, or the ConfigMap key it came from.
type K8sValue struct {
	V   string
	Pos source.Pos
	// Via names the source: "env", or "ConfigMap <name>".
	Via string
	// ConfigMap and Key name the ConfigMap entry the value came from (nil
	// from env); Index is the env entry's index when it came from env
	// (else -1).
	ConfigMap *K8sObject
	Key       string
	Index     int
}

// Who names the container in messages: "PyTorchJob ml/train Worker
// container pytorch".
func (c *K8sContainer) Who() string {
	s := c.Workload.Kind + " " + c.Workload.Namespace + "/" + c.Workload.Name
	if c.Role != "" {
		s += " " + c.Role
	}
	kind := "container"
	if c.Init {
		kind = "init container"
	}
	return s + " " + kind + " " + c.Name
}
