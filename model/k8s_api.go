package model

import (
	"slices"

	"github.com/qoslint/qoslint/internal/source"
)

// APIField is a NicConfigurationTemplate field that not every release of
// the nic-configuration-operator has, with the release that brought it,
// from the history of Mellanox/nic-configuration-operator
// api/v1alpha1/nicconfigurationtemplate_types.go and the CRDs of its tags.
// Every release serves configuration.net.nvidia.com/v1alpha1, so the
// manifests' apiVersion cannot tell them apart; the CRD's schema can.
type APIField struct {
	// Path is the field below spec, as NicTemplateCRD.Fields names it.
	Path string
	// Since is the release (and commit) that added it.
	Since string
}

var (
	// FieldToS: QosSpec got `ToS int json:"tos,omitempty"` in d69b8a3
	// (2025-09-04); the CRDs of network-operator-v25.7.0 and older have
	// no tos.
	FieldToS = APIField{"template.roceOptimized.qos.tos", `Network Operator 25.10 (nic-configuration-operator v1.2.0, commit d69b8a3 "add SPC-X optimization spec to API + validations", 2025-09)`}
	// FieldRawNvConfig: in the first API, removed by bcf085d (2024-11-19,
	// "Removing 'rawNvConfig' since it was causing BF3/2 NICs to enter an
	// unstable state"), back with 10a2715 (2025-09-02).
	FieldRawNvConfig = APIField{"template.rawNvConfig", `Network Operator 25.10 (removed in nic-configuration-operator v0.1.14, back in v1.2.0, commit 10a2715 "feat: return back arbitrary NV parameters configuration", 2025-09)`}
	// FieldRoceMode: e8a8187 (2026-03-20), first tagged in
	// network-operator-v26.7.0-beta.1.
	FieldRoceMode = APIField{"template.roceOptimized.roceMode", `Network Operator 26.7 (commit e8a8187 "feat: add RoCE mode, ECN, pause frames, cable length, and runtime perf tuning")`}
	// FieldSpectrumX came with tos in d69b8a3.
	FieldSpectrumX = APIField{"template.spectrumXOptimized", FieldToS.Since}
)

// OperatorAPI is what the manifests show of the operator's installed API:
// the NicConfigurationTemplate CRD, when k8s/ holds one.
type OperatorAPI struct {
	CRD *K8sCRD
}

// K8sCRD is what the NicConfigurationTemplate CRD says of the installed
// API. The operator kept apiVersion configuration.net.nvidia.com/v1alpha1
// while it added and removed fields (tos, rawNvConfig, spectrumXOptimized,
// roceMode), so its schema, not the manifests' apiVersion, tells which
// fields the cluster takes.
type K8sCRD struct {
	Pos source.Pos
	// Fields are the schema's properties below spec, as dotted paths
	// ("template.roceOptimized.qos.tos"), with where each is declared;
	// nil when the CRD carries no v1alpha1 openAPIV3Schema.
	Fields map[string]source.Pos
	// ProfileEnum is the enum of template.spectrumXOptimized.version
	// (RA1.3, RA2.0, ... up to Network Operator 26.4); nil when the field
	// takes any name (26.7 on: the name of a profile ConfigMap).
	ProfileEnum []string
}

// Known reports whether a CRD with a schema was read.
func (a *OperatorAPI) Known() bool { return a != nil && a.CRD != nil && a.CRD.Fields != nil }

// Has reports whether the installed API has the field; meaningful only
// when Known.
func (a *OperatorAPI) Has(f APIField) bool {
	if !a.Known() {
		return false
	}
	_, ok := a.CRD.Fields[f.Path]
	return ok
}

// Where is the CRD's position, for messages.
func (a *OperatorAPI) Where() source.Pos { return a.CRD.Pos }

// Release names the operator releases whose CRD this is, as far as the
// Spectrum-X profiles tell them apart: "" when unknown, "pre-25.10" (no
// spectrumXOptimized), "25.10", "26.1", "26.4" (the built-in profiles of
// each, the enum of spectrumXOptimized.version: RA1.3 RA2.0 / + RA2.1 /
// + RA2.2) or "26.7" (no enum: profiles are ConfigMaps).
func (a *OperatorAPI) Release() string {
	switch {
	case !a.Known():
		return ""
	case !a.Has(FieldSpectrumX):
		return "pre-25.10"
	case a.CRD.ProfileEnum == nil:
		return "26.7"
	case slices.Contains(a.CRD.ProfileEnum, "RA2.2"):
		return "26.4"
	case slices.Contains(a.CRD.ProfileEnum, "RA2.1"):
		return "26.1"
	}
	return "25.10"
}
