// Package model is the unified fabric model: what each device effectively
// does for RoCE once NVUE defaults, RoCE-mode defaults, profiles and bindings,
// NIC defaults and NCCL settings are taken into account. Every value carries
// its origin, so a finding can name the line that caused it or the default
// that applied.
package model

import (
	"net/netip"

	"github.com/qoslint/qoslint/internal/policy"
	"github.com/qoslint/qoslint/internal/source"
)

// Value is an effective value with its origin. Known is false when the data
// it depends on was not collected.
type Value[T any] struct {
	V T
	// Known sits beside V: a one-byte V (a bool) shares its word with it
	// and the Origin's first half, so a Value[bool] is 16 bytes, a
	// Value[int] 24 (64 before Origin was compact).
	Known  bool
	Origin Origin
}

// Explicit builds a known value set at pos.
func Explicit[T any](v T, pos source.Pos) Value[T] {
	return Value[T]{V: v, Origin: At(pos), Known: true}
}

// Defaulted builds a known value that comes from a default.
func Defaulted[T any](v T, why string) Value[T] {
	return Value[T]{V: v, Origin: Because(why), Known: true}
}

// Fabric is the whole model.
type Fabric struct {
	names    *names     // SwitchByName's and Host's index
	wire     *wireIndex // OnWire's
	links    *linkIndex // LinksOf's
	Name     string
	Policy   policy.Policy
	Switches []*Switch
	Hosts    []*Host
	// Links are the cables between inventory devices that LLDP reported
	// (collectors/fabric/links.go), sorted; LLDPFile maps each device whose lldp.json
	// was read to it (a device absent from it: LLDP not collected).
	Links    []*Link
	LLDPFile map[string]string
	// Plan is the cabling plan (topology.dot, collectors/fabric/plan.go); nil when the
	// fabric has none.
	Plan *Plan
	// Rails is the inventory's rail rule (collectors/fabric/rails.go); nil without one.
	Rails *Rails
	// Problems are input problems found while building the model (e.g. an
	// NVUE value that is not a boolean where one is required).
	Problems []*source.Error
	// Notes are remarks made while building the model that are neither
	// findings nor input errors (interfaces that are never checked, ...).
	Notes []*source.Error
	// Wire are the packet captures (devices/<device>/captures), reduced to
	// RoCEv2 flows; HostOfIP names the inventory host whose address an IP
	// is, so wire evidence can be laid beside that host's configuration.
	Wire     []*WireCapture
	HostOfIP map[netip.Addr]string
	// IB is the InfiniBand side (model/ib.go, built by collectors/ibfiles/ibmodel); nil on an Ethernet fabric.
	IB *IBFabric
	// K8s is what the Kubernetes manifests ask of the hosts (model/k8s.go);
	// nil without manifests.
	K8s *K8sFabric
}
