package inventory

import (
	"fmt"
	"regexp"

	"github.com/qoslint/qoslint/internal/source"
)

// A node name is a DNS subdomain (RFC 1123: lower case alphanumerics, '-'
// and '.', at most 253), as the Kubernetes API validates object names
// (kubernetes.io/docs/concepts/overview/working-with-objects/names).
var k8sNodeName = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

// A label key is an optional DNS-subdomain prefix and a name of at most 63
// characters; a value at most 63 alphanumerics, '-', '_' or '.', starting
// and ending alphanumeric, or empty (kubernetes.io/docs/concepts/overview/
// working-with-objects/labels, "Syntax and character set").
var (
	k8sLabelKey   = regexp.MustCompile(`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$`)
	k8sLabelValue = regexp.MustCompile(`^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$`)
)

// HostnameLabel is the label the kubelet puts on every node with its name
// (kubernetes.io/docs/reference/labels-annotations-taints,
// kubernetes.io/hostname).
const HostnameLabel = "kubernetes.io/hostname"

// buildK8s validates a host's k8s_node and k8s_labels.
func buildK8s(h *Host, d rawDevice, p *problems) {
	who := fmt.Sprintf("host %q", d.Name.V)
	if f := d.K8sNode; f.Set {
		if len(f.V) > 253 || !k8sNodeName.MatchString(f.V) {
			p.semantic(f.Line, "%s: k8s_node %q is not a Kubernetes node name (lower-case letters, digits, '-' and '.')", who, f.V)
		} else {
			h.K8sNode = f.V
			h.K8sPos = source.Pos{File: h.Pos.File, Line: f.Line}
		}
	}
	if f := d.K8sLabels; f.Set {
		h.K8sLabels = map[string]string{}
		for k, v := range f.V {
			if len(k) > 316 || !k8sLabelKey.MatchString(k) || !k8sLabelValue.MatchString(v) {
				p.semantic(f.Line, "%s: k8s_labels: %q: %q is not a Kubernetes label", who, k, v)
				continue
			}
			h.K8sLabels[k] = v
		}
		if h.K8sPos.IsZero() {
			h.K8sPos = source.Pos{File: h.Pos.File, Line: f.Line}
		}
	}
}

// NodeLabels are the labels a host's node carries as far as the inventory
// knows: k8s_labels, and kubernetes.io/hostname = k8s_node. ok is false when
// the host is not mapped to a node.
func (h Host) NodeLabels() (labels map[string]string, ok bool) {
	if h.K8sNode == "" && h.K8sLabels == nil {
		return nil, false
	}
	labels = map[string]string{}
	for k, v := range h.K8sLabels {
		labels[k] = v
	}
	if h.K8sNode != "" {
		labels[HostnameLabel] = h.K8sNode
	}
	return labels, true
}
