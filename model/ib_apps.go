package model

import (
	"github.com/qoslint/qoslint/internal/source"
)

// IBAppSL is the SL one application other than the host's NCCL (which is
// IBHost.SL) sends on from a host: UCX or NVSHMEM as the host's capture
// shows them, or NCCL, UCX or NVSHMEM in a Kubernetes container placed on
// the host. Each is read where the same application's ToS is read on
// Ethernet (host-app-tos, k8s-workload-tos).
type IBAppSL struct {
	App, Var string
	SL       int
	// Knob says how the value was reached: "UCX_IB_SL=3", "UCX_IB_SL
	// unset, UCX's auto → 0".
	Knob string
	// Where names the place that decided it: a layer of the host
	// ("/etc/ucx/ucx.conf", "environment") or a container.
	Where string
	Pos   source.Pos
	// Setting is the host's setting (nil for a container); Container,
	// Value and Set the container's variable (Set false: not in its env).
	Setting   *AppSetting
	Container *K8sContainer
	Value     K8sValue
	Set       bool
}
