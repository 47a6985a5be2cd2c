package checks

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/qoslint/qoslint/checks/judge"
	"github.com/qoslint/qoslint/internal/source"
	"github.com/qoslint/qoslint/model"
)

var k8sCNPConflict = &Check{
	ID:       "k8s-cnp-conflict",
	Kind:     KindConfig,
	Devices:  Hosts,
	Applies:  appliesK8s(false),
	Severity: judge.Error,
	Title:    "The CNP marking a NicConfigurationTemplate gives the NICs agrees with the policy's CNP class",
	Doc: `A NicConfigurationTemplate with roceOptimized.enabled always sets the NIC firmware's nvconfig
CNP_DSCP_P1/P2=4 and CNP_802P_PRIO_P1/P2=6 (Mellanox/nic-configuration-operator README.md
"Configuration details"), and has no knob to change them. Under a policy whose CNP DSCP is not 4
(48 by default) or whose CNP priority is not 6, the NICs then send their CNPs in a class the
switches do not give the CNP priority: congestion notifications queue behind the data they should
slow down. Only rawNvConfig overrides them ("raw wins on key collisions",
pkg/configuration/configvalidation.go), so the fix adds CNP_DSCP_P1/P2 and CNP_802P_PRIO_P1/P2
there; rawNvConfig is missing from the API between nic-configuration-operator v0.1.14 and Network
Operator 25.10, so the patch is printed only where a CRD in k8s/ shows it (k8s-nic-template). nvconfig
is firmware configuration: it applies after the operator's firmware reset or a reboot, and a runtime
write of /sys/class/net/<if>/ecn/roce_np/cnp_dscp can still override it (host-cnp judges the
collected sysfs). With spectrumXOptimized the operator writes that sysfs file itself, cnp_dscp 48 at
every apply (pkg/spectrumx/spectrumx.go cnpDscpExpectedValue, Network Operator 26.1.1 on; none in
25.10, which is then not judged), and an 802.1p priority only where the profile's mlxConfig or
rawNvConfig sets CNP_802P_PRIO_P1/P2; a conflict there has no command, as it is the operator's
constant or NVIDIA's profile.`,
	Inputs: []Input{K8sManifests},
	Run:    runK8sCNPConflict,
}

var cnpParams = []string{"CNP_DSCP_P1", "CNP_DSCP_P2", "CNP_802P_PRIO_P1", "CNP_802P_PRIO_P2"}

func runK8sCNPConflict(f *model.Fabric) []Finding {
	if f.K8s == nil {
		return nil
	}
	var out []Finding
	p := f.Policy
	for _, t := range f.K8s.Templates {
		if t.Conflict {
			continue
		}
		var reasons, actual []string
		bad := map[string]int{}
		var pos source.Pos
		if t.RoCE != nil {
			pos = t.RoCE.Pos
		}
		if t.SpectrumX != nil {
			pos = t.SpectrumX.Pos
		}
		for _, name := range append(slices.Clone(cnpParams), model.CNPSysfs) {
			s, ok := t.CNP[name]
			if !ok || s.NotSet != "" {
				continue
			}
			var j judge.Judgement
			if strings.Contains(name, "DSCP") || name == model.CNPSysfs {
				j, bad[name] = judge.HostCNPDSCP(p, s.V), p.CNP.DSCP
			} else {
				j, bad[name] = judge.HostCNPPrio(p, s.V), p.CNP.Priority
			}
			if j.OK {
				delete(bad, name)
				continue
			}
			if s.Default == "" || t.SpectrumX != nil && name != model.CNPSysfs {
				pos = s.Pos
			}
			reasons = append(reasons, j.Reason)
			actual = append(actual, fmt.Sprintf("%s=%d%s", name, s.V, via(s.Default)))
		}
		if len(bad) == 0 {
			continue
		}
		var changes []Change
		var msg string
		if t.SpectrumX != nil {
			msg = k8sWho(t.Object) + ": spectrumXOptimized sets the NICs' CNP marking: " + strings.Join(dedupe(reasons), "; ") +
				"; qoslint prints no command: the operator writes cnp_dscp 48 at every apply (pkg/spectrumx/spectrumx.go, cnpDscpExpectedValue) and takes an 802.1p priority from " + t.SpectrumX.Profile + ", NVIDIA's Spectrum-X tuning: align the fabric's CNP class with it"
		} else {
			msg = k8sWho(t.Object) + ": roceOptimized sets the NIC firmware's CNP marking: " + strings.Join(dedupe(reasons), "; ")
			ch, caveats := gatedPatch(t.Object, t.API, cnpOps(t, bad))
			if ch != nil {
				changes = []Change{*ch}
			}
			if c := caveats[model.FieldRawNvConfig.Path]; c != "" {
				msg += "; " + c
			}
		}
		for _, dev := range k8sDevices(t.Hosts, t.Object) {
			out = append(out, Finding{
				Severity: judge.Error, Device: dev, Message: msg,
				Expected: fmt.Sprintf("CNP DSCP %d, CNP 802.1p priority %d", p.CNP.DSCP, p.CNP.Priority),
				Actual:   strings.Join(actual, ", "),
				Source:   pos, Changes: changes,
			})
		}
	}
	return out
}

func dedupe(s []string) []string {
	var out []string
	for _, x := range s {
		if len(out) == 0 || out[len(out)-1] != x {
			out = append(out, x)
		}
	}
	return out
}

// cnpOps set the CNP parameters in rawNvConfig: the list when the
// template has none, else each entry (replaced, or appended). rawNvConfig
// is a field some releases lack (gatedPatch).
func cnpOps(t *model.K8sTemplate, want map[string]int) []gatedOp {
	const raw = "/spec/template/rawNvConfig"
	field := &model.FieldRawNvConfig
	if !t.RawSet {
		var list []map[string]string
		for _, n := range cnpParams {
			if v, ok := want[n]; ok {
				list = append(list, map[string]string{"name": n, "value": strconv.Itoa(v)})
			}
		}
		return []gatedOp{{fix: patchOp{Op: "add", Path: raw, Value: list}, undo: patchOp{Op: "remove", Path: raw}, field: field}}
	}
	var ops []gatedOp
	next := len(t.RawNvConfig)
	for _, n := range cnpParams {
		v, ok := want[n]
		if !ok {
			continue
		}
		idx := -1
		for i, e := range t.RawNvConfig {
			if e.Name == n {
				idx = i
			}
		}
		if idx >= 0 {
			path := fmt.Sprintf("%s/%d/value", raw, idx)
			ops = append(ops, gatedOp{fix: patchOp{Op: "replace", Path: path, Value: strconv.Itoa(v)}, undo: patchOp{Op: "replace", Path: path, Value: t.RawNvConfig[idx].Value}, field: field})
			continue
		}
		ops = append(ops, gatedOp{fix: patchOp{Op: "add", Path: raw + "/-", Value: map[string]string{"name": n, "value": strconv.Itoa(v)}}, undo: patchOp{Op: "remove", Path: fmt.Sprintf("%s/%d", raw, next)}, field: field})
		next++
	}
	return ops
}
