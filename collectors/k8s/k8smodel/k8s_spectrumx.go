package k8smodel

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/collectors/k8s"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

// The RoCE runtime parameters of a Spectrum-X profile, by the DMS path the
// operator writes (runtimeConfig.roce of bindata/spectrum-x/RA*.yaml in
// Mellanox/nic-configuration-operator, "name: Trust", "name: PFC", "name:
// Type of Service").
const (
	dmsTrust = "/interfaces/interface/nvidia/qos/config/trust-mode"
	dmsPFC   = "/interfaces/interface/nvidia/qos/config/pfc"
	dmsToS   = "/interfaces/interface/nvidia/roce/config/tos"
)

// builtinProfiles are the Reference Architecture profiles each release
// carried built in (bindata/spectrum-x/ at its tag, and the enum of
// spectrumXOptimized.version in its CRD). Every one of them sets "Trust"
// dscp and "PFC" "00010000" (priority 3); RA1.3 and RA2.0 also set "Type
// of Service" 96 in 25.10, which commit 5af674c ("comment out the ToS
// param from the spc-x RA", 26.1) removed: "ToS should be set on the VF,
// so it's out of scope of NIC OP". From 26.7 there is none: "From 26.7.0,
// the operator carries no built-in profiles: every Spectrum-X deployment
// must apply a profile ConfigMap first" (Mellanox/network-operator-docs
// docs/spectrum-x/spectrum-x-configuration.rst).
var builtinProfiles = map[string][]string{
	"25.10": {"RA1.3", "RA2.0"},
	"26.1":  {"RA1.3", "RA2.0", "RA2.1"},
	"26.4":  {"RA1.3", "RA2.0", "RA2.1", "RA2.2"},
}

// resolveSpectrumX resolves an enabled spectrumXOptimized to the values
// its profile applies. A setting the profile does not make, or that the
// model cannot establish, carries NotSet; notes say what is not verified.
// Build has set aside a CRD without spectrumXOptimized.
func resolveSpectrumX(f *model.Fabric, t *k8s.NicTemplate, m *k8s.Manifests, api *model.OperatorAPI) *model.K8sTemplate {
	sx := t.SpectrumX
	kt := newTemplate(t)
	kt.SpectrumX, kt.CNP = &model.K8sSpectrumX{Pos: sx.Pos}, map[string]model.K8sSetting[int]{}
	at := sx.Version.Pos
	if at.Line == 0 {
		at = sx.Pos
	}
	version := sx.Version.V
	who := t.Kind + " " + t.Namespace + "/" + t.Name
	note := func(format string, a ...any) {
		f.Notes = append(f.Notes, &source.Error{Pos: at, Msg: who + ": " + fmt.Sprintf(format, a...)})
	}
	unknown := func(why string) *model.K8sTemplate {
		kt.SpectrumX.Profile = "an unresolved profile"
		kt.Trust = model.K8sSetting[string]{Pos: at, NotSet: why}
		kt.PFC = model.K8sSetting[[]int]{Pos: at, NotSet: why}
		kt.ToS = model.K8sSetting[int]{Pos: at, NotSet: why}
		kt.CNP[model.CNPSysfs] = model.K8sSetting[int]{Pos: at, NotSet: why}
		note("%s: the trust, PFC, ToS and CNP marking it gives the NICs it selects are not verified", why)
		return kt
	}
	release := api.Release()
	cms := profileConfigMaps(m, version)
	switch {
	case release != "" && release != "26.7":
		if !slices.Contains(builtinProfiles[release], version) {
			return unknown(fmt.Sprintf("spectrumXOptimized.version %q is not in the enum of the CRD at %s (%s), which the API server enforces", version, api.Where(), strings.Join(api.CRD.ProfileEnum, ", ")))
		}
		return builtin(kt, sx, release, version, at)
	case len(cms) > 1:
		return unknown(fmt.Sprintf("%d ConfigMaps labelled %s are named %q, and \"the latest-reconciled ConfigMap silently wins\" (the operator's README)", len(cms), k8s.ProfileLabel, version))
	case len(cms) == 1 && cms[0].Profile == nil:
		why := fmt.Sprintf("the profile ConfigMap %s/%s has no data.%s", cms[0].Namespace, version, k8s.ProfileKey)
		if cms[0].ProfileErr != nil {
			why = fmt.Sprintf("the profile ConfigMap %s/%s could not be read (%v), and the operator refuses it too", cms[0].Namespace, version, cms[0].ProfileErr)
		}
		return unknown(why)
	case len(cms) == 1:
		if release == "" && slices.Contains(builtinProfiles["26.4"], version) {
			note("no NicConfigurationTemplate CRD in k8s/ shows the operator's release: from Network Operator 26.7 %q is the profile ConfigMap %s/%s, judged here; up to 26.4 it is the operator's built-in %s, which sets trust dscp and PFC on priority 3 only", version, cms[0].Namespace, version, version)
		}
		return fromProfile(kt, t, cms[0])
	case release == "26.7":
		return unknown(fmt.Sprintf("the operator (CRD at %s: Network Operator 26.7 or later) resolves spectrumXOptimized.version %q to a ConfigMap named %q labelled %s, and k8s/ holds none (\"Spectrum-X configuration will not be applied until a matching profile ConfigMap exists\", network-operator-docs)", api.Where(), version, version, k8s.ProfileLabel))
	case slices.Contains(builtinProfiles["26.4"], version):
		// No CRD: every release that built it in sets trust dscp and
		// PFC 3; the ToS and the CNP DSCP differ between releases.
		kt = builtin(kt, sx, "", version, at)
		note("no NicConfigurationTemplate CRD in k8s/ shows the operator's release: %q is judged as the built-in profile of Network Operator 25.10 to 26.4 (trust dscp, PFC on priority 3); its ToS (96 in 25.10, none later) and CNP DSCP (none in 25.10, 48 from 26.1.1) are not verified, and from 26.7 it names a profile ConfigMap, which k8s/ does not hold", version)
		return kt
	}
	return unknown(fmt.Sprintf("spectrumXOptimized.version %q names no profile k8s/ holds (a ConfigMap of that name labelled %s) and no built-in Reference Architecture profile", version, k8s.ProfileLabel))
}

// profileConfigMaps are the profile ConfigMaps of version: the operator
// watches ConfigMaps with the label in any namespace, keyed by name.
func profileConfigMaps(m *k8s.Manifests, version string) []*k8s.ConfigMap {
	var out []*k8s.ConfigMap
	for _, c := range m.ConfigMaps {
		if _, ok := c.Labels[k8s.ProfileLabel]; ok && c.Name == version {
			out = append(out, c)
		}
	}
	return out
}

// builtin fills kt from a built-in profile of release ("" when the
// release is not known: only what every release agrees on).
func builtin(kt *model.K8sTemplate, sx *k8s.SpectrumX, release, version string, at source.Pos) *model.K8sTemplate {
	src := "the operator's built-in " + version + " profile (bindata/spectrum-x/" + version + ".yaml"
	if release != "" {
		src += ", Network Operator " + release
	}
	src += ")"
	kt.SpectrumX.Profile = src
	kt.Trust = model.K8sSetting[string]{V: "dscp", Pos: at, Default: src}
	kt.PFC = model.K8sSetting[[]int]{V: []int{3}, Pos: at, Default: src}
	mode := sx.MultiplaneMode.V
	switch {
	case release == "25.10":
		kt.ToS = model.K8sSetting[int]{V: 96, Pos: at, Default: src}
		kt.CNP[model.CNPSysfs] = model.K8sSetting[int]{Pos: at, NotSet: "Network Operator 25.10 writes no CNP DSCP for Spectrum-X: the NIC keeps its own (host-cnp judges it)"}
	case release == "":
		kt.ToS = model.K8sSetting[int]{Pos: at, NotSet: "not verified: the built-in profile sets ToS 96 in Network Operator 25.10 and none later"}
		kt.CNP[model.CNPSysfs] = model.K8sSetting[int]{Pos: at, NotSet: "not verified: the operator writes none in 25.10, 24 or 48 in 26.1.0, 48 from 26.1.1"}
	case release == "26.1" && mode != "hwplb":
		kt.ToS = model.K8sSetting[int]{Pos: at, NotSet: src + " sets no ToS: the applications' own ToS (NCCL_IB_TC) decides"}
		kt.CNP[model.CNPSysfs] = model.K8sSetting[int]{Pos: at, NotSet: "not verified: Network Operator 26.1.0 writes CNP DSCP 24 (swplb, uniplane) or none, 26.1.1 and later 48"}
	default:
		kt.ToS = model.K8sSetting[int]{Pos: at, NotSet: src + " sets no ToS: the applications' own ToS (NCCL_IB_TC) decides"}
		kt.CNP[model.CNPSysfs] = model.K8sSetting[int]{V: model.SpectrumXCNPDSCP, Pos: at, Default: "spectrumXOptimized's runtime cnp_dscp 48"}
	}
	return kt
}

// fromProfile fills kt from a profile ConfigMap, with the parameters the
// operator selects for the template's NICs: pkg/spectrumx/spectrumx.go
// filterParameters skips a parameter whose deviceId is not the NIC's
// type, whose breakout is not numberOfPlanes, or whose multiplane is not
// multiplaneMode; a later parameter of the same path is applied after an
// earlier one.
func fromProfile(kt *model.K8sTemplate, t *k8s.NicTemplate, c *k8s.ConfigMap) *model.K8sTemplate {
	sx, p := t.SpectrumX, c.Profile
	src := "the Spectrum-X profile ConfigMap " + c.Namespace + "/" + c.Name
	kt.SpectrumX.Profile = src
	planes := 1
	if sx.NumberOfPlanes.Set {
		planes = sx.NumberOfPlanes.V
	}
	mode := "none"
	if sx.MultiplaneMode.Set && sx.MultiplaneMode.V != "" {
		mode = sx.MultiplaneMode.V
	}
	none := src + " sets no "
	kt.Trust = model.K8sSetting[string]{Pos: p.Pos, NotSet: none + "trust: the NIC keeps its own (host-trust judges it)"}
	kt.PFC = model.K8sSetting[[]int]{Pos: p.Pos, NotSet: none + "PFC: the NIC keeps its own (host-pfc judges it)"}
	kt.ToS = model.K8sSetting[int]{Pos: p.Pos, NotSet: none + "ToS: the applications' own ToS (NCCL_IB_TC) decides"}
	for _, r := range p.Roce {
		if r.MlxReg || r.DeviceID != "" && r.DeviceID != t.NicType.V || r.Breakout != 0 && r.Breakout != planes || r.Multiplane != "" && r.Multiplane != mode {
			continue
		}
		switch r.DMSPath {
		case dmsTrust:
			kt.Trust = model.K8sSetting[string]{V: r.Value, Pos: r.Pos, Default: src}
		case dmsPFC:
			if on, ok := pfcDigits(r.Value); ok {
				kt.PFC = model.K8sSetting[[]int]{V: on, Pos: r.Pos, Default: src}
			} else {
				kt.PFC = model.K8sSetting[[]int]{Pos: r.Pos, NotSet: fmt.Sprintf("%s sets PFC %q, not eight digits 0 or 1 (DMS's form, \"00010000\"): not verified", src, r.Value)}
			}
		case dmsToS:
			if v, err := strconv.Atoi(strings.TrimSpace(r.Value)); err == nil {
				kt.ToS = model.K8sSetting[int]{V: v, Pos: r.Pos, Default: src}
			} else {
				kt.ToS = model.K8sSetting[int]{Pos: r.Pos, NotSet: fmt.Sprintf("%s sets ToS %q, not a number: not verified", src, r.Value)}
			}
		}
	}
	kt.CNP[model.CNPSysfs] = model.K8sSetting[int]{V: model.SpectrumXCNPDSCP, Pos: kt.SpectrumX.Pos, Default: "spectrumXOptimized's runtime cnp_dscp 48"}
	// The profile's nvconfig for the NIC, then rawNvConfig, which the
	// operator merges "as overrides on top of Spectrum-X calculated
	// params" (api/v1alpha1 ConfigurationTemplateSpec.SpectrumXOptimized).
	if d := p.MlxConfig[mode][t.NicType.V]; d != nil {
		for _, nv := range []map[string]k8s.Str{d.Breakout[planes], d.PostBreakout} {
			for _, name := range []string{"CNP_802P_PRIO_P1", "CNP_802P_PRIO_P2"} {
				if s, ok := nv[name]; ok {
					if v, err := strconv.Atoi(strings.TrimSpace(s.V)); err == nil {
						kt.CNP[name] = model.K8sSetting[int]{V: v, Pos: s.Pos, Default: src}
					}
				}
			}
		}
	}
	for _, r := range kt.RawNvConfig {
		if strings.HasPrefix(r.Name, "CNP_802P_PRIO_P") {
			if v, err := strconv.Atoi(strings.TrimSpace(r.Value)); err == nil {
				kt.CNP[r.Name] = model.K8sSetting[int]{V: v, Pos: r.Pos}
			}
		}
	}
	return kt
}

// pfcDigits reads DMS's PFC form, one digit per priority ("00010000" is
// priority 3; pkg/dms/client.go: "DMS returns a digit-only string, e.g.
// \"00001000\"").
func pfcDigits(s string) ([]int, bool) {
	if len(s) != 8 {
		return nil, false
	}
	on := []int{}
	for i, c := range s {
		switch c {
		case '1':
			on = append(on, i)
		case '0':
		default:
			return nil, false
		}
	}
	return on, true
}
